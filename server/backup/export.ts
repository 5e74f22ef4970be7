import { access, copyFile, mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { CHANGE_TABLE } from '../db/pg-change.js';
import { INSTANCES_TABLE, META_TABLE, RATE_LIMITS_TABLE } from '../db/system-tables.js';
import { join, resolve } from 'node:path';
import { create } from 'tar';
import { packageInfo } from '../admin/package-info.js';
import { AppError } from '../errors/app-error.js';
import type { Database, Db } from '../db/database.js';
import { getMeta } from '../db/migrations.js';
import { openSqlite } from '../db/sqlite.js';
import { BACKUP_EXPORT_ATTEMPTS } from '../limits.js';
import { referencedLocalKeys } from '../uploads/reconcile.js';
import { dialectOf, type BackupDialect } from './dialect.js';
import { lineWriter } from './json-lines.js';
import { schemaTables } from './postgres-dialect.js';
import { ARCHIVE_FORMAT, ARCHIVE_FORMAT_VERSION, TABLE_FILE, type ArchivedTable, type Manifest } from './manifest.js';
import { EXPORT_STAGE_PREFIX, removeStaleStages, stageMedia, stageSchema, type StagedMedia } from './stage.js';
import { readRows } from './table-io.js';
import type { TableSpec } from './table-spec.js';

/** What `hearth export` is asked to do. */
export interface ExportOptions {
  readonly dataDir: string;
  readonly file: string;
  readonly now?: () => Date;
  readonly log: (message: string) => void;
  /** DATABASE_URL: the data dir's database lives in PostgreSQL (its media, schemas and secrets in the data dir). */
  readonly databaseUrl?: string | null;
}

/** What an export wrote. */
export interface ExportSummary {
  readonly tables: number;
  readonly rows: number;
  readonly media: number;
}

/** The database half of a snapshot, read inside one read transaction. */
interface Snapshot {
  readonly tables: ArchivedTable[];
  readonly media: StagedMedia;
  readonly schemaVersion: number;
  readonly schemasDir: string | undefined;
}

const tableFile = (spec: TableSpec, index: number): string => {
  const plain = `tables/${spec.name}.jsonl`;
  return TABLE_FILE.test(plain) ? plain : `tables/table-${index}.jsonl`;
};

/**
 * Tables of one running team, not of the data: PostgreSQL's change stamp (a restored database
 * starts a series of its own), the live instances' heartbeats and the rate-limit counters. An
 * import leaves them as its migrations make them (empty; the stamp's table comes with the first write).
 */
const NOT_ARCHIVED: ReadonlySet<string> = new Set([CHANGE_TABLE, INSTANCES_TABLE, RATE_LIMITS_TABLE]);

async function writeTables(db: Db, dialect: BackupDialect, dir: string): Promise<ArchivedTable[]> {
  const specs = (await dialect.describe(db)).filter((spec) => !NOT_ARCHIVED.has(spec.name));
  const sequences = await dialect.sequences(db);
  await mkdir(join(dir, 'tables'), { recursive: true });
  const tables: ArchivedTable[] = [];
  for (const [i, spec] of specs.entries()) {
    const file = tableFile(spec, i);
    const out = lineWriter(join(dir, file));
    let rows = 0;
    for await (const row of readRows(db, spec)) {
      await out.write(JSON.stringify(row));
      rows++;
    }
    await out.end();
    tables.push({ ...spec, file, rows, sequence: sequences.get(spec.name) ?? null });
  }
  return tables;
}

/**
 * Reads everything inside one read transaction: SQLite in WAL mode (PostgreSQL with REPEATABLE
 * READ) serves a snapshot, so rows written meanwhile by a running server are all in or all out.
 * The media the snapshot's rows reference are hard-linked first; null when one had vanished
 * (deleted by the server after the snapshot began), unless this is the last attempt.
 */
async function takeSnapshot(database: Database, dialect: BackupDialect, dataDir: string, stage: string, lastAttempt: boolean): Promise<Snapshot | null> {
  // REPEATABLE READ is what gives PostgreSQL one snapshot, READ ONLY spares it the write lock (db/postgres.ts);
  // SQLite's driver ignores both (WAL already serves a snapshot).
  return database.db.transaction().setIsolationLevel('repeatable read').setAccessMode('read only').execute(async (trx) => {
    const keys = await referencedLocalKeys(trx, join(dataDir, 'uploads'));
    const media = await stageMedia(keys, join(dataDir, 'uploads'), join(stage, 'media'));
    if (media.missing.length > 0 && !lastAttempt) return null;
    const schemaVersion = Number((await getMeta(trx, 'schema_version')) ?? 0);
    const schemasDir = await getMeta(trx, 'last_schemas_dir');
    const tables = await writeTables(trx, dialect, stage);
    return { tables, media, schemaVersion, schemasDir };
  });
}

/** Snapshots until one finds all its media (a busy server deleting files may need a few tries). */
async function snapshotWithRetries(database: Database, dialect: BackupDialect, dataDir: string, stage: string): Promise<Snapshot> {
  for (let attempt = 1; ; attempt++) {
    const snapshot = await takeSnapshot(database, dialect, dataDir, stage, attempt >= BACKUP_EXPORT_ATTEMPTS);
    if (snapshot) return snapshot;
  }
}

const exists = (path: string) => access(path).then(() => true, () => false);

/** Stages the schema folder (the one last served) and the secrets beside the snapshot. */
async function stageFiles(dataDir: string, stage: string, schemasDir: string | undefined): Promise<{ schema: Manifest['schema']; secrets: boolean }> {
  const schema = schemasDir !== undefined && (await exists(schemasDir)) ? { files: await stageSchema(schemasDir, join(stage, 'schema')) } : null;
  const secrets = await exists(join(dataDir, 'secrets.json'));
  if (secrets) await copyFile(join(dataDir, 'secrets.json'), join(stage, 'secrets.json'));
  return { schema, secrets };
}

/**
 * `hearth export`: one database-neutral `.tar.gz` of a data dir (manifest first, then a JSON-lines
 * file per table, the media files, the schema files, the secrets), consistent while a server
 * writes to it. `<data>/tmp/` is never included. The archive appears under its name only once complete.
 */
export async function exportArchive(options: ExportOptions): Promise<ExportSummary> {
  const dataDir = resolve(options.dataDir);
  const file = resolve(options.file);
  const databaseUrl = options.databaseUrl ?? null;
  if (databaseUrl === null && !(await exists(join(dataDir, 'hearth.db')))) throw new AppError('NotFoundError', `no Hearth data directory at ${dataDir} (hearth.db not found)`);
  const database = databaseUrl === null ? openSqlite(join(dataDir, 'hearth.db')) : (await import('../db/postgres.js')).openPostgres(databaseUrl);
  try {
    if (database.kind === 'postgres' && !(await schemaTables(database.db)).includes(META_TABLE)) {
      throw new AppError('NotFoundError', 'no Hearth database at DATABASE_URL (its tables were not found)');
    }
    return await exportFrom(database, { ...options, dataDir, file });
  } finally {
    await database.close();
  }
}

/** exportArchive from an open database. */
async function exportFrom(database: Database, options: ExportOptions & { dataDir: string; file: string }): Promise<ExportSummary> {
  const { dataDir, file } = options;
  const tmpDir = join(dataDir, 'tmp');
  await mkdir(tmpDir, { recursive: true });
  await removeStaleStages(tmpDir);
  const stage = await mkdtemp(join(tmpDir, `${EXPORT_STAGE_PREFIX}${process.pid}-`));
  const partial = `${file}.${process.pid}.partial`;
  try {
    const snapshot = await snapshotWithRetries(database, dialectOf(database), dataDir, stage);
    for (const key of snapshot.media.missing) options.log(`warning: media file ${key} is referenced by the database but missing from ${join(dataDir, 'uploads')}`);
    const { schema, secrets } = await stageFiles(dataDir, stage, snapshot.schemasDir);
    const manifest: Manifest = {
      format: ARCHIVE_FORMAT,
      formatVersion: ARCHIVE_FORMAT_VERSION,
      hearthVersion: packageInfo().version,
      schemaVersion: snapshot.schemaVersion,
      createdAt: (options.now ?? (() => new Date()))().toISOString(),
      database: database.kind,
      tables: snapshot.tables,
      media: { files: snapshot.media.files, bytes: snapshot.media.bytes, missing: snapshot.media.missing },
      schema,
      secrets,
    };
    await writeFile(join(stage, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    const entries = ['manifest.json', 'tables', 'media', ...(schema ? ['schema'] : []), ...(secrets ? ['secrets.json'] : [])];
    await create({ gzip: true, cwd: stage, portable: true, file: partial }, entries);
    await rename(partial, file);
    const rows = snapshot.tables.reduce((n, t) => n + t.rows, 0);
    return { tables: snapshot.tables.length, rows, media: snapshot.media.files };
  } finally {
    await rm(stage, { recursive: true, force: true });
    await rm(partial, { force: true });
  }
}
