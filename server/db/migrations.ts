import { sql } from 'kysely';
import type { Database, Db } from './database.js';
import { withIdColumn } from './ddl.js';

/** One step of the internal schema; versions only ever grow, and each runs once per data dir. */
interface Migration {
  readonly version: number;
  readonly description: string;
  up(db: Db, kind: Database['kind']): Promise<void>;
}

const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    description: 'locales, API tokens, permissions, schema bookkeeping, media library',
    async up(db, kind) {
      await db.schema
        .createTable('hearth_locales')
        .addColumn('code', 'text', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('is_default', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await withIdColumn(kind, db.schema.createTable('hearth_api_tokens'))
        .addColumn('name', 'text', (c) => c.notNull().unique())
        .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('access_key_hash', 'text', (c) => c.notNull().unique())
        .addColumn('permissions', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('lifespan', 'bigint')
        .addColumn('expires_at', 'text')
        .addColumn('last_used_at', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('hearth_permissions')
        .addColumn('role', 'text', (c) => c.notNull())
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('hearth_permissions_pk', ['role', 'action'])
        .execute();
      await db.schema
        .createTable('hearth_models')
        .addColumn('uid', 'text', (c) => c.primaryKey())
        .addColumn('table_name', 'text', (c) => c.notNull())
        .addColumn('schema', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('hearth_columns')
        .addColumn('table_name', 'text', (c) => c.notNull())
        .addColumn('column_name', 'text', (c) => c.notNull())
        .addColumn('storage', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('hearth_columns_pk', ['table_name', 'column_name'])
        .execute();
      await withIdColumn(kind, db.schema.createTable('hearth_upload_folders'))
        .addColumn('documentId', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('pathId', 'integer', (c) => c.notNull())
        .addColumn('path', 'text', (c) => c.notNull())
        .addColumn('parent_id', 'integer', (c) => c.references('hearth_upload_folders.id').onDelete('cascade'))
        .addColumn('locale', 'text')
        .addColumn('createdAt', 'text', (c) => c.notNull())
        .addColumn('updatedAt', 'text', (c) => c.notNull())
        .addColumn('publishedAt', 'text')
        .execute();
      await withIdColumn(kind, db.schema.createTable('hearth_files'))
        .addColumn('documentId', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('alternativeText', 'text')
        .addColumn('caption', 'text')
        .addColumn('focalPoint', 'text')
        .addColumn('width', 'integer')
        .addColumn('height', 'integer')
        .addColumn('formats', 'text')
        .addColumn('hash', 'text', (c) => c.notNull())
        .addColumn('ext', 'text')
        .addColumn('mime', 'text', (c) => c.notNull())
        .addColumn('size', 'real', (c) => c.notNull())
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('previewUrl', 'text')
        .addColumn('provider', 'text', (c) => c.notNull())
        .addColumn('provider_metadata', 'text')
        .addColumn('folderPath', 'text', (c) => c.notNull().defaultTo('/'))
        .addColumn('folder_id', 'integer', (c) => c.references('hearth_upload_folders.id').onDelete('set null'))
        .addColumn('locale', 'text')
        .addColumn('createdAt', 'text', (c) => c.notNull())
        .addColumn('updatedAt', 'text', (c) => c.notNull())
        .addColumn('publishedAt', 'text')
        .execute();
      await db.schema.createIndex('hearth_files_document_id_idx').on('hearth_files').column('documentId').execute();
      await withIdColumn(kind, db.schema.createTable('hearth_files_related'))
        .addColumn('file_id', 'integer', (c) => c.notNull().references('hearth_files.id').onDelete('cascade'))
        .addColumn('related_id', 'integer', (c) => c.notNull())
        .addColumn('related_type', 'text', (c) => c.notNull())
        .addColumn('field', 'text', (c) => c.notNull())
        .addColumn('ord', 'real', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('hearth_files_related_owner_idx')
        .on('hearth_files_related')
        .columns(['related_type', 'related_id', 'field'])
        .execute();
      await db.schema.createIndex('hearth_files_related_file_idx').on('hearth_files_related').column('file_id').execute();
    },
  },
];

/** The newest internal schema version this build knows. */
export const SCHEMA_VERSION = MIGRATIONS.reduce((max, m) => Math.max(max, m.version), 0);

async function currentVersion(db: Db): Promise<number> {
  await sql`CREATE TABLE IF NOT EXISTS hearth_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)`.execute(db);
  const row = await db.selectFrom('hearth_meta').select('value').where('key', '=', 'schema_version').executeTakeFirst();
  return row ? Number(row.value) : 0;
}

/**
 * Brings the internal tables up to SCHEMA_VERSION, one migration per transaction.
 * A data dir written by a newer Hearth is refused rather than guessed at.
 */
export async function migrate(database: Database): Promise<void> {
  const { db, kind } = database;
  const from = await currentVersion(db);
  if (from > SCHEMA_VERSION) {
    throw new Error(
      `this data directory was written by a newer Hearth (schema version ${from}; this build knows up to ${SCHEMA_VERSION})`,
    );
  }
  for (const migration of MIGRATIONS) {
    if (migration.version <= from) continue;
    await db.transaction().execute(async (trx) => {
      await migration.up(trx, kind);
      const value = String(migration.version);
      await trx
        .insertInto('hearth_meta')
        .values({ key: 'schema_version', value })
        .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
        .execute();
    });
  }
}

/** Reads a value of the internal key/value table. */
export async function getMeta(db: Db, key: string): Promise<string | undefined> {
  const row = await db.selectFrom('hearth_meta').select('value').where('key', '=', key).executeTakeFirst();
  return row === undefined ? undefined : String(row.value);
}

/** Writes a value of the internal key/value table. */
export async function setMeta(db: Db, key: string, value: string): Promise<void> {
  await db
    .insertInto('hearth_meta')
    .values({ key, value })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
    .execute();
}
