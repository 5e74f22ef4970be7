import { sql } from 'kysely';
import type { Db } from './database.js';
import { INSTANCES_TABLE, RATE_LIMITS_TABLE, STREAM_EVENTS_TABLE, WEBHOOK_DELIVERIES_TABLE, WEBHOOK_EVENTS_TABLE } from './system-tables.js';

/**
 * PostgreSQL's change stamp: one row of `hearth_change` whose counter every write transaction of
 * every Hearth process on the database bumps inside that transaction (the transaction's first
 * statement after the write lock, postgres.ts), and every write outside a transaction in a
 * transaction of its own (pg-pool.ts), except a bookkeeping write (writesOnlyBookkeeping). A reader reads the stamp before it reads any data; an
 * answer read under one stamp is served only to a request that read the same stamp after it
 * arrived, so it never misses a write acknowledged before that request (response-cache.ts).
 *
 * The stamp is the table's oid and the counter: a table dropped and created again (an
 * `import --force`) starts a new series that can never repeat an old value.
 */
export const CHANGE_TABLE = 'hearth_change';

/** The key of the transaction-level advisory lock every read-write transaction takes ("Hearth"). */
const WRITE_LOCK_KEY = 0x4865617274;

/** Bumps the counter; a missing row is created (it counts from 1). */
export const BUMP = `INSERT INTO ${CHANGE_TABLE} (id, n) VALUES (1, 1) ON CONFLICT (id) DO UPDATE SET n = ${CHANGE_TABLE}.n + 1`;
const LOCK = `SELECT pg_advisory_xact_lock(${WRITE_LOCK_KEY})`;

/** A write transaction's first statement: the write lock, then the bump (one round trip: the simple protocol takes both). */
export const LOCK_AND_BUMP = `${LOCK}; ${BUMP}`;

/** The same, creating the table first (a fresh database, or one whose tables an import dropped); under the lock, so never two at once. */
export const LOCK_CREATE_AND_BUMP = `${LOCK}; CREATE TABLE IF NOT EXISTS ${CHANGE_TABLE} (id integer PRIMARY KEY, n bigint NOT NULL); ${BUMP}`;

/** The stamp's read: one row by its primary key. */
const READ = `SELECT n, tableoid::bigint AS t FROM ${CHANGE_TABLE} WHERE id = 1`;

/** SQLSTATE undefined_table: the change table is not there (yet, or any more). */
export function isUndefinedTable(err: unknown): boolean {
  return err instanceof Error && 'code' in err && err.code === '42P01';
}

/** Statements that never write: everything else, run outside a transaction, is given one that bumps the stamp. */
const READS = /^(select|show|explain|begin|start|commit|rollback|end|abort|savepoint|release|declare|fetch|move|close|listen|unlisten|notify|set|reset|values|table|discard|deallocate|prepare|execute)\b/i;
/** A data-modifying common table expression. */
const MODIFIES = /\b(insert|update|delete|merge)\b/i;

/** Whether a statement may write (text-based and conservative: a read taken for a write only costs a bump). */
export function mayWrite(sqlText: string): boolean {
  const text = sqlText.replace(/^[\s(]+/, '');
  if (/^with\b/i.test(text)) return MODIFIES.test(text);
  return !READS.test(text);
}

/**
 * Hearth's bookkeeping tables: instance heartbeats, rate-limit counters, webhook deliveries (and
 * their pruned events), the change stream's events. No cached answer (a content-API GET) reads
 * them, so a write to them alone, outside a transaction, leaves the stamp where it is: with N
 * instances, each one's heartbeat every 10 s would otherwise drop every cache every 10/N s.
 * Writes in a transaction always bump (postgres.ts): an event recorded with a content write moves
 * the stamp with it.
 */
const BOOKKEEPING_TABLES: ReadonlySet<string> = new Set([INSTANCES_TABLE, RATE_LIMITS_TABLE, WEBHOOK_DELIVERIES_TABLE, WEBHOOK_EVENTS_TABLE, STREAM_EVENTS_TABLE]);

/** The table an INSERT, UPDATE or DELETE names first (quoted or bare, unqualified). */
const TARGET = /^(?:insert\s+into|update|delete\s+from)\s+(?:"([^"]+)"|([a-z_][a-z0-9_]*))[\s(]/i;

/**
 * Whether a statement writes a bookkeeping table and nothing else: one INSERT, UPDATE or DELETE
 * (no `;`, no leading WITH: PostgreSQL allows a data-modifying WITH only at the top) whose target
 * is in BOOKKEEPING_TABLES. Conservative like mayWrite: anything unsure bumps.
 */
export function writesOnlyBookkeeping(sqlText: string): boolean {
  const text = sqlText.replace(/^[\s(]+/, '');
  if (text.includes(';')) return false;
  const match = TARGET.exec(text);
  const table = match?.[1] ?? match?.[2];
  return table !== undefined && BOOKKEEPING_TABLES.has(table);
}

/** Whether a statement opens or ends a transaction block (savepoints excepted). */
export function transactionEdge(sqlText: string): 'begin' | 'end' | null {
  const text = sqlText.trimStart();
  if (/^(begin|start\s+transaction)\b/i.test(text)) return 'begin';
  if (/^rollback\s+to\b/i.test(text)) return null;
  if (/^(commit|rollback|end|abort)\b/i.test(text)) return 'end';
  return null;
}

/** Reads of the stamp, and the value the latest one returned. */
export interface StampReader {
  /** The stamp read by a statement issued after this call; null when it cannot be read (the cache then stays out of the way). */
  read(): Promise<string | null>;
  /** The value the latest completed read returned. */
  last(): string | null;
}

/**
 * Reads the stamp, coalescing concurrent callers: at most one read runs at a time, and callers
 * that arrive while it runs share the next one, which starts only after they arrived. So each
 * caller's stamp is read by a statement issued after its call, and a burst of requests costs
 * two statements, not one each.
 */
export function createStampReader(db: Db, closed: () => boolean): StampReader {
  let running: Promise<string | null> | null = null;
  let queued: Promise<string | null> | null = null;
  let latest: string | null = null;

  async function query(): Promise<string | null> {
    if (closed()) return null;
    try {
      const { rows } = await sql.raw<{ n: unknown; t: unknown }>(READ).execute(db);
      const row = rows[0];
      latest = row === undefined ? 'none' : `${String(row.t)}:${String(row.n)}`;
    } catch {
      // No table yet (no write ever ran) or no connection: no stamp, so nothing is served from the cache.
      latest = null;
    }
    return latest;
  }

  function start(): Promise<string | null> {
    const run = query();
    running = run;
    void run.finally(() => {
      if (running === run) running = null;
    });
    return run;
  }

  return {
    read() {
      if (queued !== null) return queued;
      if (running === null) return start();
      const next = running.then(() => {
        queued = null;
        return start();
      });
      queued = next;
      return next;
    },
    last: () => (closed() ? null : latest),
  };
}
