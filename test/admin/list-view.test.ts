import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { expectJson, type Doc } from '../helpers/project.js';
import { fixture } from '../uploads/helpers.js';
import { adminRequest, fixtureCopy, registerOwner, UNAUTHORIZED } from './helpers.js';

let server: TestServer;
let admin: ReturnType<typeof adminRequest>;
let session: string;

beforeAll(async () => {
  server = await startTestServer({ schemas: await fixtureCopy() });
  session = await registerOwner(server);
  admin = adminRequest(server, session);
});
afterAll(() => server.close());

const VIEW = '/admin/api/content-manager/api::article.article/list-view';
const put = (json: unknown, path = VIEW) => admin(path, { method: 'PUT', json });
const refusal = (message: string, path: string[]) => ({
  data: null,
  error: { status: 400, name: 'ValidationError', message, details: { errors: [{ path, message, name: 'ValidationError' }] } },
});

describe('list view settings', () => {
  it('is null until saved, then kept in the database for every admin session, and reset by DELETE', async () => {
    expect(await expectJson(await admin(VIEW), 200)).toEqual({ data: { uid: 'api::article.article', listView: null } });
    const view = { columns: ['cover', 'title', 'category', 'status', 'locale', 'updatedAt'], pageSize: 50 };
    expect(await expectJson(await put(view), 200)).toEqual({ data: { uid: 'api::article.article', listView: view } });
    // Another session (a new login) reads the same settings.
    const login = await expectJson<{ data: { token: string } }>(
      await server.request('/admin/api/login', { method: 'POST', json: { email: 'owner@example.com', password: 'Secret123' } }),
      200,
    );
    expect(await expectJson(await server.request(VIEW, { token: login.data.token }), 200)).toEqual({ data: { uid: 'api::article.article', listView: view } });
    // pageSize may be left out: the default page size.
    expect(await expectJson(await put({ columns: ['title'] }), 200)).toEqual({ data: { uid: 'api::article.article', listView: { columns: ['title'], pageSize: 20 } } });
    expect(await expectJson(await admin(VIEW, { method: 'DELETE' }), 200)).toEqual({ data: { uid: 'api::article.article', listView: null } });
    expect(await expectJson(await admin(VIEW), 200)).toEqual({ data: { uid: 'api::article.article', listView: null } });
  });

  it.each([
    [{ columns: ['title', 'body'] }, 'body is not a column the list of api::article.article can show', ['columns', '1']],
    [{ columns: ['seo'] }, 'seo is not a column the list of api::article.article can show', ['columns', '0']],
    [{ columns: ['nope'] }, 'nope is not a column the list of api::article.article can show', ['columns', '0']],
    [{ columns: ['title', 'title'] }, 'title is listed twice', ['columns', '1']],
    [{ columns: [] }, 'columns must be a non-empty array of column names', ['columns']],
    [{ columns: 'title' }, 'columns must be a non-empty array of column names', ['columns']],
    [{ columns: ['title'], pageSize: 30 }, 'pageSize must be one of 10, 20, 50, 100', ['pageSize']],
    [{ columns: ['title'], sort: 'x' }, 'Invalid key sort', ['sort']],
  ])('refuses %j, naming the path', async (body, message, path) => {
    expect(await expectJson(await put(body), 400)).toEqual(refusal(message, path));
  });

  it('offers status only with Draft & Publish and locale only on localized types; 404 for single and unknown types; 401 without a session', async () => {
    // Categories have neither Draft & Publish nor i18n in the fixture.
    const categories = '/admin/api/content-manager/api::category.category/list-view';
    expect(await expectJson(await put({ columns: ['name', 'status'] }, categories), 400)).toEqual(refusal('status is not a column the list of api::category.category can show', ['columns', '1']));
    expect(await expectJson(await put({ columns: ['locale'] }, categories), 400)).toEqual(refusal('locale is not a column the list of api::category.category can show', ['columns', '0']));
    expect(await expectJson(await put({ columns: ['name', 'articles', 'createdAt'] }, categories), 200)).toMatchObject({ data: { listView: { columns: ['name', 'articles', 'createdAt'] } } });
    expect((await admin('/admin/api/content-manager/api::homepage.homepage/list-view')).status).toBe(404);
    expect(await expectJson(await admin('/admin/api/content-manager/api::nothing.nothing/list-view'), 404)).toMatchObject({ data: null, error: { status: 404, name: 'NotFoundError' } });
    expect(await expectJson(await server.request(VIEW), 401)).toEqual(UNAUTHORIZED);
  });
});

describe('list populate', () => {
  it('populates a relation by its main field and a media field with its thumbnail', async () => {
    const form = new FormData();
    form.append('files', new Blob([fixture('red-400x300.png')], { type: 'image/png' }), 'red.png');
    const [file] = await expectJson<{ id: number }[]>(await server.request('/api/upload', { method: 'POST', body: form, token: session }), 201);
    const category = (await expectJson<{ data: Doc }>(await admin('/api/categories', { method: 'POST', json: { data: { name: 'Travel' } } }), 201)).data;
    await expectJson(await admin('/api/articles?status=draft', { method: 'POST', json: { data: { title: 'Lisbon', category: category.documentId, cover: file?.id } } }), 201);
    const list = await expectJson<{ data: Doc[] }>(
      await admin('/admin/api/content-manager/api::article.article/documents?populate[category][fields][0]=name&populate[cover]=true'),
      200,
    );
    const [entry] = list.data;
    expect(entry?.category).toEqual({ id: expect.any(Number), documentId: category.documentId, name: 'Travel' });
    expect(entry?.cover).toMatchObject({ name: 'red.png', mime: 'image/png', formats: { thumbnail: { url: expect.stringMatching(/^\/uploads\/thumbnail_/) } } });
    // Without populate the list stays flat.
    const flat = await expectJson<{ data: Doc[] }>(await admin('/admin/api/content-manager/api::article.article/documents'), 200);
    expect(flat.data[0]?.category).toBeUndefined();
  });
});
