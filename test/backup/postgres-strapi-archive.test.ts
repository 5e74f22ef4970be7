import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseUrlFor } from '../helpers/database.js';
import { startTestServer } from '../helpers/server.js';
import type { RunResult } from '../helpers/cli.js';
import { answers, CONTENT_READS, exportStrapi, importStrapi, serveImported, STRAPI_TAR_GZ } from './strapi-helpers.js';

/**
 * Strapi archives with DATABASE_URL (postgres project only): the import builds the data dir in
 * SQLite and hands it to the backup restore, which fills the PostgreSQL database in one
 * transaction; the answers are those of a SQLite import of the same archive, and an export read
 * from PostgreSQL imports back to them too.
 */

let root: string;
let onSqlite: Record<string, string>;

/** Runs a CLI command with DATABASE_URL set (resolveConfig reads the environment). */
async function withDatabase(url: string | null, run: () => Promise<RunResult>): Promise<RunResult> {
  const saved = process.env.DATABASE_URL;
  if (url === null) delete process.env.DATABASE_URL;
  else process.env.DATABASE_URL = url;
  try {
    return await run();
  } finally {
    if (saved === undefined) delete process.env.DATABASE_URL;
    else process.env.DATABASE_URL = saved;
  }
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'hearth-strapi-pg-'));
  const sqliteDir = join(root, 'sqlite');
  expect((await withDatabase(null, () => importStrapi(STRAPI_TAR_GZ, sqliteDir))).code).toBe(0);
  const server = await serveImported(sqliteDir);
  try {
    onSqlite = await answers(server, CONTENT_READS);
  } finally {
    await server.close();
  }
});

afterAll(() => rm(root, { recursive: true, force: true }));

describe('Strapi archives on PostgreSQL', () => {
  it('imports into the PostgreSQL database and answers as the SQLite import; exports from it for Strapi', async () => {
    const dataDir = join(root, 'pg');
    const url = await databaseUrlFor(dataDir);
    expect(url).not.toBeNull();
    const run = await withDatabase(url, () => importStrapi(STRAPI_TAR_GZ, dataDir));
    expect(run.stderr).toContain('entities: 56');
    expect(run.code).toBe(0);
    // The archive's configuration stage is kept beside the PostgreSQL data as beside a SQLite one.
    const kept = (dir: string) => readFile(join(dir, 'strapi-archive', 'configuration.jsonl'), 'utf8');
    expect(await kept(dataDir)).toBe(await kept(join(root, 'sqlite')));
    const server = await startTestServer({ dataDir, schemas: join(dataDir, 'schema') });
    try {
      expect(await answers(server, CONTENT_READS)).toEqual(onSqlite);
    } finally {
      await server.close();
    }
    const file = join(root, 'from-pg.tar.gz');
    expect((await withDatabase(url, () => exportStrapi(dataDir, file))).code).toBe(0);
    const back = join(root, 'back');
    expect((await withDatabase(null, () => importStrapi(file, back))).code).toBe(0);
    const copy = await serveImported(back);
    try {
      expect(await answers(copy, CONTENT_READS)).toEqual(onSqlite);
    } finally {
      await copy.close();
    }
  });
});
