import Database from 'better-sqlite3';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgres } from '../../server/db/postgres.js';
import { onPostgres } from '../helpers/database.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { expectJson } from '../helpers/project.js';
import { adminRequest, fixtureCopy, registerOwner } from '../admin/helpers.js';
import { fixturePart, postUpload } from '../uploads/helpers.js';

/**
 * The content API caches serialised GET answers. These tests prove the cache is used (a repeated
 * read runs no SQL on SQLite; on PostgreSQL only the change stamp's read, db/pg-change.ts) and
 * that every kind of write, through any API or from another process, is seen by the very next read.
 */

let server: TestServer;
let full: string;
let admin: ReturnType<typeof adminRequest>;

type Doc = { id: number; documentId: string; title: string; [key: string]: unknown };
const queries = () => server.server.services.database.queryCount();

async function read(path: string, token: string | null = full): Promise<{ data: Doc | Doc[] }> {
  return expectJson(await server.request(path, token === null ? {} : { token }), 200);
}

/**
 * Statements a hit may cost: SQLite none beyond authentication; PostgreSQL the change stamp's
 * read, which also keys the caller memo (no token lookup besides).
 */
const HIT_STATEMENTS = () => 1;

/** Reads twice; the second read must be answered from the cache (no SQL beyond authentication and the stamp). */
async function readTwice(path: string, token: string | null = full): Promise<{ data: Doc | Doc[] }> {
  const first = await read(path, token);
  const before = queries();
  const second = await read(path, token);
  expect(queries() - before).toBeLessThanOrEqual(HIT_STATEMENTS());
  expect(server.server.services.responses.size().entries).toBeGreaterThan(0);
  expect(second).toEqual(first);
  return second;
}

/**
 * Writes as another process would: a second connection to the same database. On PostgreSQL,
 * another Hearth process (the database opened again, as a CLI command or a second server does):
 * a write outside a transaction, which bumps the change stamp in a transaction of its own.
 */
async function writeElsewhere(title: string, documentId: string): Promise<void> {
  const url = server.server.services.config.databaseUrl;
  if (url !== null) {
    const other = openPostgres(url);
    try {
      await other.db.updateTable('articles').set({ title }).where('documentId', '=', documentId).execute();
    } finally {
      await other.close();
    }
    return;
  }
  const other = new Database(join(server.dataDir, 'hearth.db'));
  try {
    other.pragma('busy_timeout = 5000');
    other.prepare('UPDATE articles SET title = ? WHERE documentId = ?').run(title, documentId);
  } finally {
    other.close();
  }
}

async function create(title: string, status = ''): Promise<Doc> {
  const res = await server.request(`/api/articles${status}`, { method: 'POST', token: full, json: { data: { title } } });
  return (await expectJson<{ data: Doc }>(res, 201)).data;
}

const titles = (body: { data: Doc | Doc[] }) => (Array.isArray(body.data) ? body.data : [body.data]).map((d) => d.title);

beforeAll(async () => {
  // A copy: the builder test below writes schema files into the server's schemas folder.
  server = await startTestServer({ schemas: await fixtureCopy() });
  full = await server.token('full-access');
  admin = adminRequest(server, await registerOwner(server));
});
afterAll(() => server.close());

describe('the content API response cache', () => {
  it('answers a repeated read from the cache, per caller permission set', async () => {
    await create('cached one');
    const reader = await server.token('custom', ['api::article.article.find']);
    await read('/api/articles?sort=title', reader); // a token's first use records lastUsedAt: a write
    await readTwice('/api/articles?sort=title');
    await readTwice('/api/articles?sort=title', reader);
    expect(server.server.services.responses.size().entries).toBeGreaterThanOrEqual(2);
  });

  it('sees creates, updates, deletes, publishing and unpublishing at once', async () => {
    const list = '/api/articles?sort=title&fields[0]=title';
    const doc = await create('alpha');
    expect(titles(await readTwice(list))).toContain('alpha');
    await expectJson(await server.request(`/api/articles/${doc.documentId}`, { method: 'PUT', token: full, json: { data: { title: 'alpha 2' } } }), 200);
    expect(titles(await readTwice(list))).toContain('alpha 2');
    await expectJson(await admin(`/admin/api/content-manager/api::article.article/documents/${doc.documentId}/actions/unpublish?locale=en`, { method: 'POST' }), 200);
    expect(titles(await readTwice(list))).not.toContain('alpha 2');
    await expectJson(await admin(`/admin/api/content-manager/api::article.article/documents/${doc.documentId}/actions/publish?locale=en`, { method: 'POST' }), 200);
    expect(titles(await readTwice(list))).toContain('alpha 2');
    expect((await server.request(`/api/articles/${doc.documentId}`, { method: 'DELETE', token: full })).status).toBe(204);
    expect(titles(await readTwice(list))).not.toContain('alpha 2');
  });

  it('sees a file linked through the upload API', async () => {
    const doc = await create('with cover', '?status=draft');
    const path = `/api/articles/${doc.documentId}?status=draft&populate[0]=cover`;
    expect((await readTwice(path)).data).toMatchObject({ cover: null });
    const link = [
      { name: 'ref', value: 'api::article.article' },
      { name: 'refId', value: String(doc.id) },
      { name: 'field', value: 'cover' },
    ];
    await expectJson(await postUpload(server, full, [fixturePart('blue-64x48.jpg'), ...link]), 201);
    expect((await readTwice(path)).data).toMatchObject({ cover: { name: 'blue-64x48.jpg' } });
  });

  it('sees permission changes that decide what populate may include', async () => {
    await server.server.services.permissions.grant('public', ['api::article.article.find', 'api::category.category.find']);
    const category = await expectJson<{ data: Doc }>(
      await server.request('/api/categories', { method: 'POST', token: full, json: { data: { name: 'Cakes' } } }),
      201,
    );
    const doc = await create('categorised');
    await expectJson(
      await server.request(`/api/articles/${doc.documentId}`, { method: 'PUT', token: full, json: { data: { category: category.data.documentId } } }),
      200,
    );
    const path = '/api/articles?filters[title][$eq]=categorised&populate=*';
    expect(((await readTwice(path, null)).data as Doc[])[0]).toHaveProperty('category');
    await server.server.services.permissions.revoke('public', ['api::category.category.find']);
    expect(((await readTwice(path, null)).data as Doc[])[0]).not.toHaveProperty('category');
  });

  it('sees a schema change made through the content-type builder', async () => {
    await create('schema change');
    const path = '/api/articles?filters[title][$eq]=schema change';
    expect(((await readTwice(path)).data as Doc[])[0]).toHaveProperty('views');
    const current = await expectJson<{ data: { schema: { attributes: Record<string, Record<string, unknown>> } } }>(
      await admin('/admin/api/content-types/api::article.article'),
      200,
    );
    const schema = current.data.schema;
    schema.attributes.views = { ...schema.attributes.views, private: true };
    await expectJson(await admin('/admin/api/content-types/api::article.article', { method: 'PUT', json: { contentType: schema } }), 200);
    expect(((await readTwice(path)).data as Doc[])[0]).not.toHaveProperty('views');
  });

  it('sees a write committed by another process on the same database', async () => {
    const doc = await create('outside');
    const path = `/api/articles/${doc.documentId}?fields[0]=title`;
    expect(titles(await readTwice(path))).toEqual(['outside']);
    await writeElsewhere('changed elsewhere', doc.documentId);
    expect(titles(await readTwice(path))).toEqual(['changed elsewhere']);
  });
});

/** Status, headers (all but Date) and bytes of one GET. */
async function exchange(target: TestServer, path: string, headers: Record<string, string>): Promise<{ status: number; headers: [string, string][]; bytes: string }> {
  const res = await target.request(path, { headers });
  return { status: res.status, headers: [...res.headers].filter(([name]) => name !== 'date'), bytes: Buffer.from(await res.arrayBuffer()).toString('base64') };
}

describe('answers from the cache', () => {
  it('carry the status, headers and bytes of the computed answer, CORS headers included', async () => {
    await create('headers alike');
    const variants: Record<string, string>[] = [{ Authorization: `Bearer ${full}` }, { Authorization: `Bearer ${full}`, Origin: 'http://localhost:5173' }, { Authorization: `Bearer ${full}`, 'Strapi-Response-Format': 'v4' }];
    for (const headers of variants) {
      const path = `/api/articles?sort=title&fields[0]=title&pagination[pageSize]=${10 + variants.indexOf(headers)}`;
      const computed = await exchange(server, path, headers);
      const before = queries();
      const cached = await exchange(server, path, headers);
      // SQLite: none (the caller is memoised); PostgreSQL: the stamp's read (the caller memoised under it).
      expect(queries() - before).toBeLessThanOrEqual(onPostgres() ? 1 : 0);
      expect(cached).toEqual(computed);
      expect(computed.status).toBe(200);
    }
  });

  it('follow HEARTH_CORS_ORIGINS: Vary always, the origin echoed only when listed', async () => {
    const listed = await startTestServer({ env: { HEARTH_CORS_ORIGINS: 'http://localhost:3000' } });
    try {
      const token = await listed.token('full-access');
      for (const origin of ['http://localhost:3000', 'http://evil.example', undefined]) {
        const headers: Record<string, string> = { Authorization: `Bearer ${token}`, ...(origin === undefined ? {} : { Origin: origin }) };
        const computed = await exchange(listed, '/api/articles', headers);
        const cached = await exchange(listed, '/api/articles', headers);
        expect(cached).toEqual(computed);
        const names = new Map(cached.headers);
        expect(names.get('vary')).toBe('Origin');
        expect(names.get('access-control-allow-origin')).toBe(origin === 'http://localhost:3000' ? origin : undefined);
      }
    } finally {
      await listed.close();
    }
  });

  it('are never given to a token revoked after they were cached', async () => {
    const created = await expectJson<{ data: { id: number; accessKey: string } }>(
      await admin('/admin/api/api-tokens', { method: 'POST', json: { name: 'soon revoked', type: 'read-only' } }),
      201,
    );
    const token = created.data.accessKey;
    await read('/api/articles?sort=title', token); // records lastUsedAt
    await readTwice('/api/articles?sort=title', token);
    await expectJson(await admin(`/admin/api/api-tokens/${created.data.id}`, { method: 'DELETE' }), 200);
    expect((await server.request('/api/articles?sort=title', { token })).status).toBe(401);
  });

  it('are never given to a request from a host the DNS-rebinding check refuses', async () => {
    await readTwice('/api/articles?sort=title');
    const url = new URL(server.url);
    const status = await new Promise<number | undefined>((resolve, reject) => {
      const req = httpRequest({ host: url.hostname, port: url.port, path: '/api/articles?sort=title', headers: { Host: 'evil.example', Authorization: `Bearer ${full}` } }, (res) => {
        res.resume();
        resolve(res.statusCode);
      });
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(403);
  });
});

describe('with HEARTH_RESPONSE_CACHE=false', () => {
  it('computes every answer', async () => {
    const uncached = await startTestServer({ env: { HEARTH_RESPONSE_CACHE: 'false' } });
    try {
      const token = await uncached.token('full-access');
      await uncached.request('/api/articles', { token });
      const before = uncached.server.services.database.queryCount();
      await uncached.request('/api/articles', { token });
      expect(uncached.server.services.database.queryCount() - before).toBeGreaterThan(1);
      expect(uncached.server.services.responses.size().entries).toBe(0);
    } finally {
      await uncached.close();
    }
  });
});
