import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseEnvFor, databaseUrlFor, dropDatabaseFor } from '../helpers/database.js';
import { dataOf, expectJson } from '../helpers/project.js';
import { startTestServer } from '../helpers/server.js';
import { entriesOf, runInProcess } from './helpers.js';

/**
 * `hearth export` from PostgreSQL leaves out the tables of one running team rather than of the
 * data: the change stamp (hearth_change), the live instances (hearth_instances) and the rate-limit
 * counters (hearth_rate_limits). The archive still restores into a database that answers the same.
 */

const BOOKKEEPING = ['hearth_change', 'hearth_instances', 'hearth_rate_limits'];
const dirs: string[] = [];
let root: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'hearth-export-bookkeeping-'));
  dirs.push(join(root, 'source'), join(root, 'again'));
});

afterAll(async () => {
  for (const dir of dirs) await dropDatabaseFor(dir);
  await rm(root, { recursive: true, force: true });
});

describe('hearth export on PostgreSQL', () => {
  it('leaves out hearth_change, hearth_instances and hearth_rate_limits, and the archive restores', async () => {
    const source = join(root, 'source');
    const server = await startTestServer({ dataDir: source });
    const token = await server.token('full-access');
    const tag = await dataOf(await server.request('/api/tags', { method: 'POST', token, json: { data: { label: 'kept' } } }), 201);
    // A failed login counts in hearth_rate_limits; the live server keeps its row in hearth_instances.
    expect((await server.request('/api/auth/local', { method: 'POST', json: { identifier: 'nobody@example.com', password: 'wrong-password' } })).status).toBe(400);
    const env = await databaseEnvFor(source);
    const client = new pg.Client({ connectionString: (await databaseUrlFor(source)) ?? '' });
    await client.connect();
    try {
      for (const table of BOOKKEEPING) expect(Number((await client.query<{ n: string }>(`SELECT count(*) AS n FROM ${table}`)).rows[0]?.n), table).toBeGreaterThan(0);
    } finally {
      await client.end();
    }
    const file = join(root, 'team.tar.gz');
    expect(await runInProcess(['export', '--file', file, '--data', source], env)).toMatchObject({ code: 0 });
    await server.close();

    const entries = await entriesOf(file);
    const paths = entries.map((e) => e.path);
    expect(paths).toContain('tables/tags.jsonl');
    for (const table of BOOKKEEPING) expect(paths).not.toContain(`tables/${table}.jsonl`);
    const manifest = JSON.parse(entries.find((e) => e.path === 'manifest.json')?.body?.toString() ?? '{}') as { tables: { name: string }[] };
    expect(manifest.tables.map((t) => t.name)).toEqual(expect.not.arrayContaining(BOOKKEEPING));

    const again = join(root, 'again');
    expect(await runInProcess(['import', '--file', file, '--data', again], await databaseEnvFor(again))).toMatchObject({ code: 0 });
    const restored = await startTestServer({ dataDir: again });
    try {
      const read = await expectJson<{ data: { label: string } }>(await restored.request(`/api/tags/${tag.documentId}`, { token }), 200);
      expect(read.data.label).toBe('kept');
      const write = await restored.request('/api/tags', { method: 'POST', token, json: { data: { label: 'after' } } });
      expect(write.status).toBe(201);
    } finally {
      await restored.close();
    }
  });
});
