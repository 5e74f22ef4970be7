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
  /** Runs `fn` with `registry` pinned until `until` calls its release; `tally`, when given, counts the pinned code's writes (`wrote`). */
  pinUntil<T>(registry: Registry, fn: () => T, until: (release: () => void) => void, tally?: WriteTally): T;
  /** Counts a write transaction begun by the pinned code running now (team mode's write guard let it through). */
  wrote(): void;
  /** Runs `fn` with `registry` pinned until it returns, or until the promise it returns settles (`tally`: as pinUntil's). */
  pin<T>(registry: Registry, fn: () => T, tally?: WriteTally): T;
  /** Runs `fn` with `registry` held during its synchronous part only (no AsyncLocalStorage). */
  within<T>(registry: Registry, fn: () => T): T;
}

/** The write transactions a pinned run began: one that began any may have committed, so it is never run again. */
export interface WriteTally {
  writes: number;
}

/** What a pin holds: the registry, and the tally of the run it pins (if counted). */
interface Pin {
  readonly registry: Registry;
  readonly tally: WriteTally | undefined;
}

export function createRegistryPins(): RegistryPins {
  const storage = new AsyncLocalStorage<Pin>();
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
  function pinUntil<T>(registry: Registry, fn: () => T, until: (release: () => void) => void, tally?: WriteTally): T {
    const release = hold();
    until(release);
    try {
      // A pin inside a counted one (a builder change inside an admin request) counts for the outer run too.
      return storage.run({ registry, tally: tally ?? storage.getStore()?.tally }, fn);
    } catch (err) {
      release();
      throw err;
    }
  }
  /** The registry `within` holds while its callback runs synchronously. */
  let held: Registry | undefined;
  return {
    now: () => held ?? storage.getStore()?.registry,
    pinned: () => storage.getStore()?.registry,
    pinUntil,
    wrote() {
      const tally = storage.getStore()?.tally;
      if (tally !== undefined) tally.writes += 1;
    },
    pin(registry, fn, tally) {
      let release = (): void => undefined;
      const out = pinUntil(
        registry,
        fn,
        (r) => {
          release = r;
        },
        tally,
      );
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
