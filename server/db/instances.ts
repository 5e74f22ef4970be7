import { randomUUID } from 'node:crypto';
import type { Database } from './database.js';
import { INSTANCES_TABLE } from './system-tables.js';
import { INSTANCE_HEARTBEAT_MS, INSTANCE_STALE_MS } from '../limits.js';

/**
 * Team mode: which servers are live on a shared PostgreSQL database. Each instance keeps a row in
 * `hearth_instances` (its id, its upload provider, when it was last seen), renewed every
 * INSTANCE_HEARTBEAT_MS and deleted when it stops; a row not renewed for INSTANCE_STALE_MS is an
 * instance that died. On SQLite one server answers requests: there is no team and no row.
 */

export interface Instances {
  /** This instance's id (a fresh UUID per start). */
  readonly id: string;
  /** What an admin of this instance should know about the others, read now (empty on SQLite or alone). */
  warnings(): Promise<string[]>;
  /** Renews this instance's row now, as the timer does every INSTANCE_HEARTBEAT_MS (a bookkeeping write: the change stamp stays). */
  beat(): Promise<void>;
  /** Stops the heartbeat and removes this instance's row. */
  close(): Promise<void>;
}

export interface InstancesOptions {
  readonly database: Database;
  readonly uploadProvider: 'local' | 's3';
  readonly now: () => Date;
  readonly log: (message: string) => void;
  /** false: a process that answers no HTTP (`hearth mcp` over stdio) is not an instance. */
  readonly serving: boolean;
}

/** The warning of an instance with the local upload provider that is not alone on its database. */
export function localFilesWarning(others: number): string {
  const them = others === 1 ? '1 other Hearth instance is' : `${others} other Hearth instances are`;
  return `${them} live on this database, and this instance stores uploads in its own folder (the local upload provider): the others cannot serve the files uploaded here. Use an S3-compatible store (UPLOAD_PROVIDER=s3) on every instance.`;
}

/** Registers this instance and starts its heartbeat; logs the warnings it starts with. */
export async function startInstances({ database, uploadProvider, now, log, serving }: InstancesOptions): Promise<Instances> {
  const id = randomUUID();
  if (database.kind !== 'postgres' || !serving) return { id, warnings: () => Promise.resolve([]), beat: () => Promise.resolve(), close: () => Promise.resolve() };
  const { db } = database;
  const beat = async () => {
    const at = now().getTime();
    await db
      .insertInto(INSTANCES_TABLE)
      .values({ id, upload_provider: uploadProvider, started_at: now().toISOString(), last_seen: at })
      .onConflict((oc) => oc.column('id').doUpdateSet({ last_seen: at }))
      .execute();
    // Rows of instances that died long ago (kill -9, a lost host) go.
    await db
      .deleteFrom(INSTANCES_TABLE)
      .where('last_seen', '<', at - 10 * INSTANCE_STALE_MS)
      .execute();
  };
  const warnings = async (): Promise<string[]> => {
    if (uploadProvider !== 'local') return [];
    const row = await db
      .selectFrom(INSTANCES_TABLE)
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .where('id', '<>', id)
      .where('last_seen', '>', now().getTime() - INSTANCE_STALE_MS)
      .executeTakeFirst();
    const others = Number(row?.n ?? 0);
    return others > 0 ? [localFilesWarning(others)] : [];
  };
  await beat();
  for (const warning of await warnings()) log(`warning: ${warning}`);
  let beating: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    beating = beat().catch((err: unknown) => log(`instances: heartbeat failed: ${err instanceof Error ? err.message : String(err)}`));
  }, INSTANCE_HEARTBEAT_MS);
  timer.unref();
  return {
    id,
    warnings,
    beat,
    async close() {
      clearInterval(timer);
      await beating;
      await db.deleteFrom(INSTANCES_TABLE).where('id', '=', id).execute();
    },
  };
}
