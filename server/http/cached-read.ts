import type { Caller } from '../auth/caller.js';
import type { ResponseCache } from '../cache/response-cache.js';
import type { Registry } from '../schema/registry.js';

/** A GET answer's cache slot: look it up before reading, store the text once computed. */
export interface CachedRead {
  /** The cached JSON bytes, or undefined (a miss, or the request is not cacheable). */
  lookup(): Buffer | undefined;
  /** Stores the computed text when it may be (no write happened meanwhile) and returns its bytes. */
  store(text: string): Buffer;
}

/**
 * The cache slot of one content-API GET: keyed by the caller's permission set, the registry (a
 * schema swap, even one without DDL, never meets old answers), the response format and the raw URL. The change stamp is read here, before any content is read, so
 * an answer computed across a write is never stored (see response-cache.ts).
 */
export function cachedRead(args: { responses: ResponseCache; caller: Caller; registry: Registry; v4: boolean; url: string }): CachedRead {
  const { responses, caller } = args;
  const stamp = caller.cacheKey === undefined ? null : responses.stamp();
  if (stamp === null) return { lookup: () => undefined, store: (text) => Buffer.from(text) };
  const key = cacheKeyOf(caller.cacheKey as string, responses.tagOf(args.registry), args.v4, args.url);
  return {
    lookup: () => responses.get(key, stamp)?.body,
    store: (text) => responses.set(key, stamp, text),
  };
}

/** The key of a cached answer: who may see it, under which schemas, in which format, for which URL. */
export function cacheKeyOf(callerKey: string, registryTag: number, v4: boolean, url: string): string {
  return `${callerKey}\n${registryTag}\n${v4 ? 'v4' : 'v5'}\n${url}`;
}
