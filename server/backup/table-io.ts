import type { CreateTableBuilder } from 'kysely';
import type { Database, Db } from '../db/database.js';
import { createIdTable } from '../db/ddl.js';
import { BACKUP_MAX_INSERT_PARAMETERS } from '../limits.js';
import type { BackupDialect } from './dialect.js';
import type { TableSpec } from './table-spec.js';
import { encodeValue, type PortableValue } from './values.js';

/**
 * Reading and writing tables through Kysely's portable query builder: nothing here knows which
 * database it talks to; what differs lives in a BackupDialect.
 */

/** One archived row: column name to portable value. */
export type ArchivedRow = Record<string, PortableValue>;

/** Streams a table's rows in primary-key order, encoded for the archive. */
export async function* readRows(db: Db, spec: TableSpec): AsyncGenerator<ArchivedRow> {
  let query = db.selectFrom(spec.name).select(spec.columns.map((c) => c.name));
  for (const column of spec.primaryKey) query = query.orderBy(column);
  for await (const row of query.stream()) {
    const out: ArchivedRow = {};
    for (const column of spec.columns) out[column.name] = encodeValue(row[column.name]);
    yield out;
  }
}

/** Rows per INSERT: as many as fit the statement's parameter limit. */
export const insertBatchSize = (spec: TableSpec): number => Math.max(1, Math.floor(BACKUP_MAX_INSERT_PARAMETERS / Math.max(1, spec.columns.length)));

/** Inserts rows (already in the driver's types) in one statement. */
export async function insertRows(db: Db, spec: TableSpec, rows: readonly Record<string, unknown>[]): Promise<void> {
  if (rows.length > 0) await db.insertInto(spec.name).values([...rows]).execute();
}

/** Adds the archived columns (but `id` when Hearth assigns it) and constraints to a CREATE TABLE. */
function withColumns(builder: CreateTableBuilder<string, string>, spec: TableSpec, dialect: BackupDialect): CreateTableBuilder<string, string> {
  const singleForeignKeys = new Map(spec.foreignKeys.filter((fk) => fk.columns.length === 1).map((fk) => [fk.columns[0], fk]));
  const singlePrimaryKey = spec.primaryKey.length === 1 ? spec.primaryKey[0] : undefined;
  let out = builder;
  for (const column of spec.columns) {
    if (column.name === spec.autoIncrement) continue;
    out = out.addColumn(column.name, dialect.columnType(column.type), (c) => {
      let col = column.notNull ? c.notNull() : c;
      if (column.name === singlePrimaryKey) col = col.primaryKey();
      if (column.default !== undefined) col = col.defaultTo(column.default);
      const fk = singleForeignKeys.get(column.name);
      if (fk) col = col.references(`${fk.table}.${fk.referencedColumns[0] ?? 'id'}`).onDelete(fk.onDelete);
      return col;
    });
  }
  if (spec.primaryKey.length > 1) out = out.addPrimaryKeyConstraint(`${spec.name}_pk`, [...spec.primaryKey]);
  for (const [i, fk] of spec.foreignKeys.entries()) {
    if (fk.columns.length > 1) out = out.addForeignKeyConstraint(`${spec.name}_fk_${i}`, [...fk.columns], fk.table, [...fk.referencedColumns], (cb) => cb.onDelete(fk.onDelete));
  }
  return out;
}

/**
 * Creates a table the migrations do not make (content, component and link tables) as the archive
 * describes it. Hearth's `id` is made by db/ddl.ts, as for every table Hearth creates.
 */
export async function createTable(db: Db, kind: Database['kind'], spec: TableSpec, dialect: BackupDialect): Promise<void> {
  if (spec.autoIncrement !== null && spec.autoIncrement !== 'id') throw new Error(`table ${spec.name}: cannot recreate an auto-increment column other than id`);
  if (spec.autoIncrement === 'id') await createIdTable(kind, db, spec.name, (table) => withColumns(table, spec, dialect));
  else await withColumns(db.schema.createTable(spec.name), spec, dialect).execute();
}

/** Creates a recreated table's indexes (after its rows are in: one sort instead of many inserts into a b-tree). */
export async function createIndexes(db: Db, spec: TableSpec): Promise<void> {
  for (const index of spec.indexes) {
    const builder = db.schema.createIndex(index.name).ifNotExists().on(spec.name).columns([...index.columns]);
    await (index.unique ? builder.unique() : builder).execute();
  }
}

/** Deletes every row of a table (a fresh database's seeded rows, before the archive's go in). */
export async function clearTable(db: Db, spec: Pick<TableSpec, 'name'>): Promise<void> {
  await db.deleteFrom(spec.name).execute();
}
