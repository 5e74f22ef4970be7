import { availableParallelism } from 'node:os';
import { resolve, join } from 'node:path';
import { secretSettingsOf, type SecretSettings } from './auth/secrets.js';
import { configError } from './errors/app-error.js';
import {
  DEFAULT_PAGE_SIZE,
  DEFAULT_READ_THREADS_MAX,
  DEFAULT_UPLOAD_MAX_IMAGE_PIXELS,
  DEFAULT_UPLOAD_SIZE_LIMIT,
  MAX_PAGE_SIZE,
  READ_THREADS_MAX,
  SHUTDOWN_DRAIN_MAX_MS,
  UP_ACCESS_TOKEN_LIFESPAN_S,
  UP_IDLE_REFRESH_LIFESPAN_S,
  UP_MAX_REFRESH_LIFESPAN_S,
} from './limits.js';

/** S3-compatible object storage settings (`UPLOAD_PROVIDER=s3`). */
export interface S3Config {
  readonly endpoint: string | null;
  readonly region: string;
  readonly bucket: string;
  readonly accessKeyId: string | null;
  readonly secretAccessKey: string | null;
  readonly forcePathStyle: boolean;
  readonly acl: 'public-read' | 'private';
  readonly signedUrlExpires: number;
}

/** Users & permissions (end-user accounts on the content API). */
export interface UsersConfig {
  /** `refresh`: short access tokens plus refresh sessions (Strapi 5's new projects); `legacy-support`: one 30-day JWT. */
  readonly jwtManagement: 'refresh' | 'legacy-support';
  /**
   * UP_REGISTER_ENABLED: `POST /api/auth/local/register` is open or closed, winning over the admin's
   * choice in Users & permissions (Strapi's advanced setting `allow_register`); null when unset.
   */
  readonly registerEnabled: boolean | null;
  /** Lifetimes in seconds: access token, idle refresh token, whole session. */
  readonly accessTokenLifespan: number;
  readonly idleRefreshTokenLifespan: number;
  readonly maxRefreshTokenLifespan: number;
  /** The refresh token travels in the httpOnly cookie `strapi_up_refresh` (else in response bodies). */
  readonly httpOnly: boolean;
  /** The refresh cookie is marked `Secure` (for a server behind HTTPS). */
  readonly cookieSecure: boolean;
}

/** Everything `hearth serve` runs with: flags win over environment variables, which win over defaults. */
export interface HearthConfig {
  readonly dataDir: string;
  /** A Strapi project root: the folder that holds `src/`. */
  readonly schemasDir: string;
  readonly host: string;
  readonly port: number;
  readonly publicUrl: string | null;
  readonly allowedHosts: readonly string[];
  /**
   * Origins the content API answers CORS requests from (HEARTH_CORS_ORIGINS); null: any origin, as
   * Strapi's default. Credentials (the users refresh cookie) only for these and the server's own origin.
   */
  readonly corsOrigins: readonly string[] | null;
  /** HEARTH_RESPONSE_CACHE: cache serialised GET answers of the content API (never stale: see response-cache.ts). */
  readonly responseCache: boolean;
  /** HEARTH_READ_THREADS: threads that build computed answers beside the server's own (SQLite; documents/read-pool.ts). */
  readonly readThreads: number;
  /** HEARTH_SHUTDOWN_DRAIN_MS: after SIGTERM, how long /_health answers 503 while requests are still served, before the server stops accepting (0: stop at once). */
  readonly shutdownDrainMs?: number;
  /** HEARTH_MCP_DESTRUCTIVE: `/mcp` lists `delete_document` (to callers that may delete). */
  readonly mcpDestructive: boolean;
  /** GRAPHQL_INTROSPECTION: `/graphql` answers introspection (default true; false under NODE_ENV=production, as Strapi's Apollo). */
  readonly graphqlIntrospection?: boolean;
  readonly defaultLimit: number;
  /** null: no cap (`api.rest.maxLimit` unset). */
  readonly maxLimit: number | null;
  readonly uploadSizeLimit: number;
  /** UPLOAD_MAX_IMAGE_PIXELS: larger images are stored without being decoded (no formats). */
  readonly uploadMaxImagePixels: number;
  readonly databaseUrl: string | null;
  /** API_TOKEN_SALT, JWT_SECRET, ADMIN_JWT_SECRET, TRANSFER_TOKEN_SALT, HEARTH_ACCEPT_NEW_SECRETS (auth/secrets.ts). */
  readonly secrets: SecretSettings;
  readonly acceptSchemaChanges: boolean;
  /** Team mode: what wins when the schemas folder differs from the database's schema set (`--schema-source`, HEARTH_SCHEMA_SOURCE); null: the database's. */
  readonly schemaSource: 'database' | 'folder' | null;
  readonly uploadProvider: 'local' | 's3';
  readonly s3: S3Config | null;
  readonly users: UsersConfig;
}

export interface ConfigFlags {
  readonly data?: string;
  readonly schemas?: string;
  readonly host?: string;
  readonly port?: string;
  readonly acceptSchemaChanges?: boolean;
  readonly schemaSource?: string;
}

/** `--schema-source`, else HEARTH_SCHEMA_SOURCE: `database` or `folder`; unset, null. */
function schemaSourceOf(flag: string | undefined, env: NodeJS.ProcessEnv): 'database' | 'folder' | null {
  const value = flag ?? env.HEARTH_SCHEMA_SOURCE;
  if (value === undefined || value === '') return null;
  if (value === 'database' || value === 'folder') return value;
  throw configError(`--schema-source (HEARTH_SCHEMA_SOURCE) must be database or folder (got "${value}")`);
}

function integer(name: string, text: string | undefined, fallback: number, min: number, max = Number.MAX_SAFE_INTEGER): number {
  if (text === undefined || text === '') return fallback;
  const n = Number(text);
  if (!Number.isInteger(n) || n < min || n > max) throw configError(`${name} must be a whole number between ${min} and ${max} (got "${text}")`);
  return n;
}

/** The data directory: `--data`, else `$HEARTH_DATA`, else `./.hearth`. */
export function dataDirOf(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  return resolve(flag ?? (env.HEARTH_DATA || '.hearth'));
}

/** `DATABASE_URL`: a `postgres://` (or `postgresql://`) URL runs on PostgreSQL; unset or empty, the data dir's SQLite file. */
export function databaseUrlOf(env: NodeJS.ProcessEnv = process.env): string | null {
  const url = env.DATABASE_URL;
  if (url === undefined || url === '') return null;
  if (!/^postgres(ql)?:\/\//i.test(url)) throw configError('DATABASE_URL must be a postgres:// URL (unset it to use the SQLite file of the data dir)');
  return url;
}

function s3Config(env: NodeJS.ProcessEnv): S3Config {
  const acl = env.S3_ACL ?? 'public-read';
  if (acl !== 'public-read' && acl !== 'private') throw configError(`S3_ACL must be public-read or private (got "${acl}")`);
  if (!env.S3_BUCKET) throw configError('UPLOAD_PROVIDER=s3 needs S3_BUCKET');
  return {
    endpoint: env.S3_ENDPOINT || null,
    region: env.S3_REGION || 'us-east-1',
    bucket: env.S3_BUCKET,
    accessKeyId: env.S3_ACCESS_KEY_ID || null,
    secretAccessKey: env.S3_SECRET_ACCESS_KEY || null,
    forcePathStyle: ['1', 'true', 'yes'].includes((env.S3_FORCE_PATH_STYLE ?? '').toLowerCase()),
    acl,
    signedUrlExpires: integer('S3_SIGNED_URL_EXPIRES', env.S3_SIGNED_URL_EXPIRES, 900, 1),
  };
}

/**
 * Read threads when HEARTH_READ_THREADS is unset: none on one core (a thread would only take turns
 * with the server's), else DEFAULT_READ_THREADS_MAX. Two threads beat one even on two cores: the
 * server's thread, sending and receiving, leaves its core part idle (bench: computed populate=*
 * 850 req/s with one thread, 1,130 with two, on two cores).
 */
export const defaultReadThreads = (cores: number): number => (cores < 2 ? 0 : DEFAULT_READ_THREADS_MAX);

function flag(name: string, text: string | undefined, fallback: boolean): boolean {
  if (text === undefined || text === '') return fallback;
  const value = text.toLowerCase();
  if (['1', 'true', 'yes'].includes(value)) return true;
  if (['0', 'false', 'no'].includes(value)) return false;
  throw configError(`${name} must be true or false (got "${text}")`);
}

function usersConfig(env: NodeJS.ProcessEnv): UsersConfig {
  const mode = env.UP_JWT_MANAGEMENT || 'refresh';
  if (mode !== 'refresh' && mode !== 'legacy-support') throw configError(`UP_JWT_MANAGEMENT must be refresh or legacy-support (got "${mode}")`);
  return {
    jwtManagement: mode,
    registerEnabled: env.UP_REGISTER_ENABLED === undefined || env.UP_REGISTER_ENABLED === '' ? null : flag('UP_REGISTER_ENABLED', env.UP_REGISTER_ENABLED, true),
    accessTokenLifespan: integer('UP_SESSIONS_ACCESS_TTL', env.UP_SESSIONS_ACCESS_TTL, UP_ACCESS_TOKEN_LIFESPAN_S, 1),
    idleRefreshTokenLifespan: integer('UP_SESSIONS_IDLE_REFRESH_TTL', env.UP_SESSIONS_IDLE_REFRESH_TTL, UP_IDLE_REFRESH_LIFESPAN_S, 1),
    maxRefreshTokenLifespan: integer('UP_SESSIONS_MAX_REFRESH_TTL', env.UP_SESSIONS_MAX_REFRESH_TTL, UP_MAX_REFRESH_LIFESPAN_S, 1),
    httpOnly: flag('UP_SESSIONS_HTTP_ONLY', env.UP_SESSIONS_HTTP_ONLY, true),
    cookieSecure: flag('UP_SESSIONS_COOKIE_SECURE', env.UP_SESSIONS_COOKIE_SECURE, false),
  };
}

/** HEARTH_CORS_ORIGINS: unset, empty or `*` allows any origin; else a comma-separated list of origins (`https://site.example`). */
function corsOrigins(text: string | undefined): readonly string[] | null {
  const items = (text ?? '').split(',').map((o) => o.trim()).filter(Boolean);
  if (items.length === 0 || items.includes('*')) return null;
  return items.map((item) => {
    let origin: string;
    try {
      origin = new URL(item).origin;
    } catch {
      throw configError(`HEARTH_CORS_ORIGINS must list origins such as https://site.example (got "${item}")`);
    }
    if (origin === 'null') throw configError(`HEARTH_CORS_ORIGINS must list http(s) origins (got "${item}")`);
    return origin;
  });
}

/** Resolves the configuration of `hearth serve` from its flags and the environment. */
export function resolveConfig(flags: ConfigFlags, env: NodeJS.ProcessEnv = process.env): HearthConfig {
  const dataDir = dataDirOf(flags.data, env);
  const provider = env.UPLOAD_PROVIDER || 'local';
  if (provider !== 'local' && provider !== 's3') throw configError(`UPLOAD_PROVIDER must be local or s3 (got "${provider}")`);
  const maxLimitText = env.API_REST_MAX_LIMIT;
  const maxLimit = maxLimitText === undefined || maxLimitText === '' ? MAX_PAGE_SIZE : integer('API_REST_MAX_LIMIT', maxLimitText, MAX_PAGE_SIZE, 0);
  return {
    dataDir,
    schemasDir: resolve(flags.schemas ?? join(dataDir, 'schema')),
    host: flags.host ?? (env.HOST || '127.0.0.1'),
    port: integer('port', flags.port ?? env.PORT, 1337, 0, 65535),
    publicUrl: env.HEARTH_PUBLIC_URL ? env.HEARTH_PUBLIC_URL.replace(/\/+$/, '') : null,
    allowedHosts: (env.HEARTH_ALLOWED_HOSTS ?? '').split(',').map((h) => h.trim().toLowerCase()).filter(Boolean),
    corsOrigins: corsOrigins(env.HEARTH_CORS_ORIGINS),
    responseCache: flag('HEARTH_RESPONSE_CACHE', env.HEARTH_RESPONSE_CACHE, true),
    mcpDestructive: flag('HEARTH_MCP_DESTRUCTIVE', env.HEARTH_MCP_DESTRUCTIVE, false),
    graphqlIntrospection: flag('GRAPHQL_INTROSPECTION', env.GRAPHQL_INTROSPECTION, env.NODE_ENV !== 'production'),
    shutdownDrainMs: integer('HEARTH_SHUTDOWN_DRAIN_MS', env.HEARTH_SHUTDOWN_DRAIN_MS, 0, 0, SHUTDOWN_DRAIN_MAX_MS),
    readThreads: integer('HEARTH_READ_THREADS', env.HEARTH_READ_THREADS, defaultReadThreads(availableParallelism()), 0, READ_THREADS_MAX),
    defaultLimit: integer('API_REST_DEFAULT_LIMIT', env.API_REST_DEFAULT_LIMIT, DEFAULT_PAGE_SIZE, 1),
    maxLimit: maxLimit === 0 ? null : maxLimit,
    uploadSizeLimit: integer('UPLOAD_SIZE_LIMIT', env.UPLOAD_SIZE_LIMIT, DEFAULT_UPLOAD_SIZE_LIMIT, 1),
    uploadMaxImagePixels: integer('UPLOAD_MAX_IMAGE_PIXELS', env.UPLOAD_MAX_IMAGE_PIXELS, DEFAULT_UPLOAD_MAX_IMAGE_PIXELS, 1),
    databaseUrl: databaseUrlOf(env),
    secrets: secretSettingsOf(env),
    acceptSchemaChanges: flags.acceptSchemaChanges ?? false,
    schemaSource: schemaSourceOf(flags.schemaSource, env),
    uploadProvider: provider,
    s3: provider === 's3' ? s3Config(env) : null,
    users: usersConfig(env),
  };
}
