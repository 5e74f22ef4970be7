import type { Caller } from '../auth/caller.js';
import type { ResponseCache } from '../cache/response-cache.js';
import type { Registry } from '../schema/registry.js';

/** A GET answer's cache slot: look it up before reading, store the text once computed. */
export interface CachedRead {
  /** The cached JSON text, or undefined (a miss, or the request is not cacheable). */
  lookup(): string | undefined;
  /** Stores the computed text when it may be (no write happened meanwhile) and returns it. */
  store(text: string): string;
}

/**
 * The cache slot of one content-API GET: keyed by the caller's permission set, the registry (a
 * schema swap, even one without DDL, never meets old answers), the response format and the raw URL. The change stamp is read here, before any content is read, so
 * an answer computed across a write is never stored (see response-cache.ts).
 */
export function cachedRead(args: { responses: ResponseCache; caller: Caller; registry: Registry; v4: boolean; url: string }): CachedRead {
  const { responses, caller } = args;
  const stamp = caller.cacheKey === undefined ? null : responses.stamp();
  if (stamp === null) return { lookup: () => undefined, store: (text) => text };
  const key = `${caller.cacheKey}\n${responses.tagOf(args.registry)}\n${args.v4 ? 'v4' : 'v5'}\n${args.url}`;
  return {
    lookup: () => responses.get(key, stamp)?.body,
    store(text) {
      responses.set(key, stamp, text);
      return text;
    },
  };
}
