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
  {
    version: 2,
    description: 'admin users and sessions; numeric ids for locales',
    async up(db, kind) {
      await withIdColumn(kind, db.schema.createTable('hearth_admin_users'))
        .addColumn('email', 'text', (c) => c.notNull().unique())
        .addColumn('firstname', 'text')
        .addColumn('lastname', 'text')
        .addColumn('password_hash', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await withIdColumn(kind, db.schema.createTable('hearth_admin_sessions'))
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('user_id', 'integer', (c) => c.notNull().references('hearth_admin_users.id').onDelete('cascade'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('last_used_at', 'text', (c) => c.notNull())
        .execute();
      // The admin API addresses locales by numeric id, as Strapi's i18n plugin does: rebuild the table with one.
      await withIdColumn(kind, db.schema.createTable('hearth_locales_v2'))
        .addColumn('code', 'text', (c) => c.notNull().unique())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('is_default', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      const locales = await db.selectFrom('hearth_locales').selectAll().orderBy('created_at').orderBy('code').execute();
      for (const row of locales) {
        await db
          .insertInto('hearth_locales_v2')
          .values({ code: row.code, name: row.name, is_default: row.is_default, created_at: row.created_at, updated_at: row.created_at })
          .execute();
      }
      await db.schema.dropTable('hearth_locales').execute();
      await db.schema.alterTable('hearth_locales_v2').renameTo('hearth_locales').execute();
    },
  },
  {
    version: 3,
    description: 'users & permissions: end users, roles, their link, refresh-token sessions',
    async up(db, kind) {
      // Both models are content types: the system columns every content table has, then their attributes.
      await withIdColumn(kind, db.schema.createTable('up_roles'))
        .addColumn('documentId', 'text', (c) => c.notNull())
        .addColumn('createdAt', 'text', (c) => c.notNull())
        .addColumn('updatedAt', 'text', (c) => c.notNull())
        .addColumn('publishedAt', 'text')
        .addColumn('locale', 'text')
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('description', 'text')
        .addColumn('type', 'text', (c) => c.notNull().unique())
        .execute();
      await withIdColumn(kind, db.schema.createTable('up_users'))
        .addColumn('documentId', 'text', (c) => c.notNull())
        .addColumn('createdAt', 'text', (c) => c.notNull())
        .addColumn('updatedAt', 'text', (c) => c.notNull())
        .addColumn('publishedAt', 'text')
        .addColumn('locale', 'text')
        .addColumn('username', 'text', (c) => c.notNull().unique())
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('provider', 'text')
        .addColumn('password', 'text')
        .addColumn('resetPasswordToken', 'text')
        .addColumn('confirmationToken', 'text')
        .addColumn('confirmed', 'boolean')
        .addColumn('blocked', 'boolean')
        .execute();
      await db.schema.createIndex('up_users_email_idx').on('up_users').column('email').execute();
      await withIdColumn(kind, db.schema.createTable('up_users_role_lnk'))
        .addColumn('entity_id', 'integer', (c) => c.notNull().references('up_users.id').onDelete('cascade'))
        .addColumn('target_id', 'integer', (c) => c.notNull().references('up_roles.id').onDelete('cascade'))
        .addColumn('ord', 'real')
        .addColumn('inv_ord', 'real')
        .execute();
      await db.schema.createIndex('up_users_role_lnk_entity_idx').on('up_users_role_lnk').columns(['entity_id', 'ord']).execute();
      await db.schema.createIndex('up_users_role_lnk_target_idx').on('up_users_role_lnk').columns(['target_id', 'inv_ord']).execute();
      await withIdColumn(kind, db.schema.createTable('up_sessions'))
        .addColumn('session_id', 'text', (c) => c.notNull().unique())
        .addColumn('user_id', 'integer', (c) => c.notNull().references('up_users.id').onDelete('cascade'))
        .addColumn('device_id', 'text', (c) => c.notNull())
        .addColumn('family_id', 'text', (c) => c.notNull())
        .addColumn('child_id', 'text')
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('metadata', 'text', (c) => c.notNull().defaultTo('{}'))
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('absolute_expires_at', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('up_sessions_user_idx').on('up_sessions').columns(['user_id', 'device_id']).execute();
      await db.schema.createIndex('up_sessions_family_idx').on('up_sessions').column('family_id').execute();
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
