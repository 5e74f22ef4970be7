import { SCHEMA_RACE_RETRIES } from '../limits.js';
import type { Registry } from '../schema/registry.js';
import type { WriteTally } from './registry-pins.js';
import type { SchemaController } from './schema-controller.js';

/**
 * Team mode: a request (or an MCP tool call) that races a schema change made on another instance
 * is refused by the write guard before it writes (409 `schemaChanged`), or a read of it meets a
 * column or table the change just dropped (42703 / 42P01). It is then run again under the new
 * schemas, once this instance follows them, as long as no write transaction of the run got past
 * the guard: such a write may have committed, and running it again would repeat it.
 */

/** One pinned run of a piece of work: the registry it runs under, the writes it began, and which run it is (1 = the first). */
export interface RaceAttempt {
  readonly registry: Registry;
  readonly tally: WriteTally;
  readonly run: number;
}

/** Runs `fn` pinned to the running registry until `until` calls the release, counting the write transactions it begins. */
export function startAttempt<T>(schemas: SchemaController, fn: (attempt: RaceAttempt) => T, options: { until: (release: () => void) => void; run: number }): T {
  const tally: WriteTally = { writes: 0 };
  return schemas.pinUntil(() => fn({ registry: schemas.current(), tally, run: options.run }), options.until, tally);
}

/**
 * After `attempt` failed with `err`: the registry to run it again under, or null when it must not
 * run again (not a schema race, a write of it got past the guard, SCHEMA_RACE_RETRIES spent, or
 * no newer schemas once the database's set is followed).
 */
export async function rerunRegistry(schemas: SchemaController, attempt: RaceAttempt, err: unknown): Promise<Registry | null> {
  if (schemas.stamp() === null || attempt.tally.writes > 0 || attempt.run > SCHEMA_RACE_RETRIES) return null;
  return schemas.recover(err, attempt.registry);
}

/** Runs `work` pinned to the running schemas, and again under newer ones while it fails with a schema race before writing. */
export async function rerunOnSchemaRace<T>(schemas: SchemaController, work: () => Promise<T>): Promise<T> {
  // SQLite: the folder is the only truth, nothing races (and nothing is pinned: no AsyncLocalStorage cost).
  if (schemas.stamp() === null) return work();
  for (let run = 1; ; run++) {
    let attempt: RaceAttempt | undefined;
    let release = (): void => undefined;
    try {
      return await startAttempt(
        schemas,
        (a) => {
          attempt = a;
          return work();
        },
        { until: (r) => (release = r), run },
      );
    } catch (err) {
      if (attempt === undefined || (await rerunRegistry(schemas, attempt, err)) === null) throw err;
    } finally {
      release();
    }
  }
}
