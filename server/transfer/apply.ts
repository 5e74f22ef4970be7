import { copyFile, mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import { openSqlite } from '../db/sqlite.js';
import { BACKUP_MAX_INSERT_PARAMETERS } from '../limits.js';
import type { Services } from '../services.js';
import { importStrapiArchive } from '../strapi-archive/import.js';
import { copyKeptConfiguration } from '../strapi-archive/settings-in.js';
import { TransferError } from './protocol.js';

/**
 * Puts a pushed transfer in place on a running server. The archive importer builds a complete
 * data dir from the pushed tree (all its checks: types in the schemas, row ids, components,
 * links, media), then the content tables of the live database are replaced by the built ones in
 * one transaction, as Strapi's restore deletes and rewrites the transferred types. What a
 * transfer never carries stays: admin accounts and sessions, API and transfer tokens, the
 * schema bookkeeping and settings kept in hearth_meta.
 */

/** Tables a push leaves as they are. */
const KEPT = new Set(['hearth_admin_users', 'hearth_admin_sessions', 'hearth_api_tokens', 'hearth_transfer_tokens', 'hearth_columns', 'hearth_meta', 'hearth_models', 'hearth_migrations']);
const kept = (name: string) => KEPT.has(name) || name.startsWith('sqlite_');

/** Rows per INSERT: as many as fit the restore's parameter limit, as the backup restore batches them. */
const ROWS_PER_INSERT = (columns: number) => Math.max(1, Math.floor(BACKUP_MAX_INSERT_PARAMETERS / Math.max(1, columns)));

/** Replaces the live content tables' rows by the built database's, in one transaction. */
async function replaceContent(built: Db, live: Db): Promise<void> {
  const tables = (await built.introspection.getTables()).map((t) => t.name).filter((n) => !kept(n));
  const liveTables = new Set((await live.introspection.getTables()).map((t) => t.name));
  const missing = tables.filter((t) => !liveTables.has(t));
  if (missing.length > 0) throw new TransferError('ProviderTransferError', `the server has no table for ${missing.join(', ')}: its schemas changed during the transfer`);
  await live.transaction().execute(async (trx) => {
    // Rows reference each other across tables: the checks run once every table is rewritten.
    await sql`PRAGMA defer_foreign_keys = ON`.execute(trx);
    for (const table of tables) await trx.deleteFrom(table).execute();
    for (const table of tables) {
      const rows = await built.selectFrom(table).selectAll().execute();
      const size = ROWS_PER_INSERT(Object.keys(rows[0] ?? {}).length);
      for (let at = 0; at < rows.length; at += size) await trx.insertInto(table).values(rows.slice(at, at + size)).execute();
    }
  });
}

/** Copies the built data dir's local media into the server's uploads folder (a provider such as S3 got them while building). */
async function placeMedia(from: string, to: string): Promise<void> {
  await mkdir(to, { recursive: true });
  for (const name of await readdir(from).catch(() => [] as string[])) await copyFile(join(from, name), join(to, name));
}

/** Builds a data dir from the pushed tree with the archive importer, then puts its content in place. */
export async function applyPush(options: { services: Services; tree: string; work: string }): Promise<void> {
  const { services, tree, work } = options;
  const { provider, localDir } = services.uploads;
  const built = join(work, 'built');
  const remote = provider.name === 'local' ? null : provider;
  await importStrapiArchive({ dataDir: built, file: tree, key: null, schemasDir: join(work, 'schemas'), force: true, mediaProvider: remote, progress: (m) => services.log(`transfer: push: ${m}`) });
  const database = openSqlite(join(built, 'hearth.db'));
  try {
    if (remote === null) await placeMedia(join(built, 'uploads'), localDir);
    await replaceContent(database.db, services.database.db);
  } finally {
    await database.close();
  }
  await copyKeptConfiguration(built, services.config.dataDir);
}
