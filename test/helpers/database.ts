import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { openDataDir, type DataDir } from '../../server/data-dir.js';

/**
 * Which database the tests of this vitest project run on. In the `postgres` project every data
 * dir gets its own database on the run's PostgreSQL server (test/helpers/postgres-server.ts),
 * created on first use and passed to Hearth as DATABASE_URL; in the `sqlite` project there is none.
 */

/** The run's PostgreSQL server (its maintenance database), or undefined in the `sqlite` project. */
export function postgresServerUrl(): string | undefined {
  return inject('postgresUrl');
}

/** Whether this project runs Hearth on PostgreSQL. */
export const onPostgres = (): boolean => postgresServerUrl() !== undefined;

/** Runs one statement on the maintenance database. */
async function admin(serverUrl: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

const byDataDir = new Map<string, string>();

/** A URL of the same server naming another database. */
function withDatabase(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * The DATABASE_URL of a data dir: on PostgreSQL, a fresh database the first time a data dir is
 * seen (the same one again after, so a restarted server finds its data); null on SQLite.
 */
export async function databaseUrlFor(dataDir: string): Promise<string | null> {
  const serverUrl = postgresServerUrl();
  if (serverUrl === undefined) return null;
  const known = byDataDir.get(dataDir);
  if (known !== undefined) return known;
  const name = `hearth_${process.pid}_${randomBytes(6).toString('hex')}`;
  await admin(serverUrl, `CREATE DATABASE "${name}"`);
  const url = withDatabase(serverUrl, name);
  byDataDir.set(dataDir, url);
  return url;
}

/** Drops the database of a data dir (connections still open are closed by the server). */
export async function dropDatabaseFor(dataDir: string): Promise<void> {
  const serverUrl = postgresServerUrl();
  const url = byDataDir.get(dataDir);
  if (serverUrl === undefined || url === undefined) return;
  byDataDir.delete(dataDir);
  const name = new URL(url).pathname.slice(1);
  await admin(serverUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
}

/** The environment a `hearth` process needs to open a data dir: its DATABASE_URL on PostgreSQL, nothing on SQLite. */
export async function databaseEnvFor(dataDir: string): Promise<NodeJS.ProcessEnv> {
  const url = await databaseUrlFor(dataDir);
  return url === null ? {} : { DATABASE_URL: url };
}

/** Opens a data dir as Hearth would with this project's database (its DATABASE_URL on PostgreSQL). */
export async function openTestDataDir(path: string): Promise<DataDir> {
  return openDataDir(path, { databaseUrl: await databaseUrlFor(path) });
}
