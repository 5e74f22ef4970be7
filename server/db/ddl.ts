import { sql, type ColumnDataType, type CreateTableBuilder, type Expression } from 'kysely';
import type { Database, Db } from './database.js';
import { assignIdsInTransaction } from './postgres-functions.js';

/**
 * Adds the auto-incrementing integer primary key `id`, spelled as each dialect wants it. On
 * PostgreSQL the value comes from a trigger (see createIdTable), not an identity sequence.
 */
export function withIdColumn<T extends string>(
  kind: Database['kind'],
  builder: CreateTableBuilder<T, never>,
): CreateTableBuilder<T, 'id'> {
  return kind === 'postgres'
    ? builder.addColumn('id', 'bigint', (c) => c.primaryKey())
    : builder.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
}

/**
 * Creates a table with Hearth's `id` and the columns `build` adds. SQLite's AUTOINCREMENT ids
 * are transactional (a rolled-back insert gives its id back) and answers show them, so PostgreSQL
 * assigns them the same way, from a counter row updated in the inserting transaction.
 */
export async function createIdTable(
  kind: Database['kind'],
  db: Db,
  name: string,
  build: (table: CreateTableBuilder<string, 'id'>) => CreateTableBuilder<string, string>,
): Promise<void> {
  await build(withIdColumn(kind, db.schema.createTable(name))).execute();
  if (kind === 'postgres') await assignIdsInTransaction(db, name);
}

/** Column types Hearth uses, per dialect. Kept to a few portable storage classes. */
export type StorageType = 'text' | 'integer' | 'bigint' | 'real' | 'boolean';

/**
 * The column type of a storage class. On PostgreSQL, text compares byte by byte (`COLLATE "C"`,
 * SQLite's BINARY order whatever the database's locale), integers have 64 bits and reals are
 * doubles as SQLite's are, and booleans are 0/1 `smallint`s, as SQLite stores them, so every
 * value, operator and cast agrees.
 */
export function columnType(kind: Database['kind'], type: StorageType): Expression<unknown> {
  if (kind === 'postgres') return type === 'text' ? sql`text COLLATE "C"` : castType(kind, type);
  switch (type) {
    case 'text':
      return sql`text`;
    case 'integer':
    case 'bigint':
    case 'boolean':
      return sql`integer`;
    case 'real':
      return sql`real`;
  }
}

/** The type a CAST converts to for a storage class (no collation: CAST takes none). */
export function castType(kind: Database['kind'], type: StorageType): Expression<unknown> {
  if (kind === 'postgres') {
    switch (type) {
      case 'text':
        return sql`text`;
      case 'integer':
        return sql`bigint`;
      case 'bigint':
        return sql`bigint`;
      case 'real':
        return sql`double precision`;
      case 'boolean':
        return sql`smallint`;
    }
  }
  switch (type) {
    case 'text':
      return sql`TEXT`;
    case 'real':
      return sql`REAL`;
    default:
      return sql`INTEGER`;
  }
}

/**
 * Column types of the internal tables (db/migrations.ts). SQLite keeps the very declarations its
 * data dirs were created with (`bigint`, `boolean` are only affinities there); PostgreSQL gets
 * the same storage classes as content columns.
 */
export function internalType(kind: Database['kind'], type: StorageType): ColumnDataType | Expression<unknown> {
  return kind === 'postgres' ? columnType(kind, type) : type;
}
