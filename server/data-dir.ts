import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { createTokenService } from './auth/api-tokens.js';
import { createLocaleService } from './auth/locales.js';
import { createPermissionService } from './auth/permissions.js';
import { resolveSecrets, secretSettingsOf, type SecretSettings, type Secrets } from './auth/secrets.js';
import type { Database } from './db/database.js';
import { migrate } from './db/migrations.js';
import { openSqlite } from './db/sqlite.js';

/** An opened data directory: its database (migrated) and per-install secrets. */
export interface DataDir {
  readonly path: string;
  readonly database: Database;
  readonly secrets: Secrets;
  readonly tokens: ReturnType<typeof createTokenService>;
  readonly permissions: ReturnType<typeof createPermissionService>;
  readonly locales: ReturnType<typeof createLocaleService>;
}

/** How to open a data dir: the clock, which better-sqlite3 build to load, or a PostgreSQL database instead. */
export interface OpenOptions {
  readonly now?: () => Date;
  readonly nativeBinding?: string;
  /** `DATABASE_URL`: the database lives in PostgreSQL; uploads, secrets and schemas stay in the data dir. */
  readonly databaseUrl?: string | null;
  /** Strapi's secret variables (API_TOKEN_SALT, JWT_SECRET ...); default: the process environment's. */
  readonly secrets?: SecretSettings;
}

/** The data dir's database: PostgreSQL when a URL is given, else its SQLite file. */
export async function openDatabase(path: string, options: Pick<OpenOptions, 'nativeBinding' | 'databaseUrl'>): Promise<Database> {
  // Loaded only when needed: a workstation on SQLite never pays for the PostgreSQL client at start.
  if (options.databaseUrl) return (await import('./db/postgres.js')).openPostgres(options.databaseUrl);
  return openSqlite(join(path, 'hearth.db'), { nativeBinding: options.nativeBinding });
}

/** Opens a data directory, creating it (and its database, secrets and default locale) if needed; refuses secrets the database disagrees with. */
export async function openDataDir(path: string, options: OpenOptions = {}): Promise<DataDir> {
  const now = options.now ?? (() => new Date());
  await mkdir(join(path, 'uploads'), { recursive: true });
  const database = await openDatabase(path, options);
  try {
    await migrate(database);
    const secrets = await resolveSecrets({ database, dataDir: path, settings: options.secrets ?? secretSettingsOf(process.env) });
    const locales = createLocaleService({ db: database.db, now });
    await locales.ensureDefault();
    return {
      path,
      database,
      secrets,
      tokens: createTokenService({ db: database.db, salt: secrets.apiTokenSalt, now }),
      permissions: createPermissionService({ db: database.db, now }),
      locales,
    };
  } catch (err) {
    await database.close();
    throw err;
  }
}
