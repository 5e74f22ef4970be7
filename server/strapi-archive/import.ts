import { cp, mkdir, mkdtemp, readdir, rename, rm } from 'node:fs/promises';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { AppError } from '../errors/app-error.js';
import { openDataDir } from '../data-dir.js';
import { setMeta } from '../db/migrations.js';
import { swapInto, targetState } from '../backup/import.js';
import { moveMediaToProvider } from '../backup/media-to-provider.js';
import { loadProject } from '../schema/load.js';
import { buildRegistry } from '../schema/registry.js';
import { syncSchema } from '../schema/sync.js';
import type { StorageProvider } from '../uploads/storage-provider.js';
import { importEntities } from './entities-in.js';
import { readStage } from './jsonl.js';
import { importLinks } from './links-in.js';
import { conflictingSchemas, parseArchiveSchemas, writeProject } from './schemas.js';
import { defaultLocaleOf, keepConfiguration, writeLocales, writePermissions } from './settings-in.js';
import { openStrapiArchive } from './source.js';
import { contentRows, keepAdminRows, keepSecrets } from './target.js';

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

/**
 * `hearth import --from-strapi`: builds a complete new data dir beside the target from a Strapi
 * export (schemas as a project, rows with their ids, links, media, locales, users, roles and
 * permissions), then swaps it in. A bad archive stops before the swap: the data dir is left as
 * it was, and the message names the archive member and line.
 */
export async function importStrapiArchive(options: StrapiImportOptions): Promise<StrapiImportSummary> {
  const now = options.now ?? (() => new Date());
  const target = resolve(options.dataDir);
  const file = resolve(options.file);
  const { progress } = options;
  const state = await targetState(target);
  if (file.startsWith(`${target}${sep}`)) throw new AppError('ConflictError', `the archive ${file} is inside the data directory it would replace; move it out first`);
  const existingRows = state === 'full' ? await contentRows(target) : 0;
  if (existingRows === Number.POSITIVE_INFINITY && !options.force) throw new AppError('ConflictError', `${target} is not empty and holds no Hearth database; the import would replace it (use --force)`);
  if (existingRows > 0 && !options.force) throw new AppError('ConflictError', `data directory ${target} holds content (${existingRows} rows); the import replaces it (use --force)`);
  const schemasRoot = options.schemasDir === null ? join(target, 'schema') : resolve(options.schemasDir);
  await mkdir(dirname(target), { recursive: true });
  const work = await mkdtemp(join(dirname(target), `.${basename(target)}.strapi-import-`));
  const stored: string[] = [];
  try {
    progress(`reading ${basename(file)}`);
    const tree = await openStrapiArchive({ file, key: options.key, workDir: join(work, 'archive') });
    const schemas = parseArchiveSchemas(await readStage(tree.dir, 'schemas'));
    const conflicts = await conflictingSchemas(schemasRoot, schemas);
    if (conflicts.length > 0 && !options.force) throw new AppError('ConflictError', `schemas in ${schemasRoot} differ from the archive's: ${conflicts.join(', ')} (use --force to replace them)`);
    const built = join(work, 'data');
    await mkdir(built, { recursive: true });
    if (state === 'full') await keepSecrets(target, built);
    const stagedSchemas = options.schemasDir === null ? join(built, 'schema') : join(work, 'schema');
    const written = await writeProject({ from: schemasRoot, to: stagedSchemas, schemas });
    progress(`schemas: ${schemas.length} in the archive, ${written} written as project files${conflicts.length > 0 ? ` (replacing ${conflicts.join(', ')})` : ''}`);
    const registry = buildRegistry(await loadProject(stagedSchemas));
    const dir = await openDataDir(built, { now });
    let summary: StrapiImportSummary;
    try {
      const stamp = now().toISOString();
      await syncSchema(dir.database, registry, { acceptSchemaChanges: false, defaultLocale: await dir.locales.defaultCode(), now: () => stamp, log: progress });
      const schemaUids = new Set(schemas.map((s) => s.uid));
      const defaultCode = await defaultLocaleOf(tree.dir);
      summary = await dir.database.db.transaction().execute(async (db) => {
        if (state === 'full') await keepAdminRows(target, db);
        const entities = await importEntities({ db, registry, dir: tree.dir, schemaUids, progress });
        progress(`entities: ${count(entities.counts)}${entities.skipped.size > 0 ? ` (skipped ${count(entities.skipped)} of ${[...entities.skipped.keys()].join(', ')})` : ''}`);
        const links = await importLinks({ db, registry, dir: tree.dir, entities, schemaUids });
        progress(`links: ${links.written} (${links.skipped} localizations links and links Hearth does not keep left out)`);
        const locales = await writeLocales(db, entities, defaultCode);
        const permissions = await writePermissions(db, entities, links, stamp);
        const configuration = await keepConfiguration(tree.dir, built);
        progress(`locales: ${locales}, role permissions: ${permissions}, configuration rows kept for an export to Strapi: ${configuration}`);
        const assets = await placeAssets(join(tree.dir, 'assets', 'uploads'), tree.owned, built, options.mediaProvider);
        if (options.mediaProvider !== null) {
          await moveMediaToProvider({ db, provider: options.mediaProvider, mediaDir: join(tree.dir, 'assets', 'uploads'), missing: new Set() }, stored);
        }
        progress(`assets: ${assets.length}${options.mediaProvider === null ? '' : ` (stored with ${options.mediaProvider.name})`}`);
        return { schemas: schemas.length, entities: count(entities.counts), links: links.written, assets: assets.length, skippedTypes: [...entities.skipped.keys()] };
      });
      await setMeta(dir.database.db, 'last_schemas_dir', schemasRoot);
    } finally {
      await dir.database.close();
    }
    await swapInto(built, target, state, work);
    // A schemas folder outside the data dir gets the archive's files once the data is in.
    if (options.schemasDir !== null) await writeProject({ from: null, to: schemasRoot, schemas });
    return summary;
  } catch (err) {
    for (const key of stored) await options.mediaProvider?.remove(key).catch(() => {});
    throw err;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
