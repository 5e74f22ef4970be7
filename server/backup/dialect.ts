import type { Expression } from 'kysely';
import type { Database, Db } from '../db/database.js';
import { postgresDialect } from './postgres-dialect.js';
import { sqliteDialect } from './sqlite-dialect.js';
import type { ColumnSpec, PortableType, TableSpec } from './table-spec.js';

/**
 * What export and import need from one database engine beyond Kysely's portable queries: how to
 * describe its tables, its sequences and column types, and how to restore rows into it. SQLite
 * implements it in sqlite-dialect.ts, PostgreSQL in postgres-dialect.ts.
 */
export interface BackupDialect {
  readonly kind: 'sqlite' | 'postgres';
  /** Every table of the database (Hearth's and content tables), by name. */
  describe(db: Db): Promise<TableSpec[]>;
  /** The last value handed out by each table's id sequence, so an import never reuses an id. */
  sequences(db: Db): Promise<ReadonlyMap<string, number>>;
  /** The SQL type of a portable storage class. */
  columnType(type: PortableType): Expression<unknown>;
  /** Called first inside the restore transaction (SQLite defers foreign-key checks to commit there). */
  beginRestore(db: Db): Promise<void>;
  /** A decoded archive value as this driver binds it into a column (SQLite has no booleans, PostgreSQL wants them). */
  toStored(value: null | boolean | number | string | bigint | Buffer, column: ColumnSpec): unknown;
  /** Moves a table's id sequence to at least `value`. */
  restoreSequence(db: Db, table: string, value: number): Promise<void>;
  /** Whether a failed restore statement was refused for the archive's data (a constraint, a type) rather than by a failing database. */
  isDataError(err: unknown): boolean;
}

/** The backup dialect of an open database. */
export function dialectOf(database: Pick<Database, 'kind'>): BackupDialect {
  return database.kind === 'postgres' ? postgresDialect : sqliteDialect;
}
