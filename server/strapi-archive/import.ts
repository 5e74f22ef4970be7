import { cp, mkdir, mkdtemp, readdir, rename, rm } from 'node:fs/promises';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { AppError } from '../errors/app-error.js';
import { openDataDir } from '../data-dir.js';
import type { Database } from '../db/database.js';
import { setMeta } from '../db/migrations.js';
import { openSqlite } from '../db/sqlite.js';
import { exportArchive } from '../backup/export.js';
import { importArchive, swapInto, targetState, type TargetState } from '../backup/import.js';
import { moveMediaToProvider } from '../backup/media-to-provider.js';
import { loadProject } from '../schema/load.js';
import { USERS_PERMISSIONS } from '../users/models.js';
import { buildRegistry } from '../schema/registry.js';
import { syncSchema } from '../schema/sync.js';
import type { StorageProvider } from '../uploads/storage-provider.js';
import { importEntities } from './entities-in.js';
import { readStage } from './jsonl.js';
import { importLinks } from './links-in.js';
import { conflictingSchemas, parseArchiveSchemas, writeProject, type ArchiveSchema } from './schemas.js';
import { copyKeptConfiguration, defaultLocaleOf, keepConfiguration, writeLocales, writePermissions } from './settings-in.js';
import { openStrapiArchive, type ArchiveTree } from './source.js';
import { contentRows, keepAdminRows, keepSecrets, openTarget } from './target.js';

/** What `hearth import --from-strapi` is asked to do. */
export interface StrapiImportOptions {
  readonly dataDir: string;
  /** A `.tar`, `.tar.gz`, `.tar.gz.enc` or an unpacked `--format dir` folder. */
  readonly file: string;
  readonly key: string | null;
  /** `--schemas DIR`; null: `<data>/schema`. */
  readonly schemasDir: string | null;
  /** Replace schema files that differ and a data dir holding content. */
  readonly force: boolean;
  readonly mediaProvider: StorageProvider | null;
  /** DATABASE_URL: the content goes into this PostgreSQL database (through Hearth's backup restore). */
  readonly databaseUrl?: string | null;
  readonly progress: (message: string) => void;
  readonly now?: () => Date;
}

/** What the import brought in. */
export interface StrapiImportSummary {
  readonly schemas: number;
  readonly entities: number;
  readonly links: number;
  readonly assets: number;
  readonly skippedTypes: readonly string[];
}

const count = (counts: Map<string, number>) => [...counts.values()].reduce((a, b) => a + b, 0);

/** Puts the archive's binaries where the new data dir's media live: its `uploads/`, or the configured provider. */
async function placeAssets(from: string, owned: boolean, built: string, provider: StorageProvider | null): Promise<string[]> {
  const names = await readdir(from).catch(() => [] as string[]);
  if (provider !== null) return names;
  await rm(join(built, 'uploads'), { recursive: true, force: true });
  if (names.length === 0) await mkdir(join(built, 'uploads'));
  else if (owned) await rename(from, join(built, 'uploads'));
  else await cp(from, join(built, 'uploads'), { recursive: true });
  return names;
}

/** The import's staging: the unpacked archive, its schemas, and the new data dir being built (SQLite). */
interface Staging {
  readonly tree: ArchiveTree;
  readonly schemas: readonly ArchiveSchema[];
  readonly built: string;
  readonly stagedSchemas: string;
  /** The replaced data dir's database, whose admin rows are kept (null: none). */
  readonly previous: Database | null;
  /** Where media go while building: the provider, or null for `built/uploads` (a PostgreSQL import hands them to the backup restore). */
  readonly mediaProvider: StorageProvider | null;
}

/** Builds the new data dir: tables from the staged schemas, then every stage of the archive in one transaction. */
async function buildDataDir(staging: Staging, options: StrapiImportOptions, stored: string[]): Promise<StrapiImportSummary> {
  const { tree, schemas, built } = staging;
  const { progress } = options;
  const now = options.now ?? (() => new Date());
  const registry = buildRegistry(await loadProject(staging.stagedSchemas, USERS_PERMISSIONS));
  const dir = await openDataDir(built, { now });
  try {
    const stamp = now().toISOString();
    await syncSchema(dir.database, registry, { acceptSchemaChanges: false, defaultLocale: await dir.locales.defaultCode(), now: () => stamp, log: progress });
    const schemaUids = new Set(schemas.map((s) => s.uid));
    const defaultCode = await defaultLocaleOf(tree.dir);
    return await dir.database.db.transaction().execute(async (db) => {
      if (staging.previous !== null) await keepAdminRows(staging.previous, { db, kind: dir.database.kind });
      const assetNames = new Set(await readdir(join(tree.dir, 'assets', 'uploads')).catch(() => [] as string[]));
      const entities = await importEntities({ db, registry, dir: tree.dir, schemaUids, assets: assetNames, progress });
      progress(`entities: ${count(entities.counts)}${entities.skipped.size > 0 ? ` (skipped ${count(entities.skipped)} of ${[...entities.skipped.keys()].join(', ')})` : ''}`);
      const links = await importLinks({ db, registry, dir: tree.dir, entities, schemaUids });
      progress(`links: ${links.written} (${links.skipped} localizations links and links Hearth does not keep left out)`);
      const locales = await writeLocales(db, entities, defaultCode);
      const permissions = await writePermissions(db, entities, links, stamp);
      const configuration = await keepConfiguration(tree.dir, built);
      progress(`locales: ${locales}, role permissions: ${permissions}, configuration rows kept for an export to Strapi: ${configuration}`);
      const provider = staging.mediaProvider;
      const assets = await placeAssets(join(tree.dir, 'assets', 'uploads'), tree.owned, built, provider);
      if (provider !== null) await moveMediaToProvider({ db, provider, mediaDir: join(tree.dir, 'assets', 'uploads'), missing: new Set() }, stored);
      progress(`assets: ${assets.length}${provider === null ? '' : ` (stored with ${provider.name})`}`);
      await setMeta(db, 'last_schemas_dir', staging.stagedSchemas);
      return { schemas: schemas.length, entities: count(entities.counts), links: links.written, assets: assets.length, skippedTypes: [...entities.skipped.keys()] };
    });
  } finally {
    await dir.database.close();
  }
}

/**
 * Puts a built data dir in place. SQLite: swapped in with a rename. PostgreSQL: handed to
 * Hearth's backup restore (exported from the staged SQLite, restored into the database in one
 * transaction, media into the provider), which replaces the data dir the same way.
 */
async function putInPlace(options: { built: string; target: string; state: TargetState; work: string; databaseUrl: string | null; mediaProvider: StorageProvider | null; progress: (m: string) => void }): Promise<void> {
  const { built, target, state, work } = options;
  if (!options.databaseUrl) {
    await swapInto(built, target, state, work);
    return;
  }
  const archive = join(work, 'hearth-backup.tar.gz');
  await exportArchive({ dataDir: built, file: archive, log: options.progress });
  await importArchive({ dataDir: target, file: archive, force: true, databaseUrl: options.databaseUrl, mediaProvider: options.mediaProvider });
  await copyKeptConfiguration(built, target);
}

/** Refuses to replace content (or a folder that is no data dir) without --force. */
async function checkTarget(target: string, state: TargetState, previous: Database | null, force: boolean): Promise<void> {
  if (force || state === 'missing') return;
  if (previous === null && state === 'full') throw new AppError('ConflictError', `${target} is not empty and holds no Hearth database; the import would replace it (use --force)`);
  const rows = previous === null ? 0 : await contentRows(previous);
  if (rows > 0) throw new AppError('ConflictError', `data directory ${target} holds content (${rows} rows); the import replaces it (use --force)`);
}

/**
 * `hearth import --from-strapi`: builds a complete new data dir beside the target from a Strapi
 * export (schemas as a project, rows with their ids, links, media, locales, users, roles and
 * permissions), then puts it in place. A bad archive stops before that: the data dir (and the
 * PostgreSQL database) is left as it was, and the message names the archive member and line.
 */
export async function importStrapiArchive(options: StrapiImportOptions): Promise<StrapiImportSummary> {
  const target = resolve(options.dataDir);
  const file = resolve(options.file);
  const { progress, force } = options;
  const databaseUrl = options.databaseUrl ?? null;
  if (file.startsWith(`${target}${sep}`)) throw new AppError('ConflictError', `the archive ${file} is inside the data directory it would replace; move it out first`);
  const state = await targetState(target);
  const previous = state === 'full' || databaseUrl ? await openTarget(target, databaseUrl) : null;
  const stored: string[] = [];
  let work: string | null = null;
  try {
    await checkTarget(target, state, previous, force);
    const schemasRoot = options.schemasDir === null ? join(target, 'schema') : resolve(options.schemasDir);
    await mkdir(dirname(target), { recursive: true });
    work = await mkdtemp(join(dirname(target), `.${basename(target)}.strapi-import-`));
    progress(`reading ${basename(file)}`);
    const tree = await openStrapiArchive({ file, key: options.key, workDir: join(work, 'archive') });
    const schemas = parseArchiveSchemas(await readStage(tree.dir, 'schemas'));
    const conflicts = await conflictingSchemas(schemasRoot, schemas);
    if (conflicts.length > 0 && !force) throw new AppError('ConflictError', `schemas in ${schemasRoot} differ from the archive's: ${conflicts.join(', ')} (use --force to replace them)`);
    const built = join(work, 'data');
    await mkdir(built, { recursive: true });
    if (state === 'full') await keepSecrets(target, built);
    const stagedSchemas = options.schemasDir === null ? join(built, 'schema') : join(work, 'schema');
    const written = await writeProject({ from: schemasRoot, to: stagedSchemas, schemas });
    progress(`schemas: ${schemas.length} in the archive, ${written} written as project files${conflicts.length > 0 ? ` (replacing ${conflicts.join(', ')})` : ''}`);
    const mediaProvider = databaseUrl ? null : options.mediaProvider;
    const summary = await buildDataDir({ tree, schemas, built, stagedSchemas, previous, mediaProvider }, options, stored);
    if (databaseUrl === null) await setLastSchemas(built, schemasRoot);
    await previous?.close();
    await putInPlace({ built, target, state, work, databaseUrl, mediaProvider: options.mediaProvider, progress });
    // A schemas folder outside the data dir gets the archive's files once the data is in.
    if (options.schemasDir !== null) await writeProject({ from: null, to: schemasRoot, schemas });
    return summary;
  } catch (err) {
    for (const key of stored) await options.mediaProvider?.remove(key).catch(() => {});
    throw err;
  } finally {
    await previous?.close().catch(() => {});
    if (work !== null) await rm(work, { recursive: true, force: true });
  }
}

/** Points the built SQLite data dir at the schemas folder it will be served with. */
async function setLastSchemas(built: string, schemasRoot: string): Promise<void> {
  const database = openSqlite(join(built, 'hearth.db'));
  try {
    await setMeta(database.db, 'last_schemas_dir', schemasRoot);
  } finally {
    await database.close();
  }
}
