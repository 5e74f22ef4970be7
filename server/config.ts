import { resolve, join } from 'node:path';
import { DEFAULT_PAGE_SIZE, DEFAULT_UPLOAD_SIZE_LIMIT, MAX_PAGE_SIZE } from './limits.js';

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

/** Everything `hearth serve` runs with: flags win over environment variables, which win over defaults. */
export interface HearthConfig {
  readonly dataDir: string;
  /** A Strapi project root: the folder that holds `src/`. */
  readonly schemasDir: string;
  readonly host: string;
  readonly port: number;
  readonly publicUrl: string | null;
  readonly allowedHosts: readonly string[];
  readonly defaultLimit: number;
  /** null: no cap (`api.rest.maxLimit` unset). */
  readonly maxLimit: number | null;
  readonly uploadSizeLimit: number;
  readonly databaseUrl: string | null;
  readonly acceptSchemaChanges: boolean;
  readonly uploadProvider: 'local' | 's3';
  readonly s3: S3Config | null;
}

/** A setting Hearth cannot use (exit code 2, like any usage error). */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

export interface ConfigFlags {
  readonly data?: string;
  readonly schemas?: string;
  readonly host?: string;
  readonly port?: string;
  readonly acceptSchemaChanges?: boolean;
}

function integer(name: string, text: string | undefined, fallback: number, min: number, max = Number.MAX_SAFE_INTEGER): number {
  if (text === undefined || text === '') return fallback;
  const n = Number(text);
  if (!Number.isInteger(n) || n < min || n > max) throw new ConfigError(`${name} must be a whole number between ${min} and ${max} (got "${text}")`);
  return n;
}

/** The data directory: `--data`, else `$HEARTH_DATA`, else `./.hearth`. */
export function dataDirOf(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  return resolve(flag ?? (env.HEARTH_DATA || '.hearth'));
}

function s3Config(env: NodeJS.ProcessEnv): S3Config {
  const acl = env.S3_ACL ?? 'public-read';
  if (acl !== 'public-read' && acl !== 'private') throw new ConfigError(`S3_ACL must be public-read or private (got "${acl}")`);
  if (!env.S3_BUCKET) throw new ConfigError('UPLOAD_PROVIDER=s3 needs S3_BUCKET');
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

/** Resolves the configuration of `hearth serve` from its flags and the environment. */
export function resolveConfig(flags: ConfigFlags, env: NodeJS.ProcessEnv = process.env): HearthConfig {
  const dataDir = dataDirOf(flags.data, env);
  const provider = env.UPLOAD_PROVIDER || 'local';
  if (provider !== 'local' && provider !== 's3') throw new ConfigError(`UPLOAD_PROVIDER must be local or s3 (got "${provider}")`);
  const maxLimitText = env.API_REST_MAX_LIMIT;
  const maxLimit = maxLimitText === undefined || maxLimitText === '' ? MAX_PAGE_SIZE : integer('API_REST_MAX_LIMIT', maxLimitText, MAX_PAGE_SIZE, 0);
  return {
    dataDir,
    schemasDir: resolve(flags.schemas ?? join(dataDir, 'schema')),
    host: flags.host ?? (env.HOST || '127.0.0.1'),
    port: integer('port', flags.port ?? env.PORT, 1337, 0, 65535),
    publicUrl: env.HEARTH_PUBLIC_URL ? env.HEARTH_PUBLIC_URL.replace(/\/+$/, '') : null,
    allowedHosts: (env.HEARTH_ALLOWED_HOSTS ?? '').split(',').map((h) => h.trim().toLowerCase()).filter(Boolean),
    defaultLimit: integer('API_REST_DEFAULT_LIMIT', env.API_REST_DEFAULT_LIMIT, DEFAULT_PAGE_SIZE, 1),
    maxLimit: maxLimit === 0 ? null : maxLimit,
    uploadSizeLimit: integer('UPLOAD_SIZE_LIMIT', env.UPLOAD_SIZE_LIMIT, DEFAULT_UPLOAD_SIZE_LIMIT, 1),
    databaseUrl: env.DATABASE_URL || null,
    acceptSchemaChanges: flags.acceptSchemaChanges ?? false,
    uploadProvider: provider,
    s3: provider === 's3' ? s3Config(env) : null,
  };
}
