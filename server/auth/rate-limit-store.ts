import { sql } from 'kysely';
import type { ClientRateLimitInfo, Options, Store } from 'express-rate-limit';
import type { Database } from '../db/database.js';
import { RATE_LIMITS_TABLE } from '../db/system-tables.js';
import { RATE_LIMIT_SWEEP_EVERY, RATE_LIMIT_MEMORY_MAX_KEYS } from '../limits.js';

/**
 * Stores for express-rate-limit's fixed windows, counted on the server's clock (tests move time
 * instead of sleeping). On PostgreSQL the hits live in `hearth_rate_limits`, so N instances on one
 * database allow the attempts of one, not N times them; on SQLite a server is the only instance
 * that answers requests, and the hits stay in memory.
 */

export interface RateLimitStoreOptions {
  readonly database: Database;
  readonly now: () => Date;
  /** Keeps the limiters of different routes apart in the shared table. */
  readonly prefix: string;
}

/** Fixed windows in this process's memory. */
export function memoryRateLimitStore(now: () => Date): Store {
  const hits = new Map<string, { count: number; resetAt: number }>();
  let windowMs = 60_000;
  const sweep = (at: number) => {
    for (const [key, entry] of hits) if (entry.resetAt <= at) hits.delete(key);
  };
  return {
    localKeys: true,
    init(options: Options) {
      windowMs = options.windowMs;
    },
    increment(key: string): ClientRateLimitInfo {
      const at = now().getTime();
      if (hits.size > RATE_LIMIT_MEMORY_MAX_KEYS) sweep(at);
      let entry = hits.get(key);
      if (!entry || entry.resetAt <= at) entry = { count: 0, resetAt: at + windowMs };
      entry.count += 1;
      hits.set(key, entry);
      return { totalHits: entry.count, resetTime: new Date(entry.resetAt) };
    },
    decrement(key: string) {
      const entry = hits.get(key);
      if (entry && entry.count > 0) entry.count -= 1;
    },
    resetKey(key: string) {
      hits.delete(key);
    },
  };
}

/**
 * Fixed windows in `hearth_rate_limits`: one upsert increments the key's hits (starting a new
 * window when the old one has ended) and returns the count, atomically, whichever instance runs it.
 * Ended windows are deleted now and then.
 */
export function databaseRateLimitStore({ database, now, prefix }: RateLimitStoreOptions): Store {
  const { db } = database;
  let windowMs = 60_000;
  let untilSweep = RATE_LIMIT_SWEEP_EVERY;
  const keyOf = (key: string) => `${prefix}:${key}`;
  return {
    localKeys: false,
    prefix,
    init(options: Options) {
      windowMs = options.windowMs;
    },
    async increment(key: string): Promise<ClientRateLimitInfo> {
      const at = now().getTime();
      if (--untilSweep <= 0) {
        untilSweep = RATE_LIMIT_SWEEP_EVERY;
        await db.deleteFrom(RATE_LIMITS_TABLE).where('reset_at', '<=', at).execute();
      }
      const ended = sql<boolean>`${sql.ref(`${RATE_LIMITS_TABLE}.reset_at`)} <= ${at}`;
      const row = await db
        .insertInto(RATE_LIMITS_TABLE)
        .values({ key: keyOf(key), hits: 1, reset_at: at + windowMs })
        .onConflict((oc) =>
          oc.column('key').doUpdateSet({
            hits: sql<number>`CASE WHEN ${ended} THEN 1 ELSE ${sql.ref(`${RATE_LIMITS_TABLE}.hits`)} + 1 END`,
            reset_at: sql<number>`CASE WHEN ${ended} THEN ${sql.ref('excluded.reset_at')} ELSE ${sql.ref(`${RATE_LIMITS_TABLE}.reset_at`)} END`,
          }),
        )
        .returning(['hits', 'reset_at'])
        .executeTakeFirstOrThrow();
      return { totalHits: Number(row.hits), resetTime: new Date(Number(row.reset_at)) };
    },
    async decrement(key: string) {
      await db
        .updateTable(RATE_LIMITS_TABLE)
        .set({ hits: sql<number>`${sql.ref('hits')} - 1` })
        .where('key', '=', keyOf(key))
        .where('hits', '>', 0)
        .execute();
    },
    async resetKey(key: string) {
      await db.deleteFrom(RATE_LIMITS_TABLE).where('key', '=', keyOf(key)).execute();
    },
  };
}

/** The store a limiter of this server uses: the database's on PostgreSQL, memory on SQLite. */
export function rateLimitStore(options: RateLimitStoreOptions): Store {
  return options.database.kind === 'postgres' ? databaseRateLimitStore(options) : memoryRateLimitStore(options.now);
}
