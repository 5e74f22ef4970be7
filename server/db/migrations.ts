import { sql } from 'kysely';
import type { Database, Db } from './database.js';
import { FILES_RELATED_TABLE } from './system-tables.js';
import { createIdTable, internalType } from './ddl.js';
import { createPostgresFunctions } from './postgres-functions.js';

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
      // SQLite gets its functions from the driver (db/sqlite.ts); PostgreSQL keeps them in the database.
      if (kind === 'postgres') await createPostgresFunctions(db);
      await db.schema
        .createTable('hearth_locales')
        .addColumn('code', internalType(kind, 'text'), (c) => c.primaryKey())
        .addColumn('name', internalType(kind, 'text'), (c) => c.notNull())
        .addColumn('is_default', internalType(kind, 'integer'), (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', internalType(kind, 'text'), (c) => c.notNull())
        .execute();
      await createIdTable(kind, db, 'hearth_api_tokens', (t) =>
        t
          .addColumn('name', internalType(kind, 'text'), (c) => c.notNull().unique())
          .addColumn('description', internalType(kind, 'text'), (c) => c.notNull().defaultTo(''))
          .addColumn('type', internalType(kind, 'text'), (c) => c.notNull())
          .addColumn('access_key_hash', internalType(kind, 'text'), (c) => c.notNull().unique())
          .addColumn('permissions', internalType(kind, 'text'), (c) => c.notNull().defaultTo('[]'))
          .addColumn('lifespan', internalType(kind, 'bigint'))
          .addColumn('expires_at', internalType(kind, 'text'))
          .addColumn('last_used_at', internalType(kind, 'text'))
          .addColumn('created_at', internalType(kind, 'text'), (c) => c.notNull())
          .addColumn('updated_at', internalType(kind, 'text'), (c) => c.notNull()),
      );
      await db.schema
        .createTable('hearth_permissions')
        .addColumn('role', internalType(kind, 'text'), (c) => c.notNull())
        .addColumn('action', internalType(kind, 'text'), (c) => c.notNull())
        .addColumn('created_at', internalType(kind, 'text'), (c) => c.notNull())
        .addPrimaryKeyConstraint('hearth_permissions_pk', ['role', 'action'])
        .execute();
      await db.schema
        .createTable('hearth_models')
        .addColumn('uid', internalType(kind, 'text'), (c) => c.primaryKey())
        .addColumn('table_name', internalType(kind, 'text'), (c) => c.notNull())
        .addColumn('schema', internalType(kind, 'text'), (c) => c.notNull())
        .addColumn('updated_at', internalType(kind, 'text'), (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('hearth_columns')
        .addColumn('table_name', internalType(kind, 'text'), (c) => c.notNull())
        .addColumn('column_name', internalType(kind, 'text'), (c) => c.notNull())
        .addColumn('storage', internalType(kind, 'text'), (c) => c.notNull())
        .addPrimaryKeyConstraint('hearth_columns_pk', ['table_name', 'column_name'])
        .execute();
      await createIdTable(kind, db, 'hearth_upload_folders', (t) => {
        const table = t
          .addColumn('documentId', internalType(kind, 'text'), (c) => c.notNull())
          .addColumn('name', internalType(kind, 'text'), (c) => c.notNull())
          .addColumn('pathId', internalType(kind, 'integer'), (c) => c.notNull())
          .addColumn('path', internalType(kind, 'text'), (c) => c.notNull())
          .addColumn('parent_id', internalType(kind, 'integer'), (c) => (kind === 'postgres' ? c : c.references('hearth_upload_folders.id').onDelete('cascade')))
          .addColumn('locale', internalType(kind, 'text'))
          .addColumn('createdAt', internalType(kind, 'text'), (c) => c.notNull())
          .addColumn('updatedAt', internalType(kind, 'text'), (c) => c.notNull())
          .addColumn('publishedAt', internalType(kind, 'text'));
        // A folder moved under a newer one comes before its parent in id order: an import checks
        // parents at commit (SQLite by pragma; PostgreSQL needs the key declared deferrable).
        return kind === 'postgres'
          ? table.addForeignKeyConstraint('hearth_upload_folders_parent_fk', ['parent_id'], 'hearth_upload_folders', ['id'], (fk) =>
              fk.onDelete('cascade').deferrable().initiallyImmediate(),
            )
          : table;
      });
      await createIdTable(kind, db, 'hearth_files', (t) =>
        t
          .addColumn('documentId', internalType(kind, 'text'), (c) => c.notNull())
          .addColumn('name', internalType(kind, 'text'), (c) => c.notNull())
          .addColumn('alternativeText', internalType(kind, 'text'))
          .addColumn('caption', internalType(kind, 'text'))
          .addColumn('focalPoint', internalType(kind, 'text'))
          .addColumn('width', internalType(kind, 'integer'))
          .addColumn('height', internalType(kind, 'integer'))
          .addColumn('formats', internalType(kind, 'text'))
          .addColumn('hash', internalType(kind, 'text'), (c) => c.notNull())
          .addColumn('ext', internalType(kind, 'text'))
          .addColumn('mime', internalType(kind, 'text'), (c) => c.notNull())
          .addColumn('size', internalType(kind, 'real'), (c) => c.notNull())
          .addColumn('url', internalType(kind, 'text'), (c) => c.notNull())
          .addColumn('previewUrl', internalType(kind, 'text'))
          .addColumn('provider', internalType(kind, 'text'), (c) => c.notNull())
          .addColumn('provider_metadata', internalType(kind, 'text'))
          .addColumn('folderPath', internalType(kind, 'text'), (c) => c.notNull().defaultTo('/'))
          .addColumn('folder_id', internalType(kind, 'integer'), (c) => c.references('hearth_upload_folders.id').onDelete('set null'))
          .addColumn('locale', internalType(kind, 'text'))
          .addColumn('createdAt', internalType(kind, 'text'), (c) => c.notNull())
          .addColumn('updatedAt', internalType(kind, 'text'), (c) => c.notNull())
          .addColumn('publishedAt', internalType(kind, 'text')),
      );
      await db.schema.createIndex('hearth_files_document_id_idx').on('hearth_files').column('documentId').execute();
      await createIdTable(kind, db, FILES_RELATED_TABLE, (t) =>
        t
          .addColumn('file_id', internalType(kind, 'integer'), (c) => c.notNull().references('hearth_files.id').onDelete('cascade'))
          .addColumn('related_id', internalType(kind, 'integer'), (c) => c.notNull())
          .addColumn('related_type', internalType(kind, 'text'), (c) => c.notNull())
          .addColumn('field', internalType(kind, 'text'), (c) => c.notNull())
          .addColumn('ord', internalType(kind, 'real'), (c) => c.notNull()),
      );
      await db.schema
        .createIndex('hearth_files_related_owner_idx')
        .on(FILES_RELATED_TABLE)
        .columns(['related_type', 'related_id', 'field'])
        .execute();
      await db.schema.createIndex('hearth_files_related_file_idx').on(FILES_RELATED_TABLE).column('file_id').execute();
    },
  },
  {
    version: 2,
    description: 'admin users and sessions; numeric ids for locales',
    async up(db, kind) {
      await createIdTable(kind, db, 'hearth_admin_users', (t) =>
        t
          .addColumn('email', internalType(kind, 'text'), (c) => c.notNull().unique())
          .addColumn('firstname', internalType(kind, 'text'))
          .addColumn('lastname', internalType(kind, 'text'))
          .addColumn('password_hash', internalType(kind, 'text'))
          .addColumn('created_at', internalType(kind, 'text'), (c) => c.notNull())
          .addColumn('updated_at', internalType(kind, 'text'), (c) => c.notNull()),
      );
      await createIdTable(kind, db, 'hearth_admin_sessions', (t) =>
        t
          .addColumn('token_hash', internalType(kind, 'text'), (c) => c.notNull().unique())
          .addColumn('user_id', internalType(kind, 'integer'), (c) => c.notNull().references('hearth_admin_users.id').onDelete('cascade'))
          .addColumn('kind', internalType(kind, 'text'), (c) => c.notNull())
          .addColumn('created_at', internalType(kind, 'text'), (c) => c.notNull())
          .addColumn('last_used_at', internalType(kind, 'text'), (c) => c.notNull()),
      );
      // The admin API addresses locales by numeric id, as Strapi's i18n plugin does: rebuild the table with one.
      await createIdTable(kind, db, 'hearth_locales_v2', (t) =>
        t
          .addColumn('code', internalType(kind, 'text'), (c) => c.notNull().unique())
          .addColumn('name', internalType(kind, 'text'), (c) => c.notNull())
          .addColumn('is_default', internalType(kind, 'integer'), (c) => c.notNull().defaultTo(0))
          .addColumn('created_at', internalType(kind, 'text'), (c) => c.notNull())
          .addColumn('updated_at', internalType(kind, 'text'), (c) => c.notNull()),
      );
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
      await createIdTable(kind, db, 'up_roles', (t) =>
        t
          .addColumn('documentId', internalType(kind, 'text'), (c) => c.notNull())
          .addColumn('createdAt', internalType(kind, 'text'), (c) => c.notNull())
          .addColumn('updatedAt', internalType(kind, 'text'), (c) => c.notNull())
          .addColumn('publishedAt', internalType(kind, 'text'))
          .addColumn('locale', internalType(kind, 'text'))
          .addColumn('name', internalType(kind, 'text'), (c) => c.notNull())
          .addColumn('description', internalType(kind, 'text'))
          .addColumn('type', internalType(kind, 'text'), (c) => c.notNull().unique()),
      );
      await createIdTable(kind, db, 'up_users', (t) =>
        t
          .addColumn('documentId', internalType(kind, 'text'), (c) => c.notNull())
          .addColumn('createdAt', internalType(kind, 'text'), (c) => c.notNull())
          .addColumn('updatedAt', internalType(kind, 'text'), (c) => c.notNull())
          .addColumn('publishedAt', internalType(kind, 'text'))
          .addColumn('locale', internalType(kind, 'text'))
          .addColumn('username', internalType(kind, 'text'), (c) => c.notNull().unique())
          .addColumn('email', internalType(kind, 'text'), (c) => c.notNull())
          .addColumn('provider', internalType(kind, 'text'))
          .addColumn('password', internalType(kind, 'text'))
          .addColumn('resetPasswordToken', internalType(kind, 'text'))
          .addColumn('confirmationToken', internalType(kind, 'text'))
          .addColumn('confirmed', internalType(kind, 'boolean'))
          .addColumn('blocked', internalType(kind, 'boolean')),
      );
      await db.schema.createIndex('up_users_email_idx').on('up_users').column('email').execute();
      await createIdTable(kind, db, 'up_users_role_lnk', (t) =>
        t
          .addColumn('entity_id', internalType(kind, 'integer'), (c) => c.notNull().references('up_users.id').onDelete('cascade'))
          .addColumn('target_id', internalType(kind, 'integer'), (c) => c.notNull().references('up_roles.id').onDelete('cascade'))
          .addColumn('ord', internalType(kind, 'real'))
          .addColumn('inv_ord', internalType(kind, 'real')),
      );
      await db.schema.createIndex('up_users_role_lnk_entity_idx').on('up_users_role_lnk').columns(['entity_id', 'ord']).execute();
      await db.schema.createIndex('up_users_role_lnk_target_idx').on('up_users_role_lnk').columns(['target_id', 'inv_ord']).execute();
      await createIdTable(kind, db, 'up_sessions', (t) =>
        t
          .addColumn('session_id', internalType(kind, 'text'), (c) => c.notNull().unique())
          .addColumn('user_id', internalType(kind, 'integer'), (c) => c.notNull().references('up_users.id').onDelete('cascade'))
          .addColumn('device_id', internalType(kind, 'text'), (c) => c.notNull())
          .addColumn('family_id', internalType(kind, 'text'), (c) => c.notNull())
          .addColumn('child_id', internalType(kind, 'text'))
          .addColumn('status', internalType(kind, 'text'), (c) => c.notNull())
          .addColumn('metadata', internalType(kind, 'text'), (c) => c.notNull().defaultTo('{}'))
          .addColumn('expires_at', internalType(kind, 'text'), (c) => c.notNull())
          .addColumn('absolute_expires_at', internalType(kind, 'text'), (c) => c.notNull())
          .addColumn('created_at', internalType(kind, 'text'), (c) => c.notNull()),
      );
      await db.schema.createIndex('up_sessions_user_idx').on('up_sessions').columns(['user_id', 'device_id']).execute();
      await db.schema.createIndex('up_sessions_family_idx').on('up_sessions').column('family_id').execute();
    },
  },
  {
    version: 4,
    description: 'webhooks, their outbox of events and the delivery of each event to each webhook',
    async up(db, kind) {
      await createIdTable(kind, db, 'hearth_webhooks', (t) =>
        t
          .addColumn('name', internalType(kind, 'text'), (c) => c.notNull())
          .addColumn('url', internalType(kind, 'text'), (c) => c.notNull())
          .addColumn('headers', internalType(kind, 'text'), (c) => c.notNull().defaultTo('{}'))
          .addColumn('events', internalType(kind, 'text'), (c) => c.notNull().defaultTo('[]'))
          .addColumn('enabled', internalType(kind, 'integer'), (c) => c.notNull().defaultTo(1))
          .addColumn('secret', internalType(kind, 'text'))
          .addColumn('created_at', internalType(kind, 'text'), (c) => c.notNull())
          .addColumn('updated_at', internalType(kind, 'text'), (c) => c.notNull()),
      );
      await createIdTable(kind, db, 'hearth_webhook_events', (t) =>
        t
          .addColumn('event', internalType(kind, 'text'), (c) => c.notNull())
          .addColumn('payload', internalType(kind, 'text'), (c) => c.notNull())
          .addColumn('created_at', internalType(kind, 'text'), (c) => c.notNull()),
      );
      await createIdTable(kind, db, 'hearth_webhook_deliveries', (t) =>
        t
          .addColumn('event_id', internalType(kind, 'integer'), (c) => c.notNull().references('hearth_webhook_events.id').onDelete('cascade'))
          .addColumn('webhook_id', internalType(kind, 'integer'), (c) => c.notNull())
          .addColumn('status', internalType(kind, 'text'), (c) => c.notNull())
          .addColumn('attempts', internalType(kind, 'integer'), (c) => c.notNull().defaultTo(0))
          .addColumn('next_at', internalType(kind, 'text'), (c) => c.notNull())
          .addColumn('response_status', internalType(kind, 'integer'))
          .addColumn('error', internalType(kind, 'text'))
          .addColumn('created_at', internalType(kind, 'text'), (c) => c.notNull())
          .addColumn('updated_at', internalType(kind, 'text'), (c) => c.notNull())
          .addColumn('delivered_at', internalType(kind, 'text')),
      );
      await db.schema.createIndex('hearth_webhook_deliveries_pending_idx').on('hearth_webhook_deliveries').columns(['status', 'webhook_id', 'id']).execute();
      await db.schema.createIndex('hearth_webhook_deliveries_webhook_idx').on('hearth_webhook_deliveries').columns(['webhook_id', 'id']).execute();
    },
  },
  {
    version: 5,
    description: 'team mode: auth rate limits counted in the database, instance heartbeats',
    async up(db, kind) {
      await db.schema
        .createTable('hearth_rate_limits')
        .addColumn('key', internalType(kind, 'text'), (c) => c.primaryKey())
        .addColumn('hits', internalType(kind, 'integer'), (c) => c.notNull())
        .addColumn('reset_at', internalType(kind, 'bigint'), (c) => c.notNull())
        .execute();
      await db.schema.createIndex('hearth_rate_limits_reset_idx').on('hearth_rate_limits').column('reset_at').execute();
      await db.schema
        .createTable('hearth_instances')
        .addColumn('id', internalType(kind, 'text'), (c) => c.primaryKey())
        .addColumn('upload_provider', internalType(kind, 'text'), (c) => c.notNull())
        .addColumn('started_at', internalType(kind, 'text'), (c) => c.notNull())
        .addColumn('last_seen', internalType(kind, 'bigint'), (c) => c.notNull())
        .execute();
    },
  },
  {
    version: 6,
    description: 'the change stream: recent events, kept while a stream listens (GET /hearth/events)',
    async up(db, kind) {
      await createIdTable(kind, db, 'hearth_stream_events', (t) =>
        t
          .addColumn('event', internalType(kind, 'text'), (c) => c.notNull())
          .addColumn('payload', internalType(kind, 'text'), (c) => c.notNull())
          .addColumn('created_at', internalType(kind, 'text'), (c) => c.notNull()),
      );
    },
  },
  {
    version: 7,
    description: "webhook deliveries by event: pruning events no delivery refers to, and the FK's cascade, without a scan of every delivery per event",
    async up(db) {
      await db.schema.createIndex('hearth_webhook_deliveries_event_idx').on('hearth_webhook_deliveries').column('event_id').execute();
    },
  },
  {
    version: 8,
    description:
      "webhook queues indexed by their pending deliveries alone: settling a delivery drops its queue entry instead of moving it to a 'delivered' part of the index (half the pages each settle writes)",
    async up(db) {
      await db.schema.dropIndex('hearth_webhook_deliveries_pending_idx').execute();
      await db.schema
        .createIndex('hearth_webhook_deliveries_queue_idx')
        .on('hearth_webhook_deliveries')
        .columns(['webhook_id', 'id'])
        .where(sql.ref('status'), '=', 'pending')
        .execute();
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

/** The version a database is at, refusing one written by a newer Hearth rather than guessing at it. */
async function checkedVersion(db: Db): Promise<number> {
  const from = await currentVersion(db);
  if (from > SCHEMA_VERSION) {
    throw new Error(
      `this data directory was written by a newer Hearth (schema version ${from}; this build knows up to ${SCHEMA_VERSION})`,
    );
  }
  return from;
}

/** Runs one migration in `trx` unless the database already has it. */
async function apply(trx: Db, kind: Database['kind'], migration: Migration): Promise<void> {
  // Another process (a CLI command, a second server) may have migrated since the version was read.
  if ((await currentVersion(trx)) >= migration.version) return;
  await migration.up(trx, kind);
  const value = String(migration.version);
  await trx
    .insertInto('hearth_meta')
    .values({ key: 'schema_version', value })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
    .execute();
}

/**
 * Brings the internal tables up to SCHEMA_VERSION, one migration per transaction.
 * A data dir written by a newer Hearth is refused rather than guessed at.
 */
export async function migrate(database: Database): Promise<void> {
  const { db, kind } = database;
  // In a transaction (PostgreSQL: under the write lock): instances starting at once on a fresh database would race to create hearth_meta.
  const from = await db.transaction().execute((trx) => checkedVersion(trx));
  for (const migration of MIGRATIONS) {
    if (migration.version <= from) continue;
    await db.transaction().execute((trx) => apply(trx, kind, migration));
  }
}

/** Every pending migration inside the caller's transaction (an import into PostgreSQL builds the whole database in one). */
export async function migrateWithin(trx: Db, kind: Database['kind']): Promise<void> {
  await checkedVersion(trx);
  for (const migration of MIGRATIONS) await apply(trx, kind, migration);
}

/** Reads a value of the internal key/value table. */
export async function getMeta(db: Db, key: string): Promise<string | undefined> {
  const row = await db.selectFrom('hearth_meta').select('value').where('key', '=', key).executeTakeFirst();
  return row?.value;
}

/** Writes a value of the internal key/value table. */
export async function setMeta(db: Db, key: string, value: string): Promise<void> {
  await db
    .insertInto('hearth_meta')
    .values({ key, value })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
    .execute();
}
