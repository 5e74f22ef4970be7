import { sql } from 'kysely';
import { COLUMNS_TABLE } from '../db/system-tables.js';
import type { Db } from '../db/database.js';
import { storageClass } from '../schema/sync.js';
import type { BackupDialect } from './dialect.js';
import { FOREIGN_KEY_ACTIONS, type ColumnSpec, type ForeignKeyAction, type ForeignKeySpec, type IndexSpec, type PortableType, type TableSpec } from './table-spec.js';

/** SQLite's declared type, by its affinity rules (https://sqlite.org/datatype3.html#determination_of_column_affinity). */
function typeOfDeclared(declared: string): PortableType {
  const type = declared.toLowerCase();
  if (type === 'bigint') return 'bigint';
  if (type === 'boolean') return 'boolean';
  if (type.includes('int')) return 'integer';
  if (type.includes('char') || type.includes('clob') || type.includes('text')) return 'text';
  if (type === '' || type.includes('blob')) return 'blob';
  return 'real';
}

/** A literal DEFAULT as SQLite reports it (`'text'`, `0`, `NULL`); expressions are not carried. */
function literalDefault(text: unknown): Pick<ColumnSpec, 'default'> {
  if (typeof text !== 'string') return {};
  if (/^'(?:[^']|'')*'$/.test(text)) return { default: text.slice(1, -1).replace(/''/g, "'") };
  if (/^-?\d+(\.\d+)?$/.test(text)) return { default: Number(text) };
  if (/^null$/i.test(text)) return { default: null };
  return {};
}

const onDeleteOf = (text: unknown): ForeignKeyAction => {
  const action = String(text).toLowerCase();
  return (FOREIGN_KEY_ACTIONS as readonly string[]).includes(action) ? (action as ForeignKeyAction) : 'no action';
};

/**
 * Hearth's own record of each content column's attribute kind: SQLite declares booleans and big
 * integers of content tables as `integer`, and the kind restores the portable class.
 */
async function recordedKinds(db: Db, tables: ReadonlySet<string>): Promise<Map<string, string>> {
  const kinds = new Map<string, string>();
  if (!tables.has(COLUMNS_TABLE)) return kinds;
  for (const row of await db.selectFrom(COLUMNS_TABLE).select(['table_name', 'column_name', 'storage']).execute()) {
    kinds.set(`${row.table_name}\u0000${row.column_name}`, row.storage);
  }
  return kinds;
}

async function foreignKeys(db: Db, table: string): Promise<ForeignKeySpec[]> {
  const { rows } = await sql<{ id: number; table: string; from: string; to: string | null; on_delete: string }>`SELECT * FROM pragma_foreign_key_list(${table})`.execute(db);
  const byId = new Map<number, { table: string; columns: string[]; referencedColumns: string[]; onDelete: ForeignKeyAction }>();
  for (const row of rows) {
    const fk = byId.get(row.id) ?? { table: row.table, columns: [], referencedColumns: [], onDelete: onDeleteOf(row.on_delete) };
    fk.columns.push(row.from);
    fk.referencedColumns.push(row.to ?? 'id');
    byId.set(row.id, fk);
  }
  return [...byId.values()];
}

/** Plain-column indexes; expression indexes are left out (Hearth makes none, and migrated tables get theirs from the migrations). */
async function indexes(db: Db, table: string): Promise<IndexSpec[]> {
  const { rows } = await sql<{ name: string; unique: number; origin: string; partial: number }>`SELECT * FROM pragma_index_list(${table})`.execute(db);
  const out: IndexSpec[] = [];
  for (const index of rows) {
    if (index.origin === 'pk' || index.partial) continue;
    const { rows: parts } = await sql<{ seqno: number; name: string | null }>`SELECT * FROM pragma_index_info(${index.name}) ORDER BY seqno`.execute(db);
    if (parts.some((p) => p.name === null)) continue;
    const columns = parts.map((p) => String(p.name));
    // A UNIQUE constraint's automatic index has a reserved name: give it one a CREATE INDEX may use.
    const name = index.origin === 'u' ? `${table}_${columns.join('_')}_unique` : index.name;
    out.push({ name, columns, unique: Number(index.unique) === 1 });
  }
  return out;
}

async function describeTable(db: Db, name: string, createSql: string, kinds: ReadonlyMap<string, string>): Promise<TableSpec> {
  const { rows } = await sql<{ name: string; type: string; notnull: number; dflt_value: unknown; pk: number }>`SELECT * FROM pragma_table_info(${name})`.execute(db);
  const columns: ColumnSpec[] = rows.map((c) => {
    const declared = typeOfDeclared(c.type);
    const kind = kinds.get(`${name}\u0000${c.name}`);
    const recorded = declared === 'integer' && kind !== undefined ? storageClass(kind) : declared;
    const type = recorded === 'bigint' || recorded === 'boolean' ? recorded : declared;
    return { name: c.name, type, notNull: Number(c.notnull) === 1, ...literalDefault(c.dflt_value) };
  });
  const primaryKey = rows.filter((c) => Number(c.pk) > 0).sort((a, b) => Number(a.pk) - Number(b.pk)).map((c) => c.name);
  const autoIncrement = primaryKey.length === 1 && /\bautoincrement\b/i.test(createSql) ? (primaryKey[0] ?? null) : null;
  return { name, columns, primaryKey, autoIncrement, foreignKeys: await foreignKeys(db, name), indexes: await indexes(db, name) };
}

/** The backup dialect of SQLite. */
export const sqliteDialect: BackupDialect = {
  kind: 'sqlite',
  async describe(db) {
    const { rows } = await sql<{ name: string; sql: string }>`SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name`.execute(db);
    const kinds = await recordedKinds(db, new Set(rows.map((r) => r.name)));
    const out: TableSpec[] = [];
    for (const row of rows) out.push(await describeTable(db, row.name, String(row.sql), kinds));
    return out;
  },
  async sequences(db) {
    const exists = await sql<{ n: number }>`SELECT count(*) AS n FROM sqlite_master WHERE name = 'sqlite_sequence'`.execute(db);
    if (Number(exists.rows[0]?.n) === 0) return new Map();
    const { rows } = await sql<{ name: string; seq: number }>`SELECT name, seq FROM sqlite_sequence`.execute(db);
    return new Map(rows.map((r) => [r.name, Number(r.seq)]));
  },
  columnType(type) {
    switch (type) {
      case 'text':
        return sql`text`;
      case 'real':
        return sql`real`;
      case 'blob':
        return sql`blob`;
      case 'bigint':
        return sql`bigint`;
      case 'boolean':
        return sql`boolean`;
      case 'integer':
        return sql`integer`;
    }
  },
  async beginRestore(db) {
    // Rows go in table by table; a self-referencing table (folders) may list a child before its parent.
    await sql`PRAGMA defer_foreign_keys = ON`.execute(db);
  },
  toStored(value) {
    return typeof value === 'boolean' ? (value ? 1 : 0) : value;
  },
  async restoreSequence(db, table, value) {
    const updated = await sql`UPDATE sqlite_sequence SET seq = ${value} WHERE name = ${table} AND seq < ${value}`.execute(db);
    if (Number(updated.numAffectedRows ?? 0) > 0) return;
    const present = await sql<{ n: number }>`SELECT count(*) AS n FROM sqlite_sequence WHERE name = ${table}`.execute(db);
    if (Number(present.rows[0]?.n) === 0) await sql`INSERT INTO sqlite_sequence (name, seq) VALUES (${table}, ${value})`.execute(db);
  },
  isDataError(err) {
    // better-sqlite3 refuses a BigInt beyond 64 bits with a RangeError before SQLite sees it.
    if (err instanceof RangeError) return true;
    const code = err instanceof Error ? (err as NodeJS.ErrnoException).code : undefined;
    return typeof code === 'string' && /^SQLITE_(CONSTRAINT|MISMATCH|TOOBIG)/.test(code);
  },
};
