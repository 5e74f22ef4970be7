import type { Kysely } from 'kysely';
import type { SystemTables } from './system-tables.js';

/** A row as the database returns it. */
export type Row = Record<string, unknown>;
/** Content tables are known only at run time: every table is a record of columns. */
export type DynamicDB = Record<string, Row>;
/** Hearth's own tables typed column by column (db/system-tables.ts), every other name a content table. */
export type HearthDB = SystemTables & DynamicDB;
export type Db = Kysely<HearthDB>;

/** One open database: SQLite today, PostgreSQL behind the same interface. */
export interface Database {
  readonly kind: 'sqlite' | 'postgres';
  readonly db: Db;
  /** Number of statements executed so far (tests assert constant query counts with it). */
  queryCount(): number;
  /**
   * A value that changes whenever anything may have been written to the database, by this process
   * (any statement that is not a read) or by another one (`PRAGMA data_version` on SQLite); caches
   * keyed by it can never serve data older than a write. null: changes cannot be seen (no caching).
   */
  changeStamp(): string | null;
  /**
   * PostgreSQL: the change stamp kept in the database (pg-change.ts), bumped in every write
   * transaction of every Hearth process on it and read with one statement by primary key: `read()`
   * before any data a cached answer stands for, `last()` the value the latest read returned.
   */
  readonly sharedStamp?: { read(): Promise<string | null>; last(): string | null };
  /**
   * A value that changes whenever another process (a CLI command) commits a change: on SQLite any
   * commit of another connection (`PRAGMA data_version`); on PostgreSQL each `announceChange` of
   * any process (LISTEN/NOTIFY). null: such changes cannot be seen now (read what you need again).
   */
  readonly othersStamp?: () => string | null;
  /** Tells other processes a change was committed (PostgreSQL: NOTIFY); SQLite needs none (its othersStamp sees every commit). */
  readonly announceChange?: () => Promise<void>;
  /**
   * Refreshes the query planner's statistics where they are missing or stale (after a schema
   * sync and now and then): SQLite's `PRAGMA optimize`, bounded by `analysis_limit`. PostgreSQL's
   * autovacuum does this itself.
   */
  optimize(): Promise<void>;
  /** PostgreSQL: LISTENs on `channel` on a connection of its own, reconnecting; `connect` runs after each (re)connection. */
  readonly listen?: (
    channel: string,
    on: { message: (payload: string) => void; connect: () => void },
  ) => { close(): Promise<void>; readValue(text: string): Promise<unknown> };
  /**
   * PostgreSQL: `check` runs at the start of every read-write transaction, once the write lock is
   * held, with the database's schema stamp (`hearth_meta.schema_set_version`, db/schema-version.ts);
   * when it throws, the transaction is rolled back and the error rejects it (admin/schema-controller.ts).
   */
  readonly guardWrites?: (check: ((stamp: string | null) => void) | null) => void;
  /** SQLite on a file: how another thread opens the same database to read it (db/sqlite.ts openSqliteReader). */
  readonly readers?: { readonly file: string; readonly nativeBinding?: string };
  /** SQLite: registers a deterministic SQL function (integers arrive as numbers, or BigInt beyond 2^53). Absent on PostgreSQL. */
  readonly defineFunction?: (name: string, fn: (...args: unknown[]) => unknown) => void;
  close(): Promise<void>;
}
