import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { collection, dataOf, expectJson, writeProject } from '../helpers/project.js';

let server: TestServer;
let clock = Date.UTC(2026, 0, 1);
const DAY = 24 * 60 * 60 * 1000;

beforeAll(async () => {
  const schemas = await writeProject({
    types: {
      post: collection('post', 'posts', { title: { type: 'string' }, author: { type: 'relation', relation: 'manyToOne', target: 'api::person.person' } }),
      person: collection('person', 'people', { name: { type: 'string' } }),
    },
  });
  server = await startTestServer({ schemas, now: () => new Date(clock) });
});
afterAll(() => server.close());

const FORBIDDEN = { data: null, error: { status: 403, name: 'ForbiddenError', message: 'Forbidden', details: {} } };
const INVALID = { data: null, error: { status: 401, name: 'UnauthorizedError', message: 'Missing or invalid credentials', details: {} } };

describe('API tokens and the public role', () => {
  it('with no Authorization header and no public permission: 403', async () => {
    expect(await expectJson(await server.request('/api/posts'), 403)).toEqual(FORBIDDEN);
  });

  it('an unknown token, a malformed header or another scheme: 401, even on public routes', async () => {
    await server.server.services.permissions.grant('public', ['api::person.person.find']);
    expect(await expectJson(await server.request('/api/people', { headers: { Authorization: 'Bearer nope' } }), 401)).toEqual(INVALID);
    expect(await expectJson(await server.request('/api/people', { headers: { Authorization: 'Basic dXNlcjpwYXNz' } }), 401)).toEqual(INVALID);
    expect(await expectJson(await server.request('/api/people', { headers: { Authorization: 'Bearer a b' } }), 401)).toEqual(INVALID);
    await expectJson(await server.request('/api/people'), 200);
  });

  it('read-only tokens read and are refused writes with 403', async () => {
    const token = await server.token('read-only');
    await expectJson(await server.request('/api/posts', { token }), 200);
    expect(await expectJson(await server.request('/api/posts', { method: 'POST', token, json: { data: { title: 'x' } } }), 403)).toEqual(FORBIDDEN);
  });

  it('custom tokens may do exactly their listed actions', async () => {
    const token = await server.token('custom', ['api::post.post.create', 'api::post.post.findOne']);
    const created = await dataOf(await server.request('/api/posts', { method: 'POST', token, json: { data: { title: 'mine' } } }), 201);
    await expectJson(await server.request(`/api/posts/${created.documentId}`, { token }), 200);
    expect(await expectJson(await server.request('/api/posts', { token }), 403)).toEqual(FORBIDDEN);
    expect(await expectJson(await server.request(`/api/posts/${created.documentId}`, { method: 'DELETE', token }), 403)).toEqual(FORBIDDEN);
  });

  it('expired tokens: 401 Token expired', async () => {
    const { accessKey } = await server.server.services.tokens.create({ name: 'week', type: 'full-access', lifespanDays: 7 });
    await expectJson(await server.request('/api/posts', { token: accessKey }), 200);
    clock += 8 * DAY;
    expect(await expectJson(await server.request('/api/posts', { token: accessKey }), 401)).toEqual({
      data: null,
      error: { status: 401, name: 'UnauthorizedError', message: 'Token expired', details: {} },
    });
  });

  it('a revoked token stops working at once', async () => {
    const { token, accessKey } = await server.server.services.tokens.create({ name: 'revoked', type: 'full-access' });
    await expectJson(await server.request('/api/posts', { token: accessKey }), 200);
    await server.server.services.tokens.revoke(token.id);
    expect(await expectJson(await server.request('/api/posts', { token: accessKey }), 401)).toEqual(INVALID);
  });

  it('stores tokens only as keyed hashes', async () => {
    const { accessKey } = await server.server.services.tokens.create({ name: 'hashed', type: 'read-only' });
    const rows = await server.server.services.database.db.selectFrom('hearth_api_tokens').selectAll().execute();
    expect(JSON.stringify(rows)).not.toContain(accessKey);
    expect(rows.every((r) => /^[0-9a-f]{128}$/.test(String(r.access_key_hash)))).toBe(true);
  });
});

describe('relations the caller may not find', () => {
  it('are left out of populate=* and refused in an explicit populate, filter or body', async () => {
    const admin = await server.token('full-access');
    const person = await dataOf(await server.request('/api/people', { method: 'POST', token: admin, json: { data: { name: 'Ann' } } }), 201);
    await dataOf(await server.request('/api/posts', { method: 'POST', token: admin, json: { data: { title: 'with author', author: person.documentId } } }), 201);
    const token = await server.token('custom', ['api::post.post.find', 'api::post.post.create']);
    const star = await expectJson<{ data: Record<string, unknown>[] }>(await server.request('/api/posts?populate=*', { token }), 200);
    expect(star.data.every((d) => !('author' in d))).toBe(true);
    expect(await expectJson(await server.request('/api/posts?populate=author', { token }), 400)).toMatchObject({ error: { message: 'Invalid key author', details: { param: 'populate' } } });
    expect(await expectJson(await server.request('/api/posts?filters[author][name]=Ann', { token }), 400)).toMatchObject({ error: { message: 'Invalid key author', details: { param: 'filters' } } });
    expect(await expectJson(await server.request('/api/posts', { method: 'POST', token, json: { data: { author: person.documentId } } }), 400)).toMatchObject({
      error: { message: 'Invalid key author', details: { key: 'author', path: 'author', source: 'body' } },
    });
    const reader = await server.token('custom', ['api::post.post.find', 'api::person.person.find']);
    const allowed = await expectJson<{ data: Record<string, unknown>[] }>(await server.request('/api/posts?populate=author&filters[title]=with author', { token: reader }), 200);
    expect(allowed.data[0]?.author).toMatchObject({ name: 'Ann' });
  });
});

describe('DNS-rebinding defence', () => {
  it('refuses a Host that is not a loopback name', async () => {
    const { request } = await import('node:http');
    const url = new URL(server.url);
    const status = await new Promise<{ code: number; body: string }>((resolve, reject) => {
      const req = request({ host: url.hostname, port: url.port, path: '/_health', headers: { Host: 'evil.example' } }, (res) => {
        let body = '';
        res.on('data', (d: Buffer) => (body += d.toString()));
        res.on('end', () => resolve({ code: res.statusCode ?? 0, body }));
      });
      req.on('error', reject);
      req.end();
    });
    expect(status.code).toBe(403);
    expect(JSON.parse(status.body)).toEqual({ data: null, error: { status: 403, name: 'ForbiddenError', message: 'Host not allowed', details: { host: 'evil.example' } } });
  });
});
