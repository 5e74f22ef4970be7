import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { collection, dataOf, expectJson, listOf, writeProject } from '../helpers/project.js';

let server: TestServer;
let token: string;

beforeAll(async () => {
  const schemas = await writeProject({
    types: {
      post: collection('post', 'posts', { title: { type: 'string', required: true }, body: { type: 'text' } }, { draftAndPublish: true }),
    },
  });
  server = await startTestServer({ schemas });
  token = await server.token('full-access');
});
afterAll(() => server.close());

const create = (data: unknown, query = '') => server.request(`/api/posts${query}`, { method: 'POST', token, json: { data } });
const update = (id: string, data: unknown, query = '') => server.request(`/api/posts/${id}${query}`, { method: 'PUT', token, json: { data } });
const get = (path: string) => server.request(path, { token });

describe('draft & publish', () => {
  it('publishes on create, then keeps draft edits out of the published version until republished', async () => {
    const created = await dataOf(await create({ title: 'v1' }), 201);
    expect(created.publishedAt).not.toBeNull();
    const id = created.documentId;

    const draft = await dataOf(await update(id, { title: 'v2 draft' }, '?status=draft'));
    expect(draft).toMatchObject({ title: 'v2 draft', publishedAt: null });

    expect(await dataOf(await get(`/api/posts/${id}`))).toMatchObject({ title: 'v1' });
    expect(await dataOf(await get(`/api/posts/${id}?status=draft`))).toMatchObject({ title: 'v2 draft', publishedAt: null });

    const modified = await listOf(await get('/api/posts?status=draft&publicationFilter=modified&fields[0]=title'));
    expect(modified.map((d) => d.documentId)).toEqual([id]);

    const republished = await dataOf(await update(id, {}));
    expect(republished).toMatchObject({ title: 'v2 draft' });
    expect(await dataOf(await get(`/api/posts/${id}`))).toMatchObject({ title: 'v2 draft' });
    expect(await listOf(await get('/api/posts?status=draft&publicationFilter=modified'))).toEqual([]);
  });

  it('a draft-only document is 404 by default and visible with status=draft', async () => {
    const draft = await dataOf(await create({ title: 'hidden' }, '?status=draft'), 201);
    expect(draft.publishedAt).toBeNull();
    await expectJson(await get(`/api/posts/${draft.documentId}`), 404);
    expect(await dataOf(await get(`/api/posts/${draft.documentId}?status=draft`))).toMatchObject({ title: 'hidden' });
  });

  it('ignores publishedAt in bodies', async () => {
    const draft = await dataOf(await create({ title: 'x', publishedAt: '2020-01-01T00:00:00.000Z' }, '?status=draft'), 201);
    expect(draft.publishedAt).toBeNull();
  });

  it('drafts skip required checks; publishing validates the whole draft and rolls back on failure', async () => {
    const draft = await dataOf(await create({ body: 'no title' }, '?status=draft'), 201);
    const res = await update(draft.documentId, { body: 'still no title' });
    const error = await expectJson<{ error: { message: string } }>(res, 400);
    expect(error.error.message).toBe('title must be a `string` type, but the final value was: `null`.');
    expect(await dataOf(await get(`/api/posts/${draft.documentId}?status=draft`))).toMatchObject({ body: 'no title' });
    await expectJson(await get(`/api/posts/${draft.documentId}`), 404);
  });

  it('rejects an unknown status with Strapi message', async () => {
    const body = await expectJson(await get('/api/posts?status=live'), 400);
    expect(body).toEqual({
      data: null,
      error: { status: 400, name: 'ValidationError', message: "Invalid parameter at 'status'. Expected 'published' or 'draft', received: live", details: {} },
    });
  });

  it('refuses to delete a draft (Strapi answers 500 here)', async () => {
    const doc = await dataOf(await create({ title: 'del' }), 201);
    const body = await expectJson<{ error: { message: string } }>(await server.request(`/api/posts/${doc.documentId}?status=draft`, { method: 'DELETE', token }), 400);
    expect(body.error.message).toBe('Cannot delete a draft document');
    await expectJson(await server.request(`/api/posts/${doc.documentId}`, { method: 'DELETE', token }), 204);
    await expectJson(await get(`/api/posts/${doc.documentId}?status=draft`), 404);
  });
});

describe('publicationFilter', () => {
  it('selects documents by how their draft and published versions relate', async () => {
    const local = await startTestServer({
      schemas: await writeProject({ types: { note: collection('note', 'notes', { title: { type: 'string' } }, { draftAndPublish: true }) } }),
    });
    const t = await local.token('full-access');
    const req = (path: string, init: Parameters<TestServer['request']>[1] = {}) => local.request(path, { token: t, ...init });
    const neverPublished = await dataOf(await req('/api/notes?status=draft', { method: 'POST', json: { data: { title: 'never' } } }), 201);
    const unmodified = await dataOf(await req('/api/notes', { method: 'POST', json: { data: { title: 'same' } } }), 201);
    const modified = await dataOf(await req('/api/notes', { method: 'POST', json: { data: { title: 'old' } } }), 201);
    await new Promise((r) => setTimeout(r, 5));
    await dataOf(await req(`/api/notes/${modified.documentId}?status=draft`, { method: 'PUT', json: { data: { title: 'new' } } }));
    const ids = async (query: string) =>
      (await listOf(await req(`/api/notes?${query}&sort=id:asc`))).map((d) => d.documentId);
    expect(await ids('status=draft&publicationFilter=never-published')).toEqual([neverPublished.documentId]);
    expect(await ids('status=draft&publicationFilter=has-published-version')).toEqual([unmodified.documentId, modified.documentId]);
    expect(await ids('status=draft&publicationFilter=modified')).toEqual([modified.documentId]);
    expect(await ids('status=draft&publicationFilter=unmodified')).toEqual([unmodified.documentId]);
    expect(await ids('status=draft&publicationFilter=never-published-document')).toEqual([neverPublished.documentId]);
    expect(await ids('status=draft&publicationFilter=has-published-version-document')).toEqual([unmodified.documentId, modified.documentId]);
    expect(await ids('publicationFilter=published-with-draft')).toEqual([unmodified.documentId, modified.documentId]);
    expect(await ids('publicationFilter=published-without-draft')).toEqual([]);
    expect(await ids('publicationFilter=never-published')).toEqual([]);
    expect(await ids('status=draft&hasPublishedVersion=false')).toEqual([neverPublished.documentId]);
    const bad = await expectJson(await req('/api/notes?publicationFilter=bogus'), 400);
    expect(bad).toMatchObject({ error: { details: { source: 'query', param: 'publicationFilter' } } });
    await local.close();
  });
});
