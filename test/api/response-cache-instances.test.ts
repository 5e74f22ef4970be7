import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../server/cli.js';
import { openPostgres } from '../../server/db/postgres.js';
import { adminRequest, fixtureCopy, registerOwner } from '../admin/helpers.js';
import { databaseUrlFor, dropDatabaseFor, onPostgres } from '../helpers/database.js';
import { expectJson } from '../helpers/project.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { fixturePart, postUpload } from '../uploads/helpers.js';

/**
 * Two instances on one database, each with the response cache on: on PostgreSQL each with its own
 * data dir and its own copy of the schemas (as two hosts have), on SQLite two servers on one data
 * dir. A write through any path on one is seen by the very next read on the other, even when that
 * read's URL was cached there a moment before: every write transaction bumps the change stamp, and
 * a cached answer is served only after the stamp was read again (db/pg-change.ts).
 */

const TRIES = 1000;

const dirs: string[] = [];
let key: string;
let url: string | null;
let a: TestServer;
let b: TestServer;
let token: string;

type Doc = { id: number; documentId: string; title: string; [field: string]: unknown };

async function newDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'hearth-cache-instances-'));
  dirs.push(dir);
  return dir;
}

/** An instance on the shared database: its own data dir on PostgreSQL, the first one's on SQLite. */
async function instance(dataDir: string): Promise<TestServer> {
  return startTestServer({ dataDir, database: 'sqlite', schemas: await fixtureCopy(), env: url === null ? {} : { DATABASE_URL: url } });
}

beforeAll(async () => {
  key = await newDir();
  url = await databaseUrlFor(key);
  const first = await newDir();
  a = await instance(first);
  b = await instance(url === null ? first : await newDir());
  // The instances share their secrets (the database's on PostgreSQL, the data dir's on SQLite): a token made on A works on B.
  token = await a.token('full-access');
});

afterAll(async () => {
  await b.close();
  await a.close();
  await dropDatabaseFor(key);
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

const statements = (server: TestServer) => server.server.services.database.queryCount();
/** Statements of a cached answer: one (SQLite: authentication; PostgreSQL: the stamp's read, which keys the caller memo too). */
const HIT = () => 1;

async function get<T = { data: Doc[] }>(server: TestServer, path: string, caller: string | null = token): Promise<T> {
  return expectJson<T>(await server.request(path, caller === null ? {} : { token: caller }), 200);
}

/** Reads on `server` twice: the second is answered from its cache. */
async function readTwice<T = { data: Doc[] }>(server: TestServer, path: string, caller: string | null = token): Promise<T> {
  const first = await get<T>(server, path, caller);
  const before = statements(server);
  const second = await get<T>(server, path, caller);
  expect(statements(server) - before).toBeLessThanOrEqual(HIT());
  expect(server.server.services.responses.size().entries).toBeGreaterThan(0);
  expect(second).toEqual(first);
  return second;
}

async function send(server: TestServer, path: string, method: string, data: unknown, status: number): Promise<Doc> {
  return (await expectJson<{ data: Doc }>(await server.request(path, { method, token, json: { data } }), status)).data;
}

const LIST = '/api/articles?sort=title&fields[0]=title&pagination[pageSize]=100';
const titles = (body: { data: Doc[] }) => body.data.map((d) => d.title);

describe('the response cache with two instances on one database', () => {
  it('is on, and a write on one instance is read on the other right after, every time', { timeout: 180_000 }, async () => {
    const doc = await send(a, '/api/articles', 'POST', { title: 'v-start' }, 201);
    const path = `/api/articles/${doc.documentId}?fields[0]=title`;
    await readTwice(a, path);
    await readTwice(b, path);
    let stale = 0;
    let hits = 0;
    for (let i = 0; i < TRIES; i++) {
      // Alternate: write on A and read on B, then write on B and read on A; each reader has the URL cached from before the write.
      const [writer, reader] = i % 2 === 0 ? [a, b] : [b, a];
      await send(writer, `/api/articles/${doc.documentId}`, 'PUT', { title: `v${i}` }, 200);
      if ((await get<{ data: Doc }>(reader, path)).data.title !== `v${i}`) stale++;
      const before = statements(reader);
      if ((await get<{ data: Doc }>(reader, path)).data.title !== `v${i}`) stale++;
      if (statements(reader) - before <= HIT()) hits++;
    }
    expect(stale).toBe(0);
    // The read repeated after each fresh one is a hit, unless a background write (a heartbeat, a token's last use) came between.
    expect(hits).toBeGreaterThanOrEqual(TRIES * 0.9);
  });

  it('sees REST creates, updates, deletes, the content manager, uploads, a CLI command and a builder change made on the other instance', async () => {
    const admin = adminRequest(a, await registerOwner(a));
    await readTwice(b, LIST);
    const doc = await send(a, '/api/articles', 'POST', { title: 'alpha' }, 201);
    expect(titles(await readTwice(b, LIST))).toContain('alpha');
    await send(a, `/api/articles/${doc.documentId}`, 'PUT', { title: 'alpha 2' }, 200);
    expect(titles(await readTwice(b, LIST))).toContain('alpha 2');
    await expectJson(await admin(`/admin/api/content-manager/api::article.article/documents/${doc.documentId}/actions/unpublish?locale=en`, { method: 'POST' }), 200);
    expect(titles(await readTwice(b, LIST))).not.toContain('alpha 2');
    await expectJson(await admin(`/admin/api/content-manager/api::article.article/documents/${doc.documentId}/actions/publish?locale=en`, { method: 'POST' }), 200);
    expect(titles(await readTwice(b, LIST))).toContain('alpha 2');
    expect((await a.request(`/api/articles/${doc.documentId}`, { method: 'DELETE', token })).status).toBe(204);
    expect(titles(await readTwice(b, LIST))).not.toContain('alpha 2');

    // An upload on A linking a file to a draft.
    const draft = await send(a, '/api/articles?status=draft', 'POST', { title: 'with cover' }, 201);
    const covered = `/api/articles/${draft.documentId}?status=draft&populate[0]=cover`;
    expect((await readTwice<{ data: Doc }>(b, covered)).data).toMatchObject({ cover: null });
    const link = [
      { name: 'ref', value: 'api::article.article' },
      { name: 'refId', value: String(draft.id) },
      { name: 'field', value: 'cover' },
    ];
    await expectJson(await postUpload(a, token, [fixturePart('blue-64x48.jpg'), ...link]), 201);
    expect((await readTwice<{ data: Doc }>(b, covered)).data).toMatchObject({ cover: { name: 'blue-64x48.jpg' } });

    // A CLI command on the same database: what the public role may populate.
    const category = await send(a, '/api/categories', 'POST', { name: 'Cakes' }, 201);
    await send(a, '/api/articles', 'POST', { title: 'categorised', category: category.documentId }, 201);
    const populated = '/api/articles?filters[title][$eq]=categorised&populate=*';
    expect(await hearth(['permissions', 'grant', '--role', 'public', '--actions', 'api::article.article.find', '--data', await cliDir(a)])).toBe(0);
    expect((await readTwice(b, populated, null)).data[0]).not.toHaveProperty('category');
    expect(await hearth(['permissions', 'grant', '--role', 'public', '--actions', 'api::category.category.find', '--data', await cliDir(a)])).toBe(0);
    expect((await readTwice(b, populated, null)).data[0]).toMatchObject({ category: { name: 'Cakes' } });

    // A builder change on A (a new attribute: its column added in a write transaction): B computes its next answer afresh.
    await readTwice(b, LIST);
    const current = await expectJson<{ data: { schema: { attributes: Record<string, unknown> } } }>(await admin('/admin/api/content-types/api::article.article'), 200);
    const schema = { ...current.data.schema, attributes: { ...current.data.schema.attributes, subtitle: { type: 'string' } } };
    await expectJson(await admin('/admin/api/content-types/api::article.article', { method: 'PUT', json: { contentType: schema } }), 200);
    const before = statements(b);
    await get(b, LIST);
    expect(statements(b) - before).toBeGreaterThan(HIT());
  });
});

if (onPostgres()) {
  describe('the change stamp on PostgreSQL (hearth_change)', () => {
    it('caches nothing while the table is missing, and the next write creates it again under a new series', async () => {
      const doc = await send(a, '/api/articles', 'POST', { title: 'series one' }, 201);
      const path = `/api/articles/${doc.documentId}?fields[0]=title`;
      await readTwice(b, path);
      // What `import --force` does to every table, the stamp's included.
      const client = new pg.Client({ connectionString: url ?? '' });
      await client.connect();
      try {
        await client.query('DROP TABLE hearth_change');
        // No stamp: every read is computed, none is stored.
        const before = statements(b);
        await get(b, path);
        await get(b, path);
        expect(statements(b) - before).toBeGreaterThan(2 * HIT());
        // A write outside a transaction (another Hearth process) creates the table again and bumps it.
        const other = openPostgres(url ?? '');
        try {
          await other.db.updateTable('articles').set({ title: 'series two' }).where('documentId', '=', doc.documentId).execute();
        } finally {
          await other.close();
        }
        const { rows } = await client.query<{ n: string }>('SELECT n FROM hearth_change');
        expect(rows).toHaveLength(1);
        // A new series (1, unless an instance's own background write came first).
        expect(Number(rows[0]?.n)).toBeGreaterThanOrEqual(1);
      } finally {
        await client.end();
      }
      expect((await readTwice<{ data: Doc }>(b, path)).data.title).toBe('series two');
      await send(a, `/api/articles/${doc.documentId}`, 'PUT', { title: 'series two, again' }, 200);
      expect((await readTwice<{ data: Doc }>(b, path)).data.title).toBe('series two, again');
    });

    it('refuses a token revoked on one instance at the next request on the other, though the other memoised its caller under the stamp', async () => {
      const doc = await send(a, '/api/articles', 'POST', { title: 'revoked' }, 201);
      const { accessKey, token: created } = await a.server.services.tokens.create({ name: `revoked-${Date.now()}`, type: 'read-only', permissions: [] });
      const path = `/api/articles/${doc.documentId}?fields[0]=title`;
      // The first use records the token's lastUsedAt (a write): the second and third reads are under one stamp.
      await get(b, path, accessKey);
      await readTwice(b, path, accessKey);
      expect(await a.server.services.tokens.revoke(created.id)).toBe(true);
      const res = await b.request(path, { token: accessKey });
      expect(res.status).toBe(401);
    });

    it('stays where it is on bookkeeping writes (heartbeats, rate-limit counts), so the cache still hits across them; a content write still moves it', async () => {
      const doc = await send(a, '/api/articles', 'POST', { title: 'bookkeeping' }, 201);
      const path = `/api/articles/${doc.documentId}?fields[0]=title`;
      await readTwice(b, path);
      const client = new pg.Client({ connectionString: url ?? '' });
      await client.connect();
      const stamp = async () => (await client.query<{ n: string }>('SELECT n FROM hearth_change WHERE id = 1')).rows[0]?.n;
      try {
        const before = await stamp();
        await a.server.services.instances.beat();
        await b.server.services.instances.beat();
        // A failed login counts against the caller in hearth_rate_limits (the team's shared store).
        expect((await a.request('/api/auth/local', { method: 'POST', json: { identifier: 'nobody@example.com', password: 'wrong-password' } })).status).toBe(400);
        expect(Number((await client.query<{ n: string }>('SELECT count(*) AS n FROM hearth_rate_limits')).rows[0]?.n)).toBeGreaterThan(0);
        expect(await stamp()).toBe(before);
        const statementsBefore = statements(b);
        expect((await get<{ data: Doc }>(b, path)).data.title).toBe('bookkeeping');
        expect(statements(b) - statementsBefore).toBeLessThanOrEqual(HIT());
        await send(a, `/api/articles/${doc.documentId}`, 'PUT', { title: 'bookkeeping, written' }, 200);
        expect(Number(await stamp())).toBeGreaterThan(Number(before));
        expect((await readTwice<{ data: Doc }>(b, path)).data.title).toBe('bookkeeping, written');
      } finally {
        await client.end();
      }
    });
  });
}

/** The data dir a CLI command is run with: the server's own on SQLite, one of its own on PostgreSQL (as on another host). */
async function cliDir(server: TestServer): Promise<string> {
  return url === null ? server.dataDir : newDir();
}

/** Runs `hearth ...` in this process with the shared database's DATABASE_URL. */
async function hearth(args: string[]): Promise<number> {
  const saved = process.env.DATABASE_URL;
  if (url !== null) process.env.DATABASE_URL = url;
  try {
    return await main(args, { out: () => {}, err: (t) => void process.stderr.write(t) });
  } finally {
    if (saved === undefined) delete process.env.DATABASE_URL;
    else process.env.DATABASE_URL = saved;
  }
}
