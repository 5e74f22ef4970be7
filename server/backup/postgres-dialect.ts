import { sql } from 'kysely';
import { COLUMNS_TABLE } from '../db/system-tables.js';
import type { Db } from '../db/database.js';
import { columnType } from '../db/ddl.js';
import { ID_COUNTERS_TABLE } from '../db/postgres-functions.js';
import type { BackupDialect } from './dialect.js';
import { type ColumnSpec, type ForeignKeyAction, type ForeignKeySpec, type IndexSpec, type PortableType, type TableSpec } from './table-spec.js';

/** Attribute kinds whose bigint column holds a biginteger (or timestamp); other bigints are Hearth's 64-bit integers. */
const BIG_KINDS = new Set(['biginteger', 'timestamp']);

/** The portable class of a column, from its PostgreSQL type (as db/ddl.ts maps the classes) and its recorded attribute kind. */
function portableType(pgType: string, kind: string | undefined): PortableType {
  switch (pgType) {
    case 'text':
    case 'character varying':
      return 'text';
    case 'bigint':
      return kind !== undefined && BIG_KINDS.has(kind) ? 'bigint' : 'integer';
    case 'integer':
      return 'integer';
    case 'smallint':
      return 'boolean';
    case 'boolean':
      return 'boolean';
    case 'double precision':
    case 'real':
    case 'numeric':
      return 'real';
    case 'bytea':
      return 'blob';
    default:
      return 'text';
  }
}

/** A literal DEFAULT as PostgreSQL reports it (`''::text`, `0`, `NULL::text`); expressions are not carried. */
function literalDefault(text: string | null): Pick<ColumnSpec, 'default'> {
  if (text === null) return {};
  const quoted = /^'((?:[^']|'')*)'(?:::[a-z ]+)?$/.exec(text);
  if (quoted) return { default: (quoted[1] ?? '').replace(/''/g, "'") };
  if (/^-?\d+(\.\d+)?$/.test(text)) return { default: Number(text) };
  if (/^NULL(::[a-z ]+)?$/i.test(text)) return { default: null };
  return {};
}

/** pg_constraint.confdeltype letters. */
const ON_DELETE: Record<string, ForeignKeyAction> = { a: 'no action', r: 'restrict', c: 'cascade', n: 'set null', d: 'set default' };

async function recordedKinds(db: Db, tables: ReadonlySet<string>): Promise<Map<string, string>> {
  const kinds = new Map<string, string>();
  if (!tables.has(COLUMNS_TABLE)) return kinds;
  for (const row of await db.selectFrom(COLUMNS_TABLE).select(['table_name', 'column_name', 'storage']).execute()) {
    kinds.set(`${row.table_name}\u0000${row.column_name}`, row.storage);
  }
  return kinds;
}

async function columnsOf(db: Db, table: string, kinds: ReadonlyMap<string, string>): Promise<ColumnSpec[]> {
  const { rows } = await sql<{ name: string; type: string; nullable: string; dflt: string | null }>`
    SELECT column_name AS name, data_type AS type, is_nullable AS nullable, column_default AS dflt
    FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = ${table} ORDER BY ordinal_position`.execute(db);
  return rows.map((c) => ({ name: c.name, type: portableType(c.type, kinds.get(`${table}\u0000${c.name}`)), notNull: c.nullable === 'NO', ...literalDefault(c.dflt) }));
}

/** The names of `keys` (attribute numbers of `relation`), in key order. */
const keyNames = (keys: string, relation: string) =>
  sql.raw(`ARRAY(SELECT a.attname::text FROM unnest(${keys}) WITH ORDINALITY AS k(n, i) JOIN pg_attribute a ON a.attrelid = ${relation} AND a.attnum = k.n ORDER BY k.i)`);

async function constraintsOf(db: Db, table: string): Promise<{ primaryKey: string[]; foreignKeys: ForeignKeySpec[] }> {
  const { rows } = await sql<{ type: string; columns: string[]; target: string | null; targetColumns: string[]; onDelete: string }>`
    SELECT c.contype AS type, ${keyNames('c.conkey', 'c.conrelid')} AS columns, t.relname AS target,
      ${keyNames('c.confkey', 'c.confrelid')} AS "targetColumns", c.confdeltype AS "onDelete"
    FROM pg_constraint c LEFT JOIN pg_class t ON t.oid = c.confrelid
    WHERE c.conrelid = quote_ident(${table})::regclass AND c.contype IN ('p', 'f') ORDER BY c.conname`.execute(db);
  const primary = rows.find((r) => r.type === 'p');
  const foreignKeys = rows
    .filter((r) => r.type === 'f' && r.target !== null)
    .map((r) => ({ columns: r.columns, table: r.target ?? '', referencedColumns: r.targetColumns, onDelete: ON_DELETE[r.onDelete] ?? 'no action' }));
  return { primaryKey: primary?.columns ?? [], foreignKeys };
}

/** Plain-column indexes other than the primary key (expression and partial indexes are left out, as on SQLite). */
async function indexesOf(db: Db, table: string): Promise<IndexSpec[]> {
  const { rows } = await sql<{ name: string; unique: number; columns: string[]; plain: number }>`
    SELECT c.relname AS name, i.indisunique AS unique, ${keyNames('i.indkey::int2[]', 'i.indrelid')} AS columns,
      (i.indexprs IS NULL AND i.indpred IS NULL) AS plain
    FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
    WHERE i.indrelid = quote_ident(${table})::regclass AND NOT i.indisprimary ORDER BY c.relname`.execute(db);
  return rows.filter((r) => r.plain === 1).map((r) => ({ name: r.name, columns: r.columns, unique: r.unique === 1 }));
}

/** Tables whose ids Hearth assigns (db/postgres-functions.ts): their `id` is the archive's auto-increment column. */
async function tablesWithIds(db: Db): Promise<Set<string>> {
  const { rows } = await sql<{ name: string }>`SELECT c.relname AS name FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid WHERE t.tgname = 'hearth_assign_id'`.execute(db);
  return new Set(rows.map((r) => r.name));
}

/** The backup dialect of PostgreSQL: the database's current schema, described through its catalogs. */
export const postgresDialect: BackupDialect = {
  kind: 'postgres',
  async describe(db) {
    const { rows } = await sql<{ name: string }>`
      SELECT tablename AS name FROM pg_tables WHERE schemaname = current_schema() AND tablename <> ${ID_COUNTERS_TABLE} ORDER BY tablename COLLATE "C"`.execute(db);
    const names = new Set(rows.map((r) => r.name));
    const kinds = await recordedKinds(db, names);
    const withIds = await tablesWithIds(db);
    const out: TableSpec[] = [];
    for (const { name } of rows) {
      const { primaryKey, foreignKeys } = await constraintsOf(db, name);
      out.push({ name, columns: await columnsOf(db, name, kinds), primaryKey, autoIncrement: withIds.has(name) ? 'id' : null, foreignKeys, indexes: await indexesOf(db, name) });
    }
    return out;
  },
  async sequences(db) {
    const { rows } = await sql<{ name: string; seq: number }>`
      SELECT c.relname AS name, s.seq FROM ${sql.table(ID_COUNTERS_TABLE)} s JOIN pg_class c ON c.oid = s.table_oid`.execute(db);
    return new Map(rows.map((r) => [r.name, Number(r.seq)]));
  },
  columnType(type) {
    return type === 'blob' ? sql`bytea` : columnType('postgres', type);
  },
  async beginRestore(db) {
    // Rows go in table by table; the folders' parent key is deferrable (db/migrations.ts) for a child listed before its parent.
    await sql`SET CONSTRAINTS ALL DEFERRED`.execute(db);
  },
  toStored(value) {
    return typeof value === 'boolean' ? (value ? 1 : 0) : value;
  },
  async restoreSequence(db, table, value) {
    await sql`
      INSERT INTO ${sql.table(ID_COUNTERS_TABLE)} AS c (table_oid, seq) VALUES (quote_ident(${table})::regclass, ${value})
      ON CONFLICT (table_oid) DO UPDATE SET seq = greatest(c.seq, excluded.seq)`.execute(db);
  },
  isDataError(err) {
    // SQLSTATE classes 22 (data exception) and 23 (integrity constraint violation).
    const code = err instanceof Error && 'code' in err ? err.code : undefined;
    return typeof code === 'string' && /^2[23]/.test(code);
  },
};

/** The tables of the database's current schema (Hearth's and any other). */
export async function schemaTables(db: Db): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`SELECT tablename AS name FROM pg_tables WHERE schemaname = current_schema() ORDER BY tablename COLLATE "C"`.execute(db);
  return rows.map((r) => r.name);
}

/** `import --force` into PostgreSQL: drops every table of the current schema, inside the import's transaction. */
export async function dropSchemaTables(db: Db): Promise<void> {
  for (const table of await schemaTables(db)) await sql`DROP TABLE IF EXISTS ${sql.table(table)} CASCADE`.execute(db);
}
