import { access, mkdir, mkdtemp, readdir, readFile, rename, rm, rmdir, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { AppError } from '../errors/app-error.js';
import type { Database } from '../db/database.js';
import type { StorageProvider } from '../uploads/storage-provider.js';
import { archiveError } from './manifest.js';
import { schemaTables } from './postgres-dialect.js';
import { restoreArchive, type RestoreTarget } from './restore-target.js';
import { unpackArchive, type Unpacked } from './unpack.js';
import { isRecord } from '../errors/is-record.js';

/** What `hearth import` is asked to do. */
export interface ImportOptions {
  readonly dataDir: string;
  readonly file: string;
  /** Replace a data dir (and a PostgreSQL database) that is not empty. */
  readonly force: boolean;
  /** DATABASE_URL: restore into this PostgreSQL database; uploads, schemas and secrets still go to the data dir. */
  readonly databaseUrl?: string | null;
  /** The storage provider media go to (UPLOAD_PROVIDER=s3); null or absent: local files in `<data>/uploads`. */
  readonly mediaProvider?: StorageProvider | null;
}

/** What an import restored. */
export interface ImportSummary {
  readonly tables: number;
  readonly rows: number;
  readonly media: number;
}

/** Whether the data dir an import replaces is missing, an empty folder, or holds something. */
export type TargetState = 'missing' | 'empty' | 'full';

/** The state of the data dir an import goes into. */
export async function targetState(dir: string): Promise<TargetState> {
  let info;
  try {
    info = await stat(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 'missing';
    throw err;
  }
  if (!info.isDirectory()) throw new AppError('ConflictError', `${dir} exists and is not a directory`);
  return (await readdir(dir)).length === 0 ? 'empty' : 'full';
}


/** The archived secrets, checked to be what secrets.json holds (an object of strings). */
async function readSecrets(file: string): Promise<string> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(file, 'utf8'));
  } catch {
    throw archiveError('secrets.json is not JSON');
  }
  if (!isRecord(parsed) || !Object.values(parsed).every((v) => typeof v === 'string')) throw archiveError('secrets.json is not an object of strings');
  return `${JSON.stringify(parsed, null, 2)}\n`;
}

const exists = (path: string) => access(path).then(() => true, () => false);

/** Moves an unpacked folder into the new data dir (an archive with no files in it has none: create it empty). */
async function moveOrCreate(from: string, to: string): Promise<void> {
  if (await exists(from)) await rename(from, to);
  else await mkdir(to);
}

/** Builds the complete new data dir in `built` (database, media, schemas, secrets) and restores the database. `finalDir` is where it will live. */
async function buildDataDir(unpacked: Unpacked, built: string, finalDir: string, target: RestoreTarget): Promise<number> {
  const { manifest, dir } = unpacked;
  await mkdir(built, { recursive: true });
  const secrets = manifest.secrets ? await readSecrets(join(dir, 'secrets.json')) : null;
  const rows = await restoreArchive(unpacked, built, finalDir, target);
  // Media stored with another provider (S3) are in its bucket now: the local folder starts empty.
  if (target.mediaProvider === null) await moveOrCreate(join(dir, 'media'), join(built, 'uploads'));
  else await mkdir(join(built, 'uploads'));
  if (manifest.schema !== null) await moveOrCreate(join(dir, 'schema'), join(built, 'schema'));
  if (secrets !== null) await writeFile(join(built, 'secrets.json'), secrets, { mode: 0o600 });
  return rows;
}

/** A PostgreSQL database holding any table is not empty: an import replaces it only with --force. */
async function checkDatabaseEmpty(database: Database | null, force: boolean): Promise<void> {
  if (database === null || force || (await schemaTables(database.db)).length === 0) return;
  throw new AppError('ConflictError', 'the PostgreSQL database (DATABASE_URL) is not empty (use --force to replace it)');
}

/** Puts the built data dir in place; a replaced one is moved into `work` (deleted with it) only once the new one is in. */
export async function swapInto(built: string, target: string, state: TargetState, work: string): Promise<void> {
  if (state === 'empty') await rmdir(target);
  if (state !== 'full') {
    await rename(built, target);
    return;
  }
  const replaced = join(work, 'replaced');
  await rename(target, replaced);
  try {
    await rename(built, target);
  } catch (err) {
    await rename(replaced, target);
    throw err;
  }
}

/**
 * `hearth import`: restores an archive into a data dir. A non-empty data dir is refused unless
 * `force`. Everything is built in a staging folder beside the data dir (same file system, so the
 * final move is a rename): a bad archive, or any failure, leaves the data dir exactly as it was.
 */
export async function importArchive(options: ImportOptions): Promise<ImportSummary> {
  const target = resolve(options.dataDir);
  const file = resolve(options.file);
  const state = await targetState(target);
  if (state === 'full' && !options.force) throw new AppError('ConflictError', `data directory ${target} is not empty (use --force to replace it)`);
  // Replacing the data dir deletes what is in it: never the archive being restored.
  if (state === 'full' && file.startsWith(`${target}${sep}`)) throw new AppError('ConflictError', `the archive ${file} is inside the data directory it would replace; move it out first`);
  if (!(await exists(file))) throw new AppError('NotFoundError', `cannot read archive ${file}`);
  const database = options.databaseUrl ? (await import('../db/postgres.js')).openPostgres(options.databaseUrl) : null;
  try {
    await checkDatabaseEmpty(database, options.force);
    await mkdir(dirname(target), { recursive: true });
    const work = await mkdtemp(join(dirname(target), `.${basename(target)}.import-`));
    try {
      const unpacked = await unpackArchive(file, join(work, 'archive'));
      const built = join(work, 'data');
      const rows = await buildDataDir(unpacked, built, target, { database, force: options.force, mediaProvider: options.mediaProvider ?? null });
      await swapInto(built, target, state, work);
      return { tables: unpacked.manifest.tables.length, rows, media: unpacked.mediaKeys.size };
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  } finally {
    await database?.close();
  }
}
