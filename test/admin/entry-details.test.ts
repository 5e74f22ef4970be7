import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { expectJson, type Doc } from '../helpers/project.js';
import { adminRequest, fixtureCopy, OWNER, registerOwner } from './helpers.js';

let clock = Date.UTC(2026, 5, 1, 8, 0, 0);
let server: TestServer;
let admin: ReturnType<typeof adminRequest>;
let session: string;
let ownerId: number;

beforeAll(async () => {
  server = await startTestServer({ schemas: await fixtureCopy(), now: () => new Date((clock += 1000)) });
  session = await registerOwner(server);
  admin = adminRequest(server, session);
  ownerId = (await expectJson<{ data: { id: number } }>(await admin('/admin/api/users/me'), 200)).data.id;
});
afterAll(() => server.close());

const CM = (uid: string) => `/admin/api/content-manager/${uid}/documents`;
const OWNER_REF = () => ({ id: ownerId, firstname: OWNER.firstname, lastname: OWNER.lastname });
const write = async (path: string, method: 'POST' | 'PUT', data: unknown, token: string, status = method === 'POST' ? 201 : 200) =>
  (await expectJson<{ data: Doc }>(await server.request(path, { method, token, json: { data } }), status)).data;

describe('who created and changed an entry', () => {
  it('the admin content API names the admin behind writes with a session; other callers leave them as they were', async () => {
    const made = await write('/api/articles?status=draft', 'POST', { title: 'By the owner' }, session);
    const read = async () => (await expectJson<{ data: Record<string, unknown> }>(await admin(`${CM('api::article.article')}/${made.documentId}`), 200)).data;
    const first = await read();
    expect([first.createdBy, first.updatedBy]).toEqual([OWNER_REF(), OWNER_REF()]);

    // An API token's write changes the entry, not who is named as its creator or last admin editor.
    const token = await server.token('full-access');
    await write(`/api/articles/${made.documentId}?status=draft`, 'PUT', { title: 'By a token' }, token);
    const after = await read();
    expect(after.title).toBe('By a token');
    expect([after.createdBy, after.updatedBy]).toEqual([OWNER_REF(), OWNER_REF()]);

    // An entry made by a token has no admin creator.
    const byToken = await write('/api/articles?status=draft', 'POST', { title: 'Token made' }, token);
    const tokenEntry = (await expectJson<{ data: Record<string, unknown> }>(await admin(`${CM('api::article.article')}/${byToken.documentId}`), 200)).data;
    expect([tokenEntry.createdBy, tokenEntry.updatedBy]).toEqual([null, null]);
    await write(`/api/articles/${byToken.documentId}?status=draft`, 'PUT', { title: 'Owner edited' }, session);
    const edited = (await expectJson<{ data: Record<string, unknown> }>(await admin(`${CM('api::article.article')}/${byToken.documentId}`), 200)).data;
    expect([edited.createdBy, edited.updatedBy]).toEqual([null, OWNER_REF()]);
  });

  it('publishing keeps them on the published version; a new locale is created by its writer', async () => {
    await expectJson(await admin('/admin/api/i18n/locales', { method: 'POST', json: { code: 'fr' } }), 201);
    const made = await write('/api/articles?status=draft', 'POST', { title: 'To publish' }, session);
    const published = (await expectJson<{ data: Record<string, unknown> }>(await admin(`${CM('api::article.article')}/${made.documentId}/actions/publish`, { method: 'POST' }), 200)).data;
    expect([published.status, published.createdBy, published.updatedBy]).toEqual(['published', OWNER_REF(), OWNER_REF()]);
    await write(`/api/articles/${made.documentId}?status=draft&locale=fr`, 'PUT', { title: 'À publier' }, session);
    const french = (await expectJson<{ data: Record<string, unknown> }>(await admin(`${CM('api::article.article')}/${made.documentId}?locale=fr`), 200)).data;
    expect([french.createdBy, french.updatedBy]).toEqual([OWNER_REF(), OWNER_REF()]);
    expect(french.localizations).toEqual([
      { locale: 'en', status: 'published' },
      { locale: 'fr', status: 'draft' },
    ]);
  });

  it('the content API never shows them, with any token, populate or status', async () => {
    const made = await write('/api/articles', 'POST', { title: 'Public' }, session);
    for (const path of [`/api/articles/${made.documentId}`, `/api/articles/${made.documentId}?populate=*`, `/api/articles?status=draft`, '/api/articles?populate=*']) {
      const body = await expectJson<{ data: unknown }>(await server.request(path, { token: session }), 200);
      const text = JSON.stringify(body);
      expect(text).not.toContain('createdBy');
      expect(text).not.toContain('updatedBy');
    }
  });
});

describe('the content API and the creator fields', () => {
  it('refuses createdBy/updatedBy in queries and bodies as Strapi does (Invalid key), now that rows store them', async () => {
    const token = await server.token('full-access');
    for (const [query, param] of [
      ['filters[createdBy][id][$eq]=1', 'filters'],
      ['sort=updatedBy:asc', 'sort'],
      ['fields[0]=createdBy', 'fields'],
      ['populate=updatedBy', 'populate'],
    ] as const) {
      const key = query.includes('createdBy') ? 'createdBy' : 'updatedBy';
      const body = await expectJson(await server.request(`/api/articles?${query}`, { token }), 400);
      expect(body).toEqual({ data: null, error: { status: 400, name: 'ValidationError', message: `Invalid key ${key}`, details: { key, path: key, source: 'query', param } } });
    }
    const write = await expectJson(await server.request('/api/articles', { method: 'POST', token, json: { data: { title: 'Forged', createdBy: 1 } } }), 400);
    expect(write).toEqual({ data: null, error: { status: 400, name: 'ValidationError', message: 'Invalid key createdBy', details: { key: 'createdBy', path: 'createdBy', source: 'body' } } });
  });
});

describe('the status of related entries', () => {
  it('each related entry of the admin entry carries draft, published or modified', async () => {
    const token = await server.token('full-access');
    const draft = await write('/api/tags?status=draft', 'POST', { label: 'draft-tag' }, token);
    const published = await write('/api/tags', 'POST', { label: 'published-tag' }, token);
    const modified = await write('/api/tags', 'POST', { label: 'modified-tag' }, token);
    await write(`/api/tags/${modified.documentId}?status=draft`, 'PUT', { label: 'modified-tag, changed' }, token);
    const article = await write(
      '/api/articles?status=draft',
      'POST',
      { title: 'Tagged', tags: [draft.documentId, published.documentId, modified.documentId] },
      session,
    );
    const entry = (await expectJson<{ data: { tags: { label: string; status: string }[] } }>(await admin(`${CM('api::article.article')}/${article.documentId}`), 200)).data;
    expect(entry.tags.map((t) => [t.label, t.status])).toEqual([
      ['draft-tag', 'draft'],
      ['published-tag', 'published'],
      ['modified-tag, changed', 'modified'],
    ]);
    // The content API's populate stays as Strapi answers it: no status.
    const rest = await expectJson<{ data: { tags: Record<string, unknown>[] } }>(await server.request(`/api/articles/${article.documentId}?status=draft&populate=tags`, { token }), 200);
    expect(rest.data.tags.every((t) => !('status' in t))).toBe(true);
  });
});
