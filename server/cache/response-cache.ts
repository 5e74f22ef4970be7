/**
 * A cache of serialised GET answers that no write can leave stale. Every entry is tagged with the
 * database's change stamp read before its data was; an entry is served only while the stamp is
 * unchanged, and the whole cache is dropped the moment it moves (any write by this process or
 * another bumps it: see Database.changeStamp). So the cache trades memory for CPU on read-heavy
 * workloads and never for correctness.
 */

/** A cached answer: the UTF-8 JSON bytes of a 200 response, ready for the socket. */
export interface CachedBody {
  readonly body: Buffer;
}

/** Size bounds of the cache. */
export interface ResponseCacheLimits {
  /** Sum of cached body sizes in bytes. */
  readonly maxBytes: number;
  /** Larger answers are not cached. */
  readonly maxEntryBytes: number;
}

/** The cache: `stamp()` before computing, `get` to look up, `set` with the stamp read before the reads. */
export interface ResponseCache {
  /** The current change stamp, or null when caching is impossible right now. */
  stamp(): string | null;
  get(key: string, stamp: string): CachedBody | undefined;
  /** Stores an answer (JSON text) and returns its bytes. */
  set(key: string, stamp: string, text: string): Buffer;
  /** A number per distinct object (a registry), for keys that must change when it is replaced. */
  tagOf(value: object): number;
  /** Entries and bytes held (for tests and diagnostics). */
  size(): { entries: number; bytes: number };
}

/** Builds a least-recently-used response cache over a change-stamp source. */
export function createResponseCache(deps: { changeStamp: () => string | null; limits: ResponseCacheLimits }): ResponseCache {
  const { limits } = deps;
  const entries = new Map<string, CachedBody>();
  let bytes = 0;
  let currentStamp: string | null = null;
  const tags = new WeakMap<object, number>();
  let lastTag = 0;

  /** Drops everything when the stamp has moved since the entries were made. */
  const sync = (stamp: string): void => {
    if (stamp === currentStamp) return;
    entries.clear();
    bytes = 0;
    currentStamp = stamp;
  };

  return {
    stamp: () => deps.changeStamp(),
    get(key, stamp) {
      sync(stamp);
      const hit = entries.get(key);
      if (hit === undefined) return undefined;
      entries.delete(key);
      entries.set(key, hit);
      return hit;
    },
    set(key, stamp, text) {
      const body = Buffer.from(text);
      // The data was read under `stamp`; if anything was written since, the answer may already be old.
      const now = deps.changeStamp();
      if (now === null || now !== stamp || body.length > limits.maxEntryBytes) return body;
      sync(stamp);
      const old = entries.get(key);
      if (old) {
        bytes -= old.body.length;
        entries.delete(key);
      }
      entries.set(key, { body });
      bytes += body.length;
      for (const [oldest, entry] of entries) {
        if (bytes <= limits.maxBytes) break;
        entries.delete(oldest);
        bytes -= entry.body.length;
      }
      return body;
    },
    tagOf(value) {
      const known = tags.get(value);
      if (known !== undefined) return known;
      tags.set(value, ++lastTag);
      return lastTag;
    },
    size: () => ({ entries: entries.size, bytes }),
  };
}
