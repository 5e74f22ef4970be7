import type { Kysely } from 'kysely';

/** A row as the database returns it. */
export type Row = Record<string, unknown>;
/** Content tables are known only at run time: every table is a record of columns. */
export type DynamicDB = Record<string, Row>;
export type Db = Kysely<DynamicDB>;

/** One open database: SQLite today, PostgreSQL behind the same interface. */
export interface Database {
  readonly kind: 'sqlite' | 'postgres';
  readonly db: Db;
  /** Number of statements executed so far (tests assert constant query counts with it). */
  queryCount(): number;
  /**
   * A number that changes when another process has committed to the database since the last call,
   * so caches can be dropped (`PRAGMA data_version` on SQLite).
   */
  externalVersion(): Promise<number>;
  close(): Promise<void>;
}
