import type { Caller } from './caller.js';

/**
 * Remembers who a credential (or no credential: the public role) resolved to, so a burst of
 * requests with one token costs one hash and one row read, not one each. An entry is used only
 * while the database's change stamp is the one read before it was resolved (revoking a token,
 * blocking a user, ending a session or changing a role's permissions all write, and drop every
 * entry) and for at most `ttlMs`, which bounds how long a credential that expires by the clock
 * alone (a JWT, an API token's lifespan) is still accepted after it has. On PostgreSQL only the
 * response cache's front door uses it, with the stamp it read for the request (`fresh`).
 */
export interface CallerMemo {
  /** The current change stamp, or null: do not remember anything now. */
  stamp(): string | null;
  get(credential: string, stamp: string): Caller | undefined;
  /**
   * Remembers a caller resolved after `stamp` was read, unless anything was written since. `fresh`:
   * `stamp` was read from the database for this request before the caller was resolved
   * (PostgreSQL's front door, where this process cannot know the stamp without reading it): it is
   * kept under it as it is, since a request that reads the same stamp later saw no write in between.
   */
  set(credential: string, stamp: string, caller: Caller, fresh?: boolean): void;
}

export function createCallerMemo(deps: { changeStamp: () => string | null; now: () => Date; ttlMs: number; maxEntries: number }): CallerMemo {
  const entries = new Map<string, { caller: Caller; at: number }>();
  let current: string | null = null;
  const sync = (stamp: string): void => {
    if (stamp === current) return;
    entries.clear();
    current = stamp;
  };
  return {
    stamp: () => deps.changeStamp(),
    get(credential, stamp) {
      sync(stamp);
      const entry = entries.get(credential);
      if (entry === undefined) return undefined;
      const age = deps.now().getTime() - entry.at;
      if (age >= 0 && age < deps.ttlMs) return entry.caller;
      entries.delete(credential);
      return undefined;
    },
    set(credential, stamp, caller, fresh = false) {
      if (!fresh && deps.changeStamp() !== stamp) return;
      sync(stamp);
      if (entries.size >= deps.maxEntries) entries.clear();
      entries.set(credential, { caller, at: deps.now().getTime() });
    },
  };
}
