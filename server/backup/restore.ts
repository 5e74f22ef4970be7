import { join } from 'node:path';
import { META_TABLE } from '../db/system-tables.js';
import type { Database, Db } from '../db/database.js';
import { setMeta } from '../db/migrations.js';
import { SCHEMA_SET_KEY, SCHEMA_SET_VERSION_KEY } from '../db/schema-version.js';
import { BACKUP_MAX_LINE_BYTES } from '../limits.js';
import { extendableTables } from '../schema/extensions.js';
import { USERS_PERMISSIONS } from '../users/models.js';
import { referencedLocalKeys } from '../uploads/reconcile.js';
import type { BackupDialect } from './dialect.js';
import { linesOf } from './json-lines.js';
import { archiveError, type ArchivedTable, type Manifest } from './manifest.js';
import { clearTable, createIndexes, createTable, insertBatchSize, insertRows } from './table-io.js';
import { dependencyOrder, type TableSpec } from './table-spec.js';
import { decodeValue } from './values.js';
import { isRecord } from '../errors/is-record.js';

/** What a restore writes into, and from. */
export interface RestoreInput {
  /** A fresh database, migrated to this build's schema version. */
  readonly database: Database;
  readonly dialect: BackupDialect;
  readonly manifest: Manifest;
  /** The unpacked archive. */
  readonly dir: string;
  readonly mediaKeys: ReadonlySet<string>;
  /** Where the restored schema folder will live (recorded as the one last served), or null without one. */
  readonly schemasDir: string | null;
  /** Runs last inside the restore's transaction (moving media into another storage provider). */
  readonly finish?: (trx: Db) => Promise<void>;
}


/**
 * A table the migrations made must have every column the archive carries, but the columns a
 * project's extension of a plugin type adds to its table (schema/extensions.ts): those are added
 * as archived, nullable and without foreign keys, as the schema sync adds them.
 */
async function addExtensionColumns(trx: Db, dialect: BackupDialect, archived: ArchivedTable, current: TableSpec): Promise<void> {
  const have = new Set(current.columns.map((c) => c.name));
  const referencing = new Set(archived.foreignKeys.flatMap((fk) => fk.columns));
  for (const column of archived.columns) {
    if (have.has(column.name)) continue;
    if (!extendableTables(USERS_PERMISSIONS).includes(archived.name) || column.notNull || referencing.has(column.name)) {
      throw archiveError(`table ${archived.name} has a column ${column.name} that this build's table lacks`);
    }
    await trx.schema
      .alterTable(archived.name)
      .addColumn(column.name, dialect.columnType(column.type), (c) => (column.default === undefined ? c : c.defaultTo(column.default)))
      .execute();
  }
}

/** One archived line as a row in the driver's types; its keys must be exactly the table's columns. */
function rowOf(line: string, table: ArchivedTable, dialect: BackupDialect, at: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    throw archiveError(`${at} is not JSON`);
  }
  if (!isRecord(parsed) || Object.keys(parsed).length !== table.columns.length) throw archiveError(`${at} does not have the table's columns`);
  const row: Record<string, unknown> = {};
  for (const column of table.columns) {
    if (!Object.hasOwn(parsed, column.name)) throw archiveError(`${at} lacks column ${column.name}`);
    row[column.name] = dialect.toStored(decodeValue(parsed[column.name], `${at}, column ${column.name}`), column);
  }
  return row;
}

/** Streams a table's JSON lines into it in batches; the count must match the manifest. */
async function restoreRows(db: Db, dialect: BackupDialect, table: ArchivedTable, file: string): Promise<void> {
  const size = insertBatchSize(table);
  let batch: Record<string, unknown>[] = [];
  let n = 0;
  for await (const line of linesOf(file, BACKUP_MAX_LINE_BYTES)) {
    batch.push(rowOf(line, table, dialect, `${table.file} line ${++n}`));
    if (batch.length >= size) {
      await insertRows(db, table, batch);
      batch = [];
    }
  }
  await insertRows(db, table, batch);
  if (n !== table.rows) throw archiveError(`${table.file} holds ${n} rows, its manifest says ${table.rows}`);
}

/** Every local media file the restored rows reference must have come with the archive. */
async function checkMedia(db: Db, input: RestoreInput): Promise<void> {
  const missing = new Set(input.manifest.media.missing);
  for (const key of await referencedLocalKeys(db, join(input.dir, 'media'))) {
    if (!input.mediaKeys.has(key) && !missing.has(key)) throw archiveError(`media file ${key} is referenced by a file row but not in the archive`);
  }
}

/**
 * Restores the archive's tables into a fresh database in ONE transaction: tables the migrations
 * do not make are created as described, every table is emptied of what the migrations seeded,
 * rows go in in dependency order (foreign-key checks deferred to commit for self references),
 * indexes and id sequences follow, and the schemas folder is pointed at its new home.
 */
export async function restoreDatabase(input: RestoreInput): Promise<number> {
  return input.database.db.transaction().execute((trx) => restoreInto(trx, input));
}

/** restoreDatabase inside a transaction the caller holds (an import into PostgreSQL migrates in the same one). */
export async function restoreInto(trx: Db, input: RestoreInput): Promise<number> {
  const { database, dialect, manifest } = input;
  await dialect.beginRestore(trx);
  const existing = new Map((await dialect.describe(trx)).map((t) => [t.name, t]));
  const ordered = dependencyOrder(manifest.tables);
  const created: ArchivedTable[] = [];
  for (const table of ordered) {
    const current = existing.get(table.name);
    if (current) await addExtensionColumns(trx, dialect, table, current);
    else {
      await createTable(trx, database.kind, table, dialect);
      created.push(table);
    }
  }
  for (const table of [...ordered].reverse()) if (existing.has(table.name)) await clearTable(trx, table);
  for (const table of ordered) await restoreRows(trx, dialect, table, join(input.dir, table.file));
  for (const table of created) await createIndexes(trx, table);
  for (const table of ordered) if (table.sequence !== null) await dialect.restoreSequence(trx, table.name, table.sequence);
  if (existing.has(META_TABLE)) {
    if (input.schemasDir !== null) await setMeta(trx, 'last_schemas_dir', input.schemasDir);
    else await trx.deleteFrom(META_TABLE).where('key', '=', 'last_schemas_dir').execute();
    // The restored schemas folder is the truth of the restored tables: a PostgreSQL team's versioned
    // schema set is not carried over (nor kept stale through a SQLite restore, where the folder is the
    // only truth). The first PostgreSQL start writes the folder as version 1 (schema/schema-start.ts).
    await trx.deleteFrom(META_TABLE).where('key', 'in', [SCHEMA_SET_KEY, SCHEMA_SET_VERSION_KEY]).execute();
  }
  await checkMedia(trx, input);
  await input.finish?.(trx);
  return ordered.reduce((n, t) => n + t.rows, 0);
}
