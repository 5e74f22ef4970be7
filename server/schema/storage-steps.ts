import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import { COLUMNS_TABLE, FILES_RELATED_TABLE, MODELS_TABLE } from '../db/system-tables.js';
import { uniqueIndexName } from './storage.js';

/**
 * The storage steps a content-type builder change is made of: renames and drops of tables,
 * columns and link rows, each keeping Hearth's bookkeeping tables (hearth_columns,
 * hearth_models) in step. They run inside the change's transaction.
 */

/** One step of a change, run in the change's transaction. */
export type Step = (db: Db) => Promise<void>;

/** Tables and their columns as they are now. */
export type TableState = ReadonlyMap<string, ReadonlySet<string>>;

/** Reads every table and its columns. */
export async function tableState(db: Db): Promise<Map<string, Set<string>>> {
  const out = new Map<string, Set<string>>();
  for (const t of await db.introspection.getTables()) out.set(t.name, new Set(t.columns.map((c) => c.name)));
  return out;
}

async function count(query: Promise<{ n: unknown } | undefined>): Promise<number> {
  return Number((await query)?.n ?? 0);
}

/** Rows of a table (0 when it does not exist). */
export function countTable(db: Db, state: TableState, table: string): Promise<number> {
  if (!state.has(table)) return Promise.resolve(0);
  return count(db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirst());
}

/** Rows whose column holds a value (0 when the column does not exist). */
export function countColumn(db: Db, state: TableState, table: string, column: string): Promise<number> {
  if (!state.get(table)?.has(column)) return Promise.resolve(0);
  return count(db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).where(column, 'is not', null).executeTakeFirst());
}

/** Links of one attribute in a component link table or the media link table, optionally only some component types. */
export function countLinks(db: Db, state: TableState, args: { table: string; field: string; relatedType?: string; exceptTypes?: readonly string[] }): Promise<number> {
  if (!state.has(args.table)) return Promise.resolve(0);
  let q = db.selectFrom(args.table).select((eb) => eb.fn.countAll().as('n')).where('field', '=', args.field);
  if (args.relatedType !== undefined) q = q.where('related_type', '=', args.relatedType);
  if (args.exceptTypes !== undefined && args.exceptTypes.length > 0) q = q.where('component_type', 'not in', [...args.exceptTypes]);
  return count(q.executeTakeFirst());
}

/** Drops a table and forgets its columns. */
export const dropTable =
  (table: string): Step =>
  async (db) => {
    await db.schema.dropTable(table).ifExists().execute();
    await db.deleteFrom(COLUMNS_TABLE).where('table_name', '=', table).execute();
  };

/** Renames a table, dropping indexes named after the old name (the sync recreates them under the new one). */
export const renameTable =
  (from: string, to: string, oldIndexes: readonly string[]): Step =>
  async (db) => {
    for (const index of oldIndexes) await db.schema.dropIndex(index).ifExists().execute();
    await db.schema.alterTable(from).renameTo(to).execute();
    await db.deleteFrom(COLUMNS_TABLE).where('table_name', '=', to).execute();
    await db.updateTable(COLUMNS_TABLE).set({ table_name: to }).where('table_name', '=', from).execute();
  };

/** Drops one column (and its unique attribute's index first: SQLite refuses to drop an indexed column) and forgets it. */
export const dropColumn =
  (table: string, column: string): Step =>
  async (db) => {
    await db.schema.dropIndex(uniqueIndexName(table, column)).ifExists().execute();
    await db.schema.alterTable(table).dropColumn(column).execute();
    await db.deleteFrom(COLUMNS_TABLE).where('table_name', '=', table).where('column_name', '=', column).execute();
  };

/** Renames one column; its recorded kind moves with it. */
export const renameColumn =
  (table: string, from: string, to: string): Step =>
  async (db) => {
    await db.schema.alterTable(table).renameColumn(from, to).execute();
    await db.deleteFrom(COLUMNS_TABLE).where('table_name', '=', table).where('column_name', '=', to).execute();
    await db.updateTable(COLUMNS_TABLE).set({ column_name: to }).where('table_name', '=', table).where('column_name', '=', from).execute();
  };

/** Moves link rows (media or component links) from one attribute name to another. */
export const renameLinks =
  (table: string, from: string, to: string, relatedType?: string): Step =>
  async (db) => {
    let q = db.updateTable(table).set({ field: to }).where('field', '=', from);
    if (relatedType !== undefined) q = q.where('related_type', '=', relatedType);
    await q.execute();
  };

/**
 * Deletes the component links of one attribute (all, or those of component types no longer
 * allowed) and the component rows they pointed to.
 */
export const deleteComponentLinks =
  (args: { table: string; field: string; exceptTypes?: readonly string[]; componentTables: ReadonlyMap<string, string> }): Step =>
  async (db) => {
    let q = db.selectFrom(args.table).select(['id', 'cmp_id', 'component_type']).where('field', '=', args.field);
    if (args.exceptTypes !== undefined && args.exceptTypes.length > 0) q = q.where('component_type', 'not in', [...args.exceptTypes]);
    const links = await q.execute();
    for (const link of links) {
      const table = args.componentTables.get(String(link.component_type));
      if (table !== undefined) await db.deleteFrom(table).where('id', '=', Number(link.cmp_id)).execute();
      await db.deleteFrom(args.table).where('id', '=', Number(link.id)).execute();
    }
  };

/** Deletes the media links of one attribute (or of every attribute of a removed model). */
export const deleteMediaLinks =
  (relatedType: string, field?: string): Step =>
  async (db) => {
    let q = db.deleteFrom(FILES_RELATED_TABLE).where('related_type', '=', relatedType);
    if (field !== undefined) q = q.where('field', '=', field);
    await q.execute();
  };

/** Forgets a removed model in the bookkeeping table. */
export const forgetModel =
  (uid: string): Step =>
  async (db) => {
    await db.deleteFrom(MODELS_TABLE).where('uid', '=', uid).execute();
  };

/** The ids of the draft rows that would be lost if draft & publish were turned off: never published, or newer than their published version. */
export const unpublishedDrafts = (table: string) => sql`
    SELECT d.id FROM ${sql.table(table)} AS d
    WHERE d."publishedAt" IS NULL AND NOT EXISTS (
      SELECT 1 FROM ${sql.table(table)} AS p
      WHERE p."documentId" = d."documentId" AND p."publishedAt" IS NOT NULL
        AND (p.locale = d.locale OR (p.locale IS NULL AND d.locale IS NULL))
        AND p."updatedAt" >= d."updatedAt"
    )`;

/** How many draft rows turning draft & publish off would lose. */
export async function countUnpublishedDrafts(db: Db, table: string): Promise<number> {
  const row = await sql<{ n: number }>`SELECT COUNT(*) AS n FROM (${unpublishedDrafts(table)}) AS lost`.execute(db);
  return Number(row.rows[0]?.n ?? 0);
}
