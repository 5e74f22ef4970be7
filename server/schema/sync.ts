import { sql, type CreateTableBuilder } from 'kysely';
import { COLUMNS_TABLE, MODELS_TABLE } from '../db/system-tables.js';
import type { Database, Db } from '../db/database.js';
import { castType, columnType, createIdTable, type StorageType } from '../db/ddl.js';
import { schemaError } from './parse.js';
import type { Registry } from './registry.js';
import { tablesFor, uniquePrefixOf, type ColumnPlan, type TablePlan } from './storage.js';
import type { Model } from './types.js';

export interface SyncOptions {
  /** Retire (rename, never drop) columns whose attribute changed to an incompatible type. */
  readonly acceptSchemaChanges: boolean;
  readonly defaultLocale: string;
  readonly now: () => string;
  readonly log: (message: string) => void;
}

interface Known {
  tables: Map<string, Set<string>>;
  kinds: Map<string, string>;
  models: Map<string, { table: string; schema: Record<string, unknown> }>;
}

const kindKey = (table: string, column: string) => `${table}\u0000${column}`;

async function readState(db: Db): Promise<Known> {
  const tables = new Map<string, Set<string>>();
  for (const t of await db.introspection.getTables()) tables.set(t.name, new Set(t.columns.map((c) => c.name)));
  const kinds = new Map<string, string>();
  for (const row of await db.selectFrom(COLUMNS_TABLE).selectAll().execute()) {
    kinds.set(kindKey(row.table_name, row.column_name), row.storage);
  }
  const models = new Map<string, { table: string; schema: Record<string, unknown> }>();
  for (const row of await db.selectFrom(MODELS_TABLE).selectAll().execute()) {
    models.set(row.uid, { table: row.table_name, schema: JSON.parse(row.schema) });
  }
  return { tables, kinds, models };
}

const TEXT_KINDS = new Set(['string', 'text', 'richtext', 'email', 'password', 'uid', 'enumeration', 'date', 'time', 'datetime', 'json', 'blocks']);
const INTEGER_KINDS = new Set(['integer', 'biginteger', 'timestamp']);
const REAL_KINDS = new Set(['float', 'decimal']);

/**
 * Whether data stored for attribute type `from` can be read as type `to` without loss:
 * text stays text, integers widen to bigger integers or reals, anything readable becomes text.
 */
export function compatible(from: string, to: string): boolean {
  if (from === to) return true;
  if (TEXT_KINDS.has(to)) return TEXT_KINDS.has(from) || INTEGER_KINDS.has(from) || REAL_KINDS.has(from) || from === 'boolean';
  if (INTEGER_KINDS.has(to)) return (INTEGER_KINDS.has(from) && from !== 'timestamp' && to !== 'timestamp') || from === 'boolean';
  if (REAL_KINDS.has(to)) return REAL_KINDS.has(from) || from === 'integer' || from === 'biginteger';
  return false;
}

async function hasData(db: Db, table: string, column: string): Promise<boolean> {
  const row = await db.selectFrom(table).select(sql`1`.as('one')).where(column, 'is not', null).limit(1).executeTakeFirst();
  return row !== undefined;
}

async function addColumn(database: Pick<Database, 'kind'>, db: Db, table: string, column: ColumnPlan): Promise<void> {
  await db.schema
    .alterTable(table)
    .addColumn(column.name, columnType(database.kind, column.storage), (c) => {
      let col = column.notNull ? c.notNull().defaultTo('') : c;
      if (column.references) col = col.references(`${column.references}.id`).onDelete('cascade');
      return col;
    })
    .execute();
}

async function createTable(database: Pick<Database, 'kind'>, db: Db, plan: TablePlan): Promise<void> {
  await createIdTable(database.kind, db, plan.name, (table) => {
    let builder: CreateTableBuilder<string, string> = table;
    for (const column of plan.columns) {
      builder = builder.addColumn(column.name, columnType(database.kind, column.storage), (c) => {
        let col = column.notNull ? c.notNull() : c;
        if (column.references) col = col.references(`${column.references}.id`).onDelete('cascade');
        return col;
      });
    }
    return builder;
  });
}

async function recordKind(db: Db, table: string, column: string, kind: string): Promise<void> {
  await db
    .insertInto(COLUMNS_TABLE)
    .values({ table_name: table, column_name: column, storage: kind })
    .onConflict((oc) => oc.columns(['table_name', 'column_name']).doUpdateSet({ storage: kind }))
    .execute();
}

/** Records the kinds of a new table's columns in one statement. */
async function recordKinds(db: Db, table: string, columns: readonly ColumnPlan[]): Promise<void> {
  if (columns.length === 0) return;
  await db
    .insertInto(COLUMNS_TABLE)
    .values(columns.map((column) => ({ table_name: table, column_name: column.name, storage: column.kind })))
    .onConflict((oc) => oc.columns(['table_name', 'column_name']).doUpdateSet((eb) => ({ storage: eb.ref('excluded.storage') })))
    .execute();
}

/** Replaces a column by one of another storage class, copying values when they convert losslessly. */
async function convertColumn(database: Pick<Database, 'kind'>, db: Db, table: string, column: ColumnPlan, copy: boolean, retireAs: string | null): Promise<void> {
  // SQLite refuses to drop an indexed column, and an index would follow the old values to their
  // retired column: the column's indexes go first (the sync then builds those still wanted).
  await dropIndexesOf(db, database.kind, table, column.name);
  const temporary = retireAs ?? `${column.name}__hearth_old`;
  await db.schema.alterTable(table).renameColumn(column.name, temporary).execute();
  await addColumn(database, db, table, column);
  if (copy) {
    const cast = castExpression(database.kind, column.storage, temporary);
    await db.updateTable(table).set({ [column.name]: cast }).execute();
  }
  if (retireAs === null) await db.schema.alterTable(table).dropColumn(temporary).execute();
}

/**
 * Rewrites the values kept through a change to json or blocks (text, numbers) as JSON.stringify
 * writes them, as every write stores such values: reads on SQLite splice the stored JSON text into
 * answers as it is (`{ "a": 1.0 }` would be answered as it is stored, not as `{"a":1}`). A value
 * that is not JSON is left as it is.
 */
async function canonicalJson(db: Db, table: string, column: string): Promise<void> {
  const rows = await db.selectFrom(table).select(['id', column]).where(column, 'is not', null).execute();
  for (const row of rows) {
    const value = row[column];
    if (typeof value !== 'string') continue;
    let canonical: string;
    try {
      canonical = JSON.stringify(JSON.parse(value));
    } catch {
      continue;
    }
    if (canonical !== value) await db.updateTable(table).set({ [column]: canonical }).where('id', '=', row.id).execute();
  }
}

function castExpression(kind: Database['kind'], storage: StorageType, from: string) {
  return sql`CAST(${sql.ref(from)} AS ${castType(kind, storage)})`;
}

async function syncColumn(database: Pick<Database, 'kind'>, db: Db, state: Known, plan: TablePlan, column: ColumnPlan, options: SyncOptions): Promise<void> {
  const existing = state.tables.get(plan.name);
  const recorded = state.kinds.get(kindKey(plan.name, column.name));
  if (!existing?.has(column.name)) {
    await addColumn(database, db, plan.name, column);
  } else if (recorded !== undefined && recorded !== column.kind) {
    const dataPresent = await hasData(db, plan.name, column.name);
    const sameStorage = storageClass(recorded) === column.storage;
    if (!dataPresent) {
      if (!sameStorage) await convertColumn(database, db, plan.name, column, false, null);
    } else if (compatible(recorded, column.kind)) {
      if (!sameStorage) await convertColumn(database, db, plan.name, column, true, null);
      if (column.kind === 'json' || column.kind === 'blocks') await canonicalJson(db, plan.name, column.name);
      options.log(`${plan.owner}: "${column.name}" changed from ${recorded} to ${column.kind}; its values were kept`);
    } else if (options.acceptSchemaChanges) {
      const retired = `${column.name}__retired_${options.now().replace(/\D/g, '').slice(0, 14)}`;
      await convertColumn(database, db, plan.name, column, false, retired);
      options.log(`${plan.owner}: "${column.name}" changed from ${recorded} to ${column.kind}; the old values are kept in column "${retired}"`);
    } else {
      throw schemaError(
        `${plan.owner}: attribute "${column.name}" changed from ${recorded} to ${column.kind} and its column holds data ` +
          `that cannot be read as ${column.kind}; restore the type, or start with --accept-schema-changes to keep the old values in a retired column`,
      );
    }
  }
  // A column whose kind is recorded already needs no write (most columns, at most starts).
  if (recorded !== column.kind) await recordKind(db, plan.name, column.name, column.kind);
}

/** The storage class a recorded column kind lives in. */
export function storageClass(kind: string): StorageType {
  if (kind === 'integer' || kind === 'link') return 'integer';
  if (kind === 'biginteger' || kind === 'timestamp') return 'bigint';
  if (kind === 'float' || kind === 'decimal' || kind === 'order') return 'real';
  if (kind === 'boolean') return 'boolean';
  return 'text';
}

/** When a type's collectionName changed, its tables are renamed instead of orphaned. */
async function renameMovedTables(db: Db, kind: Database['kind'], state: Known, models: readonly Model[], log: (m: string) => void): Promise<void> {
  for (const model of models) {
    const previous = state.models.get(model.uid);
    if (!previous || previous.table === model.table) continue;
    if (!state.tables.has(previous.table) || state.tables.has(model.table)) continue;
    await db.schema.alterTable(previous.table).renameTo(model.table).execute();
    // Unique attributes' indexes named after the old table go (the sync builds them under the new name).
    const unique = uniquePrefixOf(previous.table);
    for (const name of await indexesOn(db, kind, model.table)) if (name.startsWith(unique)) await db.schema.dropIndex(name).execute();
    state.tables.set(model.table, state.tables.get(previous.table) ?? new Set());
    state.tables.delete(previous.table);
    await db.updateTable(COLUMNS_TABLE).set({ table_name: model.table }).where('table_name', '=', previous.table).execute();
    for (const [key, value] of [...state.kinds]) {
      const [table, column] = key.split('\u0000');
      if (table === previous.table && column !== undefined) {
        state.kinds.delete(key);
        state.kinds.set(kindKey(model.table, column), value);
      }
    }
    log(`${model.uid}: table "${previous.table}" renamed to "${model.table}"`);
  }
}

/** Moves rows between "no locale" and the default locale when a type's localization is switched. */
async function syncLocalization(db: Db, state: Known, models: readonly Model[], defaultLocale: string): Promise<void> {
  for (const model of models) {
    if (model.modelType !== 'contentType') continue;
    const previous = state.models.get(model.uid);
    if (!previous) continue;
    const pluginOptions = previous.schema.pluginOptions as { i18n?: { localized?: boolean } } | undefined;
    const wasLocalized = pluginOptions?.i18n?.localized === true;
    if (model.localized && !wasLocalized) {
      await db.updateTable(model.table).set({ locale: defaultLocale }).where('locale', 'is', null).execute();
    } else if (!model.localized && wasLocalized) {
      // Other locales' rows stay in the table, unseen, rather than being deleted as Strapi does.
      await db.updateTable(model.table).set({ locale: null }).where('locale', '=', defaultLocale).execute();
    }
  }
}

/**
 * Creates and evolves the content tables so they match the registry, in one transaction.
 * Adding types or attributes never touches data; removed attributes keep their columns;
 * a retyped attribute keeps its data or, if that cannot be done, refuses to start.
 */
export async function syncSchema(database: Database, registry: Registry, options: SyncOptions): Promise<void> {
  await database.db.transaction().execute((db) => syncSchemaIn(db, database.kind, registry, options));
}

/** Creates one planned table, or brings its columns up to date; then its indexes. */
async function syncTable(database: Pick<Database, 'kind'>, db: Db, state: Known, plan: TablePlan, options: SyncOptions): Promise<void> {
  if (!state.tables.has(plan.name)) {
    await createTable(database, db, plan);
    state.tables.set(plan.name, new Set(['id', ...plan.columns.map((c) => c.name)]));
    await recordKinds(db, plan.name, plan.columns);
  } else {
    for (const column of plan.columns) await syncColumn(database, db, state, plan, column, options);
  }
  let changed = false;
  for (const index of plan.indexes) {
    const existing = await indexColumns(db, database.kind, index.name);
    if (existing !== null && existing.join('\0') === index.columns.join('\0')) continue;
    // An index of an older Hearth with other columns (the planner could not use it), or a
    // declared index whose columns changed: rebuilt.
    if (existing !== null) await db.schema.dropIndex(index.name).execute();
    const create = db.schema.createIndex(index.name).on(plan.name).columns([...index.columns]);
    await (index.rows === undefined ? create : create.where(sql.ref('publishedAt'), index.rows === 'published' ? 'is not' : 'is', null)).execute();
    changed = true;
  }
  const prefix = plan.declaredPrefix;
  const unique = plan.uniquePrefix;
  const onTable = prefix === null && unique === undefined ? [] : (await indexesOn(db, database.kind, plan.name)).filter((name) => !plan.indexes.some((i) => i.name === name));
  for (const name of onTable) {
    const declared = prefix !== null && name.startsWith(prefix);
    if (!declared && (unique === undefined || !name.startsWith(unique))) continue;
    await db.schema.dropIndex(name).execute();
    // A unique attribute's index is Hearth's own: it goes silently with the attribute's uniqueness.
    if (declared) options.log(`${plan.owner}: index "${name}" dropped (no longer declared)`);
    changed = true;
  }
  // Fresh statistics, so that the planner weighs the new index against the others (SQLite's
  // are refreshed after the sync, by Database.optimize: analysing an empty table here would
  // leave statistics that mislead the planner once it has grown).
  if (changed && database.kind === 'postgres') await sql`ANALYZE ${sql.table(plan.name)}`.execute(db);
}

/** The names of the indexes on a table. */
async function indexesOn(db: Db, kind: Database['kind'], table: string): Promise<string[]> {
  if (kind === 'postgres') {
    const { rows } = await sql<{ name: string }>`SELECT indexname AS "name" FROM pg_indexes WHERE schemaname = current_schema() AND tablename = ${table}`.execute(db);
    return rows.map((r) => r.name);
  }
  const { rows } = await sql<{ name: string }>`SELECT name FROM pragma_index_list(${table})`.execute(db);
  return rows.map((r) => r.name);
}

/** Drops every index of `table` that covers `column`. */
async function dropIndexesOf(db: Db, kind: Database['kind'], table: string, column: string): Promise<void> {
  for (const name of await indexesOn(db, kind, table)) {
    if (name.startsWith('sqlite_')) continue;
    if ((await indexColumns(db, kind, name))?.includes(column)) await db.schema.dropIndex(name).execute();
  }
}

/** The columns of an index in order, or null when there is no index of that name. */
async function indexColumns(db: Db, kind: Database['kind'], name: string): Promise<string[] | null> {
  if (kind === 'postgres') {
    const { rows } = await sql<{ column: string }>`
      SELECT a.attname AS "column"
      FROM pg_index i
      JOIN pg_class c ON c.oid = i.indexrelid
      JOIN pg_namespace n ON n.oid = c.relnamespace AND n.nspname = current_schema()
      CROSS JOIN LATERAL unnest(i.indkey::int2[]) WITH ORDINALITY AS k(attnum, position)
      JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum
      WHERE c.relname = ${name}
      ORDER BY k.position`.execute(db);
    return rows.length === 0 ? null : rows.map((r) => r.column);
  }
  const { rows } = await sql<{ column: string }>`SELECT name AS "column" FROM pragma_index_info(${name}) ORDER BY seqno`.execute(db);
  return rows.length === 0 ? null : rows.map((r) => r.column);
}

/** syncSchema inside a transaction the caller holds (the content-type builder's, with its own steps around it). */
export async function syncSchemaIn(db: Db, kind: Database['kind'], registry: Registry, options: SyncOptions): Promise<void> {
  const database = { kind };
  const models: Model[] = [...registry.contentTypes, ...registry.components];
  const state = await readState(db);
  await renameMovedTables(db, kind, state, models, options.log);
  // Tables that reference others come after every model's own table: PostgreSQL checks a foreign key's table exists.
  // Extended plugin types get their extra columns and tables (their base tables come from the migrations).
  const plans = [...models, ...registry.plugins].flatMap((model) => tablesFor(model, registry));
  const linking = (plan: TablePlan) => plan.columns.some((c) => c.references !== undefined);
  for (const plan of [...plans.filter((p) => !linking(p)), ...plans.filter(linking)]) await syncTable(database, db, state, plan, options);
  await syncLocalization(db, state, models, options.defaultLocale);
  const now = options.now();
  for (const model of models) {
    const schema = JSON.stringify(model.raw);
    await db
      .insertInto(MODELS_TABLE)
      .values({ uid: model.uid, table_name: model.table, schema, updated_at: now })
      .onConflict((oc) => oc.column('uid').doUpdateSet({ table_name: model.table, schema, updated_at: now }))
      .execute();
  }
}

/** The schemas the database was last synced with, by uid (what "before" means for a change made on disk). */
export async function syncedSchemas(db: Db): Promise<Map<string, Record<string, unknown>>> {
  const out = new Map<string, Record<string, unknown>>();
  for (const row of await db.selectFrom(MODELS_TABLE).select(['uid', 'schema']).execute()) {
    out.set(row.uid, JSON.parse(row.schema) as Record<string, unknown>);
  }
  return out;
}
