/**
 * A cache of serialised GET answers that no write can leave stale. Every entry is tagged with the
 * database's change stamp read before its data was; an entry is served only while the stamp is
 * unchanged, and the whole cache is dropped the moment it moves (any write by this process or
 * another bumps it: see Database.changeStamp). So the cache trades memory for CPU on read-heavy
 * workloads and never for correctness.
 */

import type { Database } from '../db/database.js';

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
  /** False when nothing can ever be cached (no change stamp, or the cache turned off). */
  readonly enabled: boolean;
  /**
   * The cache slot of one content-API GET, looked up once per request: a miss met by the front
   * door (http/cache-front.ts) is remembered on the request, so the route that then computes the
   * answer stores it without building the key or looking it up again. A promise when the stamp is
   * read from the database (PostgreSQL's `readStamp`).
   */
  read(args: ReadArgs): ReadSlot | Promise<ReadSlot>;
  /**
   * PostgreSQL: reads the stamp for one request (a statement issued after the call), to be given
   * to `read` as `stamp` and to the caller memo (http/caller.ts), so a hit costs this one round
   * trip and no credential lookup. Absent on SQLite, where the stamp is exact and free.
   */
  readonly freshStamp?: () => Promise<string | null>;
}

/** What a cached answer is keyed by, and the request it is read for. */
export interface ReadArgs {
  /** The HTTP request (one object from the front door to the route): a miss is remembered on it. */
  readonly request: object;
  /** The caller's permission set (Caller.cacheKey); undefined: this caller's answers are never cached. */
  readonly callerKey: string | undefined;
  /** The schema registry: a schema swap, even one without DDL, never meets old answers. */
  readonly registry: object;
  /** Strapi's v4 response format was asked for. */
  readonly v4: boolean;
  /** The raw URL, query string included. */
  readonly url: string;
  /** The stamp `freshStamp` read for this request; absent: `read` reads it. */
  readonly stamp?: string | null;
}

/** One GET answer's slot: the cached bytes, or where to store the computed text. */
export interface ReadSlot {
  /** The cached JSON bytes, or undefined (a miss, or the request is not cacheable). */
  readonly hit: Buffer | undefined;
  /** Stores the computed text when it may be (no write happened since the lookup) and returns its bytes. */
  store(text: string): Buffer;
}

/** The key of a cached answer: who may see it, under which schemas, in which format, for which URL. */
export function cacheKeyOf(callerKey: string, registryTag: number, v4: boolean, url: string): string {
  return `${callerKey}\n${registryTag}\n${v4 ? 'v4' : 'v5'}\n${url}`;
}

/** A hit's slot: one small object, no closure, on the benchmark's fast path. */
class HitSlot implements ReadSlot {
  constructor(readonly hit: Buffer) {}
  store(): Buffer {
    return this.hit;
  }
}

/** The slot of a request that is not cached: nothing found, nothing stored. */
const UNCACHED: ReadSlot = { hit: undefined, store: (text) => Buffer.from(text) };

/** A miss remembered on its request, with what it was keyed by (a route that keys differently looks up afresh). */
interface RememberedMiss {
  readonly args: ReadArgs;
  readonly slot: ReadSlot;
}

const sameKey = (a: ReadArgs, b: ReadArgs): boolean =>
  a.callerKey === b.callerKey && a.registry === b.registry && a.v4 === b.v4 && a.url === b.url;

/** Where the change stamp comes from. */
export interface ResponseCacheDeps {
  /**
   * The stamp as this process knows it now: on SQLite exact (Database.changeStamp); with
   * `readStamp`, the value the latest read returned (an answer is stored only if no read since
   * its lookup saw the stamp move).
   */
  readonly changeStamp: () => string | null;
  /**
   * Reads the stamp from the database by a statement issued after the call (PostgreSQL: another
   * process's commit cannot be seen otherwise). When given, every lookup awaits it first.
   */
  readonly readStamp?: () => Promise<string | null>;
  readonly limits: ResponseCacheLimits;
}

/**
 * The stamps of a database for the cache: SQLite's exact synchronous stamp, or PostgreSQL's read
 * from the database per lookup; none when the cache is off (`on` false).
 */
export function responseStamps(database: Database, on: boolean): Pick<ResponseCacheDeps, 'changeStamp' | 'readStamp'> {
  if (!on) return { changeStamp: () => null };
  const shared = database.sharedStamp;
  if (shared !== undefined) return { changeStamp: () => shared.last(), readStamp: () => shared.read() };
  return { changeStamp: () => database.changeStamp() };
}

/** Builds a least-recently-used response cache over a change-stamp source. */
export function createResponseCache(deps: ResponseCacheDeps): ResponseCache {
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

  const cache: Omit<ResponseCache, 'enabled' | 'read'> = {
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
  const misses = new WeakMap<object, RememberedMiss>();

  /** The one lookup of a request: the change stamp is read here, before any content is. */
  function read(args: ReadArgs): ReadSlot | Promise<ReadSlot> {
    const remembered = misses.get(args.request);
    if (remembered !== undefined && sameKey(remembered.args, args)) return remembered.slot;
    const callerKey = args.callerKey;
    if (callerKey === undefined) return UNCACHED;
    if (args.stamp !== undefined) return lookup(args, callerKey, args.stamp);
    if (deps.readStamp !== undefined) return deps.readStamp().then((stamp) => lookup(args, callerKey, stamp));
    return lookup(args, callerKey, deps.changeStamp());
  }

  function lookup(args: ReadArgs, callerKey: string, stamp: string | null): ReadSlot {
    if (stamp === null) return UNCACHED;
    const key = cacheKeyOf(callerKey, cache.tagOf(args.registry), args.v4, args.url);
    const hit = cache.get(key, stamp)?.body;
    if (hit !== undefined) return new HitSlot(hit);
    const slot: ReadSlot = { hit: undefined, store: (text) => cache.set(key, stamp, text) };
    misses.set(args.request, { args, slot });
    return slot;
  }

  return { ...cache, enabled: deps.readStamp !== undefined || deps.changeStamp() !== null, read, ...(deps.readStamp === undefined ? {} : { freshStamp: deps.readStamp }) };
}
