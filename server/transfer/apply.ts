import { copyFile, mkdir, readdir, rm } from 'node:fs/promises';
import { ADMIN_SESSIONS_TABLE, ADMIN_USERS_TABLE, API_TOKENS_TABLE, COLUMNS_TABLE, META_TABLE, MODELS_TABLE, TRANSFER_TOKENS_TABLE } from '../db/system-tables.js';
import { join } from 'node:path';
import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import { openSqlite } from '../db/sqlite.js';
import { AppError } from '../errors/app-error.js';
import { BACKUP_MAX_INSERT_PARAMETERS } from '../limits.js';
import { docsOf, registryOf, sameDocs, type BuilderChange, type ProjectDocs } from '../schema/builder.js';
import type { Registry } from '../schema/registry.js';
import type { Services } from '../services.js';
import { importStrapiArchive, type StrapiImportSummary } from '../strapi-archive/import.js';
import type { ArchiveSchema } from '../strapi-archive/schemas.js';
import { writeProject } from '../strapi-archive/schemas.js';
import { copyKeptConfiguration } from '../strapi-archive/settings-in.js';
import { transferError } from './protocol.js';

/**
 * Puts a Strapi dataset (a pushed transfer, or an uploaded export archive) in place on a running
 * server. The archive importer builds a complete data dir from the unpacked tree (all its checks:
 * types in the schemas, row ids, components, links, media); then, through the schema controller
 * and in one transaction, the running schemas become the built ones (an archive's new and changed
 * types; a push keeps the server's) and the content tables' rows are replaced by the built ones, as
 * Strapi's restore deletes and rewrites the transferred types. The registry is swapped as that
 * transaction commits; the response cache and the remembered callers follow the database's change
 * stamp. What a dataset never carries stays: admin accounts and sessions, API and transfer tokens,
 * the schema bookkeeping and settings kept in hearth_meta.
 */

/** Tables the replacement leaves as they are. */
const KEPT = new Set([ADMIN_USERS_TABLE, ADMIN_SESSIONS_TABLE, API_TOKENS_TABLE, TRANSFER_TOKENS_TABLE, COLUMNS_TABLE, META_TABLE, MODELS_TABLE, 'hearth_migrations']);
const kept = (name: string) => KEPT.has(name) || name.startsWith('sqlite_');

/** Rows per INSERT: as many as fit the restore's parameter limit, as the backup restore batches them. */
const ROWS_PER_INSERT = (columns: number) => Math.max(1, Math.floor(BACKUP_MAX_INSERT_PARAMETERS / Math.max(1, columns)));

/** Replaces the content tables' rows by the built database's, inside the live transaction `trx`. */
async function replaceContent(built: Db, trx: Db): Promise<void> {
  const tables = (await built.introspection.getTables()).map((t) => t.name).filter((n) => !kept(n));
  const liveTables = new Set((await trx.introspection.getTables()).map((t) => t.name));
  const missing = tables.filter((t) => !liveTables.has(t));
  if (missing.length > 0) throw transferError('ProviderTransferError', `the server has no table for ${missing.join(', ')}: its schemas changed during the transfer`);
  // Rows reference each other across tables: the checks run once every table is rewritten.
  await sql`PRAGMA defer_foreign_keys = ON`.execute(trx);
  for (const table of tables) await trx.deleteFrom(table).execute();
  for (const table of tables) {
    const rows = await built.selectFrom(table).selectAll().execute();
    const size = ROWS_PER_INSERT(Object.keys(rows[0] ?? {}).length);
    for (let at = 0; at < rows.length; at += size) await trx.insertInto(table).values(rows.slice(at, at + size)).execute();
  }
}

/** Copies the built data dir's local media into the server's uploads folder; resolves to the names that were not there before. */
async function placeMedia(from: string, to: string): Promise<string[]> {
  await mkdir(to, { recursive: true });
  const present = new Set(await readdir(to));
  const added: string[] = [];
  for (const name of await readdir(from).catch(() => [] as string[])) {
    await copyFile(join(from, name), join(to, name));
    if (!present.has(name)) added.push(name);
  }
  return added;
}

/** What to apply: an unpacked Strapi tree, and whether its schemas change the server's (an archive) or are the server's own (a push). */
export interface DatasetOptions {
  readonly services: Services;
  /** The unpacked tree (`--format dir` layout). */
  readonly tree: string;
  /** A scratch folder, removed by the caller. */
  readonly work: string;
  /** The archive's schemas, written over the running project's; null: the tree's schemas are the server's own (a push). */
  readonly schemas: readonly ArchiveSchema[] | null;
  readonly progress: (message: string) => void;
}

/** The running project with the archive's schema files written over it, as the built data dir's project holds them. */
function archiveDocs(base: Registry, schemas: readonly ArchiveSchema[]): ProjectDocs {
  const docs = docsOf(base);
  for (const schema of schemas) {
    if (schema.file === null) continue;
    (schema.modelType === 'component' ? docs.components : docs.contentTypes).set(schema.uid, structuredClone(schema.file));
  }
  return docs;
}

/** The edit the schema controller applies: the archive's project over the running one, or the running one unchanged (a push). */
function editOf(schemas: readonly ArchiveSchema[] | null, base: Registry): (current: Registry) => BuilderChange {
  return (current) => {
    if (schemas === null) return { docs: docsOf(current), registry: current, renames: new Map(), confirmDataLoss: false, uid: '' };
    if (!sameDocs(docsOf(current), docsOf(base))) throw new AppError('ConflictError', 'The schemas were changed while the archive was imported; nothing was imported. Import it again.');
    const docs = archiveDocs(current, schemas);
    return { docs, registry: registryOf(docs), renames: new Map(), confirmDataLoss: true, uid: '' };
  };
}

/** Builds a data dir from the tree with the archive importer, then puts its schemas and content in place on the running server. */
export async function applyDataset(options: DatasetOptions): Promise<StrapiImportSummary> {
  const { services, tree, work, progress } = options;
  const { provider, localDir } = services.uploads;
  const built = join(work, 'built');
  const project = join(work, 'schemas');
  const remote = provider.name === 'local' ? null : provider;
  const base = services.schemas.current();
  // The running project (schema files and hearth.json) is the base the archive's schemas are written over.
  if (options.schemas !== null) await writeProject({ from: services.config.schemasDir, to: project, schemas: [] });
  const summary = await importStrapiArchive({ dataDir: built, file: tree, key: null, schemasDir: project, force: true, mediaProvider: remote, progress });
  const database = openSqlite(join(built, 'hearth.db'));
  let added: string[] = [];
  try {
    progress('applying: schemas and content in one transaction');
    if (remote === null) added = await placeMedia(join(built, 'uploads'), localDir);
    await services.schemas.apply(editOf(options.schemas, base), (trx) => replaceContent(database.db, trx));
  } catch (err) {
    for (const name of added) await rm(join(localDir, name), { force: true });
    throw err;
  } finally {
    await database.close();
  }
  await copyKeptConfiguration(built, services.config.dataDir);
  return summary;
}

/** Puts a pushed transfer in place: the tree's schemas are the server's own. */
export async function applyPush(options: { services: Services; tree: string; work: string }): Promise<void> {
  await applyDataset({ ...options, schemas: null, progress: (m) => options.services.log(`transfer: push: ${m}`) });
}
