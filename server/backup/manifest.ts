import { AppError } from '../errors/app-error.js';
import {
  FOREIGN_KEY_ACTIONS,
  PORTABLE_TYPES,
  type ColumnSpec,
  type ForeignKeyAction,
  type ForeignKeySpec,
  type IndexSpec,
  type PortableType,
  type TableSpec,
} from './table-spec.js';
import { isRecord } from '../errors/is-record.js';

/** The archive's `format` tag. */
export const ARCHIVE_FORMAT = 'hearth-backup';
/** The one version of the format this build reads and writes. */
export const ARCHIVE_FORMAT_VERSION = 1;

/** One table of the archive: its structure, its JSON-lines file, its row count and id sequence. */
export interface ArchivedTable extends TableSpec {
  readonly file: string;
  readonly rows: number;
  readonly sequence: number | null;
}

/** `manifest.json`, the archive's first entry. */
export interface Manifest {
  readonly format: typeof ARCHIVE_FORMAT;
  readonly formatVersion: number;
  readonly hearthVersion: string;
  /** The internal schema version (db/migrations.ts) of the exported database. */
  readonly schemaVersion: number;
  readonly createdAt: string;
  /** The database the archive was read from (informational: the archive is the same for any). */
  readonly database: 'sqlite' | 'postgres';
  readonly tables: readonly ArchivedTable[];
  /** Local media files under `media/`; `missing` lists files rows referenced that were gone from disk. */
  readonly media: { readonly files: number; readonly bytes: number; readonly missing: readonly string[] };
  /** Schema files under `schema/`, or null when the data dir had never been served. */
  readonly schema: { readonly files: number } | null;
  readonly secrets: boolean;
}

/** A damaged, hostile or incompatible archive: the import stops before touching the data dir. */
export const archiveError = (message: string): AppError => new AppError('ValidationError', `invalid archive: ${message}`);

/** Identifiers are bound through Kysely's quoting; this only keeps out what no database accepts. */
const NAME = /^[^\u0000]{1,128}$/;
/** Table files live flat under `tables/` with plain names. */
export const TABLE_FILE = /^tables\/[A-Za-z0-9_-][A-Za-z0-9_.-]{0,200}\.jsonl$/;

function record(v: unknown, where: string): Record<string, unknown> {
  if (!isRecord(v)) throw archiveError(`${where} is not an object`);
  return v;
}
function text(v: unknown, where: string, pattern: RegExp = NAME): string {
  if (typeof v !== 'string' || !pattern.test(v)) throw archiveError(`${where} is not a valid name or text`);
  return v;
}
function count(v: unknown, where: string): number {
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0) throw archiveError(`${where} is not a count`);
  return v;
}
function list<T>(v: unknown, where: string, each: (item: unknown, at: string) => T): T[] {
  if (!Array.isArray(v)) throw archiveError(`${where} is not a list`);
  return v.map((item, i) => each(item, `${where}[${i}]`));
}
function oneOf<T extends string>(v: unknown, options: readonly T[], where: string): T {
  if (typeof v !== 'string' || !(options as readonly string[]).includes(v)) throw archiveError(`${where} must be one of ${options.join(', ')}`);
  return v as T;
}

function column(v: unknown, where: string): ColumnSpec {
  const c = record(v, where);
  const spec = { name: text(c.name, `${where}.name`), type: oneOf<PortableType>(c.type, PORTABLE_TYPES, `${where}.type`), notNull: c.notNull === true };
  if (!('default' in c)) return spec;
  const value = c.default;
  if (value !== null && typeof value !== 'string' && !(typeof value === 'number' && Number.isFinite(value))) throw archiveError(`${where}.default is not a literal`);
  return { ...spec, default: value };
}

function foreignKey(v: unknown, where: string): ForeignKeySpec {
  const f = record(v, where);
  return {
    columns: list(f.columns, `${where}.columns`, (x, at) => text(x, at)),
    table: text(f.table, `${where}.table`),
    referencedColumns: list(f.referencedColumns, `${where}.referencedColumns`, (x, at) => text(x, at)),
    onDelete: oneOf<ForeignKeyAction>(f.onDelete, FOREIGN_KEY_ACTIONS, `${where}.onDelete`),
  };
}

function index(v: unknown, where: string): IndexSpec {
  const i = record(v, where);
  return { name: text(i.name, `${where}.name`), columns: list(i.columns, `${where}.columns`, (x, at) => text(x, at)), unique: i.unique === true };
}

function table(v: unknown, where: string): ArchivedTable {
  const t = record(v, where);
  const name = text(t.name, `${where}.name`);
  if (/^sqlite_/i.test(name)) throw archiveError(`${where}.name ${name} is reserved by SQLite`);
  const columns = list(t.columns, `${where}.columns`, column);
  const names = new Set(columns.map((c) => c.name));
  if (names.size !== columns.length || columns.length === 0) throw archiveError(`${where}.columns must name each column once`);
  const known = (cols: readonly string[], at: string) => {
    for (const c of cols) if (!names.has(c)) throw archiveError(`${at} names an unknown column ${c}`);
    return cols;
  };
  const autoIncrement = t.autoIncrement === null || t.autoIncrement === undefined ? null : text(t.autoIncrement, `${where}.autoIncrement`);
  const foreignKeys = list(t.foreignKeys, `${where}.foreignKeys`, foreignKey);
  foreignKeys.forEach((fk, i) => known(fk.columns, `${where}.foreignKeys[${i}]`));
  const indexes = list(t.indexes, `${where}.indexes`, index);
  indexes.forEach((ix, i) => known(ix.columns, `${where}.indexes[${i}]`));
  return {
    name,
    file: text(t.file, `${where}.file`, TABLE_FILE),
    rows: count(t.rows, `${where}.rows`),
    sequence: t.sequence === null || t.sequence === undefined ? null : count(t.sequence, `${where}.sequence`),
    columns,
    primaryKey: known(list(t.primaryKey, `${where}.primaryKey`, (x, at) => text(x, at)), `${where}.primaryKey`),
    autoIncrement: autoIncrement === null ? null : (known([autoIncrement], `${where}.autoIncrement`)[0] ?? null),
    foreignKeys,
    indexes,
  };
}

/**
 * Checks a parsed `manifest.json`: the format tag and a format version this build knows first (so
 * an archive from a future Hearth is refused by name), then every field. Unknown keys are ignored,
 * so a later minor addition stays readable.
 */
export function parseManifest(value: unknown): Manifest {
  const m = record(value, 'manifest');
  if (m.format !== ARCHIVE_FORMAT) throw archiveError('manifest.json is not a Hearth backup manifest');
  if (m.formatVersion !== ARCHIVE_FORMAT_VERSION) {
    throw archiveError(`archive format version ${JSON.stringify(m.formatVersion)} is not supported (this build reads version ${ARCHIVE_FORMAT_VERSION})`);
  }
  const tables = list(m.tables, 'tables', table);
  for (const key of ['name', 'file'] as const) {
    if (new Set(tables.map((t) => t[key])).size !== tables.length) throw archiveError(`two tables share a ${key}`);
  }
  const media = record(m.media, 'media');
  const schema = m.schema === null ? null : { files: count(record(m.schema, 'schema').files, 'schema.files') };
  return {
    format: ARCHIVE_FORMAT,
    formatVersion: ARCHIVE_FORMAT_VERSION,
    hearthVersion: text(m.hearthVersion, 'hearthVersion'),
    schemaVersion: count(m.schemaVersion, 'schemaVersion'),
    createdAt: text(m.createdAt, 'createdAt'),
    database: oneOf(m.database, ['sqlite', 'postgres'] as const, 'database'),
    tables,
    media: { files: count(media.files, 'media.files'), bytes: count(media.bytes, 'media.bytes'), missing: list(media.missing, 'media.missing', (x, at) => text(x, at)) },
    schema,
    secrets: m.secrets === true,
  };
}
