import type { Generated } from 'kysely';

/**
 * Hearth's own tables (db/migrations.ts, auth/transfer-tokens.ts), named once and typed column by
 * column, so their queries need no casts. Content tables stay `Record<string, Row>`: their
 * columns come from schemas at run time.
 *
 * The types are what both drivers return: integers (ids, counts, 0/1 flags) are numbers on SQLite
 * (db/sqlite.ts) and on PostgreSQL (db/pg-values.ts reads int8 and booleans as SQLite does),
 * dates and JSON are kept as text. An integer beyond 2^53 would come back as a BigInt; no column
 * here ever holds one. `Generated` marks columns the database fills when an insert leaves them out.
 * Tables a project's extension may add columns to (files, users, roles) list the built-in ones.
 */

/** The internal key/value table (schema version, settings). */
export const META_TABLE = 'hearth_meta';
/** Locales of the i18n plugin. */
export const LOCALES_TABLE = 'hearth_locales';
/** API tokens (keyed hashes, never plaintexts). */
export const API_TOKENS_TABLE = 'hearth_api_tokens';
/** Transfer tokens (created on first use: auth/transfer-tokens.ts). */
export const TRANSFER_TOKENS_TABLE = 'hearth_transfer_tokens';
/** Granted actions, by role (API token types, the public and users & permissions roles). */
export const PERMISSIONS_TABLE = 'hearth_permissions';
/** The schema each content type's table was last synced to. */
export const MODELS_TABLE = 'hearth_models';
/** How each content column is stored (schema/sync.ts). */
export const COLUMNS_TABLE = 'hearth_columns';
/** Media library folders. */
export const FOLDERS_TABLE = 'hearth_upload_folders';
/** Media library files (`plugin::upload.file`). */
export const FILES_TABLE = 'hearth_files';
/** Which entry's media field holds which file, in order (Strapi's `files_related_mph`). */
export const FILES_RELATED_TABLE = 'hearth_files_related';
/** Admin panel users. */
export const ADMIN_USERS_TABLE = 'hearth_admin_users';
/** Admin panel sessions. */
export const ADMIN_SESSIONS_TABLE = 'hearth_admin_sessions';
/** Users & permissions: end users (Strapi's name). */
export const USERS_TABLE = 'up_users';
/** Users & permissions: roles (Strapi's name). */
export const ROLES_TABLE = 'up_roles';
/** The join table of `user.role` (owned by the user side, as Strapi names it). */
export const USER_ROLE_LINK_TABLE = 'up_users_role_lnk';
/** Refresh-token sessions (Strapi keeps them in `strapi_sessions`). */
export const SESSIONS_TABLE = 'up_sessions';

/** Webhooks (`/admin/api/webhooks`, `hearth webhook`). */
export const WEBHOOKS_TABLE = 'hearth_webhooks';
/** The outbox: each webhook event, recorded in the transaction of the write that raised it. */
export const WEBHOOK_EVENTS_TABLE = 'hearth_webhook_events';
/** One event's delivery to one webhook: pending, delivered or failed, with its attempts. */
export const WEBHOOK_DELIVERIES_TABLE = 'hearth_webhook_deliveries';
/** Auth rate-limit windows counted in the database, so every instance on it counts the same hits. */
export const RATE_LIMITS_TABLE = 'hearth_rate_limits';
/** Live instances on a shared database: each one's heartbeat (PostgreSQL). */
export const INSTANCES_TABLE = 'hearth_instances';
/** The change stream's recent events (GET /hearth/events), recorded in the transaction of their write. */
export const STREAM_EVENTS_TABLE = 'hearth_stream_events';

/** A row of hearth_meta. */
export type MetaTable = { key: string; value: string };

/** A row of hearth_locales. */
export type LocaleTable = {
  id: Generated<number>;
  code: string;
  name: string;
  /** 1 for the default locale, else 0. */
  is_default: Generated<number>;
  created_at: string;
  updated_at: string;
};

/** A row of hearth_api_tokens. */
export type ApiTokenTable = {
  id: Generated<number>;
  name: string;
  description: Generated<string>;
  type: string;
  access_key_hash: string;
  /** JSON array of action names. */
  permissions: Generated<string>;
  lifespan: number | null;
  expires_at: string | null;
  last_used_at: string | null;
  created_at: string;
  updated_at: string;
};

/** A row of hearth_transfer_tokens. */
export type TransferTokenTable = {
  id: Generated<number>;
  name: string;
  access_key_hash: string;
  /** JSON array of `push` / `pull`. */
  permissions: string;
  created_at: string;
  last_used_at: string | null;
};

/** A row of hearth_permissions. */
export type PermissionTable = { role: string; action: string; created_at: string };

/** A row of hearth_models. */
export type ModelTable = { uid: string; table_name: string; schema: string; updated_at: string };

/** A row of hearth_columns. */
export type ColumnTable = { table_name: string; column_name: string; storage: string };

/** A row of hearth_upload_folders. */
export type FolderTable = {
  id: Generated<number>;
  documentId: string;
  name: string;
  pathId: number;
  path: string;
  parent_id: number | null;
  locale: string | null;
  createdAt: string;
  updatedAt: string;
  publishedAt: string | null;
};

/** A row of hearth_files (its built-in columns). */
export type FileTable = {
  id: Generated<number>;
  documentId: string;
  name: string;
  alternativeText: string | null;
  caption: string | null;
  /** JSON text. */
  focalPoint: string | null;
  width: number | null;
  height: number | null;
  /** JSON text. */
  formats: string | null;
  hash: string;
  ext: string | null;
  mime: string;
  size: number;
  url: string;
  previewUrl: string | null;
  provider: string;
  /** JSON text. */
  provider_metadata: string | null;
  folderPath: Generated<string>;
  folder_id: number | null;
  locale: string | null;
  createdAt: string;
  updatedAt: string;
  publishedAt: string | null;
};

/** A row of hearth_files_related. */
export type FileRelatedTable = {
  id: Generated<number>;
  file_id: number;
  related_id: number;
  related_type: string;
  field: string;
  ord: number;
};

/** A row of hearth_admin_users. */
export type AdminUserTable = {
  id: Generated<number>;
  email: string;
  firstname: string | null;
  lastname: string | null;
  password_hash: string | null;
  created_at: string;
  updated_at: string;
};

/** A row of hearth_admin_sessions. */
export type AdminSessionTable = {
  id: Generated<number>;
  token_hash: string;
  user_id: number;
  kind: string;
  created_at: string;
  last_used_at: string;
};

/** The columns every document table has (Strapi's document fields). */
type DocumentColumns = {
  id: Generated<number>;
  documentId: string;
  createdAt: string;
  updatedAt: string;
  publishedAt: string | null;
  locale: string | null;
};

/** A row of up_roles (its built-in columns). */
export type RoleTable = DocumentColumns & {
  name: string;
  description: string | null;
  type: string;
};

/** A row of up_users (its built-in columns). */
export type UserTable = DocumentColumns & {
  username: string;
  email: string;
  provider: string | null;
  password: string | null;
  resetPasswordToken: string | null;
  confirmationToken: string | null;
  /** 0/1 (a boolean column). */
  confirmed: number | null;
  /** 0/1 (a boolean column). */
  blocked: number | null;
};

/** A row of up_users_role_lnk. */
export type UserRoleLinkTable = {
  id: Generated<number>;
  entity_id: number;
  target_id: number;
  ord: number | null;
  inv_ord: number | null;
};

/** A row of up_sessions. */
export type SessionTable = {
  id: Generated<number>;
  session_id: string;
  user_id: number;
  device_id: string;
  family_id: string;
  child_id: string | null;
  status: string;
  /** JSON text. */
  metadata: Generated<string>;
  expires_at: string;
  absolute_expires_at: string;
  created_at: string;
};

/** A row of hearth_webhooks. */
export type WebhookTable = {
  id: Generated<number>;
  name: string;
  url: string;
  /** JSON object of header names to values, in insertion order. */
  headers: Generated<string>;
  /** JSON array of event names. */
  events: Generated<string>;
  /** 0/1. */
  enabled: Generated<number>;
  /** HMAC key of X-Hearth-Signature; null: bodies are not signed. */
  secret: string | null;
  created_at: string;
  updated_at: string;
};

/** A row of hearth_webhook_events. */
export type WebhookEventTable = {
  id: Generated<number>;
  event: string;
  /** JSON object: the body's keys after `event` and `createdAt` (`model, uid, entry` or `media`), in order. */
  payload: string;
  created_at: string;
};

/** A row of hearth_webhook_deliveries. */
export type WebhookDeliveryTable = {
  id: Generated<number>;
  event_id: number;
  webhook_id: number;
  /** `pending`, `delivered`, `failed` (attempts used up) or `skipped` (webhook disabled or removed meanwhile). */
  status: string;
  attempts: Generated<number>;
  /** ISO time of the next attempt. */
  next_at: string;
  response_status: number | null;
  error: string | null;
  created_at: string;
  updated_at: string;
  delivered_at: string | null;
};

/** A row of hearth_rate_limits: the hits of one key in its current fixed window. */
export type RateLimitTable = {
  key: string;
  hits: number;
  /** Epoch milliseconds at which the window ends. */
  reset_at: number;
};

/** A row of hearth_instances: one running server and when it last said it was alive. */
export type InstanceTable = {
  id: string;
  /** `local` or `aws-s3`: whose files another instance can serve. */
  upload_provider: string;
  started_at: string;
  /** Epoch milliseconds of the last heartbeat. */
  last_seen: number;
};

/** A row of hearth_stream_events. */
export type StreamEventTable = {
  id: Generated<number>;
  event: string;
  /** JSON object: the webhook body's keys after `event` and `createdAt`, in order. */
  payload: string;
  created_at: string;
};

/** Hearth's own tables, for Kysely: `Db` is typed with these beside the run-time content tables. */
export type SystemTables = {
  [META_TABLE]: MetaTable;
  [LOCALES_TABLE]: LocaleTable;
  [API_TOKENS_TABLE]: ApiTokenTable;
  [TRANSFER_TOKENS_TABLE]: TransferTokenTable;
  [PERMISSIONS_TABLE]: PermissionTable;
  [MODELS_TABLE]: ModelTable;
  [COLUMNS_TABLE]: ColumnTable;
  [FOLDERS_TABLE]: FolderTable;
  [FILES_TABLE]: FileTable;
  [FILES_RELATED_TABLE]: FileRelatedTable;
  [ADMIN_USERS_TABLE]: AdminUserTable;
  [ADMIN_SESSIONS_TABLE]: AdminSessionTable;
  [ROLES_TABLE]: RoleTable;
  [USERS_TABLE]: UserTable;
  [USER_ROLE_LINK_TABLE]: UserRoleLinkTable;
  [SESSIONS_TABLE]: SessionTable;
  [WEBHOOKS_TABLE]: WebhookTable;
  [WEBHOOK_EVENTS_TABLE]: WebhookEventTable;
  [WEBHOOK_DELIVERIES_TABLE]: WebhookDeliveryTable;
  [RATE_LIMITS_TABLE]: RateLimitTable;
  [INSTANCES_TABLE]: InstanceTable;
  [STREAM_EVENTS_TABLE]: StreamEventTable;
};
