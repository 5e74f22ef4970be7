import { join } from 'node:path';
import type { Database } from '../db/database.js';
import { migrate, migrateWithin } from '../db/migrations.js';
import { openSqlite } from '../db/sqlite.js';
import type { StorageProvider } from '../uploads/storage-provider.js';
import { dialectOf } from './dialect.js';
import { archiveError } from './manifest.js';
import { moveMediaToProvider } from './media-to-provider.js';
import { dropSchemaTables } from './postgres-dialect.js';
import { restoreDatabase, restoreInto, type RestoreInput } from './restore.js';
import type { Unpacked } from './unpack.js';

/** Where an import puts what it restores. */
export interface RestoreTarget {
  /** A PostgreSQL database (DATABASE_URL), or null for the new data dir's own SQLite file. */
  readonly database: Database | null;
  /** Replace what the PostgreSQL database holds (its tables are dropped in the import's transaction). */
  readonly force: boolean;
  /** The storage provider media go to (S3), or null to keep them as local files in `<data>/uploads`. */
  readonly mediaProvider: StorageProvider | null;
}

/** Removes objects an import stored before it failed (best effort: the import's own error is what the caller sees). */
async function removeStored(provider: StorageProvider | null, keys: readonly string[]): Promise<void> {
  if (provider === null) return;
  for (const key of keys) await provider.remove(key).catch(() => undefined);
}

/** PostgreSQL: the whole database (drop under --force, migrations, rows, media rewrite) in one transaction. */
function restorePostgres(database: Database, input: RestoreInput, force: boolean): Promise<number> {
  return database.db.transaction().execute(async (trx) => {
    if (force) await dropSchemaTables(trx);
    await migrateWithin(trx, database.kind);
    return restoreInto(trx, input);
  });
}

/**
 * Restores an unpacked archive's database: into a fresh SQLite file in `built`, or into the
 * target PostgreSQL database, in one transaction either way (a failure changes nothing). With a
 * media provider, the archive's local media are stored there and the file rows point at it.
 */
export async function restoreArchive(unpacked: Unpacked, built: string, finalDir: string, target: RestoreTarget): Promise<number> {
  const { manifest, dir } = unpacked;
  const database = target.database ?? openSqlite(join(built, 'hearth.db'));
  const dialect = dialectOf(database);
  const provider = target.mediaProvider;
  const stored: string[] = [];
  const input: RestoreInput = {
    database,
    dialect,
    manifest,
    dir,
    mediaKeys: unpacked.mediaKeys,
    schemasDir: manifest.schema === null ? null : join(finalDir, 'schema'),
    ...(provider === null
      ? {}
      : { finish: async (trx) => void (await moveMediaToProvider({ db: trx, provider, mediaDir: join(dir, 'media'), missing: new Set(manifest.media.missing) }, stored)) }),
  };
  try {
    if (target.database !== null) return await restorePostgres(target.database, input, target.force);
    await migrate(database);
    return await restoreDatabase(input);
  } catch (err) {
    await removeStored(provider, stored);
    if (dialect.isDataError(err)) throw archiveError(`its rows cannot be restored: ${err instanceof Error ? err.message : String(err)}`);
    throw err;
  } finally {
    // The PostgreSQL database belongs to the caller, which opened it.
    if (target.database === null) await database.close();
  }
}
