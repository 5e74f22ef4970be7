import { AsyncLocalStorage } from 'node:async_hooks';
import { SCHEMA_PIN_IDLE_MS } from '../limits.js';
import type { Registry } from '../schema/registry.js';

/**
 * Which registry the code running now was planned with: pinned for a whole request
 * (AsyncLocalStorage) or held during a synchronous call (`within`). Once nothing has been pinned
 * for SCHEMA_PIN_IDLE_MS the storage is disabled: enabled, its promise hooks cost every request of
 * the process CPU (about 5% of a write's), pinned or not.
 */
export interface RegistryPins {
  /** The registry held or pinned for the code running now, if any. */
  now(): Registry | undefined;
  /** The registry pinned (not merely held) for the code running now: what a transaction beginning now was planned with. */
  pinned(): Registry | undefined;
  /** Runs `fn` with `registry` pinned until `until` calls its release. */
  pinUntil<T>(registry: Registry, fn: () => T, until: (release: () => void) => void): T;
  /** Runs `fn` with `registry` pinned until it returns, or until the promise it returns settles. */
  pin<T>(registry: Registry, fn: () => T): T;
  /** Runs `fn` with `registry` held during its synchronous part only (no AsyncLocalStorage). */
  within<T>(registry: Registry, fn: () => T): T;
}

export function createRegistryPins(): RegistryPins {
  const storage = new AsyncLocalStorage<Registry>();
  /** How many pins have not ended; SCHEMA_PIN_IDLE_MS at 0 and the storage is disabled. */
  let pins = 0;
  let idleTimer: NodeJS.Timeout | undefined;
  const disableIfIdle = () => {
    idleTimer = undefined;
    if (pins === 0) storage.disable();
  };
  function hold(): () => void {
    pins += 1;
    let done = false;
    return () => {
      if (done) return;
      done = true;
      pins -= 1;
      if (pins === 0 && idleTimer === undefined) idleTimer = setTimeout(disableIfIdle, SCHEMA_PIN_IDLE_MS).unref();
    };
  }
  function pinUntil<T>(registry: Registry, fn: () => T, until: (release: () => void) => void): T {
    const release = hold();
    until(release);
    try {
      return storage.run(registry, fn);
    } catch (err) {
      release();
      throw err;
    }
  }
  /** The registry `within` holds while its callback runs synchronously. */
  let held: Registry | undefined;
  return {
    now: () => held ?? storage.getStore(),
    pinned: () => storage.getStore(),
    pinUntil,
    pin(registry, fn) {
      let release = (): void => undefined;
      const out = pinUntil(registry, fn, (r) => {
        release = r;
      });
      if (out instanceof Promise) out.then(release, release);
      else release();
      return out;
    },
    within(registry, fn) {
      const outer = held;
      held = registry;
      try {
        return fn();
      } finally {
        held = outer;
      }
    },
  };
}
