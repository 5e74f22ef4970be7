import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseUrlFor } from '../helpers/database.js';
import { startTestServer } from '../helpers/server.js';
import { adminRequest, registerOwner } from '../admin/helpers.js';
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

  it('a running server on PostgreSQL refuses the admin API import with a 409 naming the CLI command, and keeps its content', async () => {
    const server = await startTestServer();
    try {
      const session = await registerOwner(server);
      const admin = adminRequest(server, session);
      const token = await server.token('full-access');
      expect((await server.request('/api/tags', { method: 'POST', token, json: { data: { label: 'kept' } } })).status).toBe(201);
      const body = new FormData();
      body.append('files', new Blob([await readFile(STRAPI_TAR_GZ)]), 'export-example.tar.gz');
      const inspected = await admin('/admin/api/strapi-archive/inspect', { method: 'POST', body });
      expect(inspected.status).toBe(200);
      const { data } = (await inspected.json()) as { data: { id: string; liveImport: boolean; command: string } };
      expect(data.liveImport).toBe(false);
      const refused = await admin('/admin/api/strapi-archive/import', { method: 'POST', json: { id: data.id, force: true } });
      expect(refused.status).toBe(409);
      const { error } = (await refused.json()) as { error: { name: string; details: { command: string } } };
      expect(error.name).toBe('ConflictError');
      expect(error.details.command).toBe(data.command);
      expect(data.command).toContain('hearth import --from-strapi "export-example.tar.gz"');
      const tags = (await (await server.request('/api/tags?status=draft', { token })).json()) as { data: { label: string }[] };
      expect(tags.data.map((t) => t.label)).toEqual(['kept']);
    } finally {
      await server.close();
    }
  });
});
