import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { expectJson, type Doc } from '../helpers/project.js';
import { adminRequest, fixtureCopy, registerOwner } from './helpers.js';

let clock = Date.UTC(2026, 4, 1, 8, 0, 0);
let server: TestServer;
let admin: ReturnType<typeof adminRequest>;
let session: string;

type Entry = Doc & { status: string; localizations?: { locale: string; status: string }[] };

beforeAll(async () => {
  server = await startTestServer({ schemas: await fixtureCopy(), now: () => new Date((clock += 1000)) });
  session = await registerOwner(server);
  admin = adminRequest(server, session);
  await expectJson(await admin('/admin/api/i18n/locales', { method: 'POST', json: { code: 'fr' } }), 201);
});
afterAll(() => server.close());

const api = (path: string, init: RequestInit & { json?: unknown } = {}) => server.request(path, { ...init, token: session });
const CM = '/admin/api/content-manager/api::article.article/documents';
const entry = async (res: Response) => (await expectJson<{ data: Entry }>(res, 200)).data;
const draft = async (title: string) => (await expectJson<{ data: Doc }>(await api('/api/articles?status=draft', { method: 'POST', json: { data: { title } } }), 201)).data;

describe('statuses', () => {
  it('lists drafts with their status across locales', async () => {
    const a = await draft('Draft only');
    const b = await draft('Published');
    await entry(await admin(`${CM}/${b.documentId}/actions/publish`, { method: 'POST' }));
    const c = await draft('Modified');
    await entry(await admin(`${CM}/${c.documentId}/actions/publish`, { method: 'POST' }));
    await expectJson(await api(`/api/articles/${c.documentId}?status=draft`, { method: 'PUT', json: { data: { title: 'Modified again' } } }), 200);
    await expectJson(await api(`/api/articles/${c.documentId}?status=draft&locale=fr`, { method: 'PUT', json: { data: { title: 'Modifié' } } }), 200);

    const list = await expectJson<{ data: Entry[]; meta: unknown }>(await admin(`${CM}?sort=title:asc`), 200);
    expect(list.meta).toEqual({ pagination: { page: 1, pageSize: 10, pageCount: 1, total: 3 } });
    expect(list.data.map((e) => [e.title, e.status, e.publishedAt, e.localizations])).toEqual([
      ['Draft only', 'draft', null, [{ locale: 'en', status: 'draft' }]],
      ['Modified again', 'modified', null, [{ locale: 'en', status: 'modified' }, { locale: 'fr', status: 'draft' }]],
      ['Published', 'published', null, [{ locale: 'en', status: 'published' }]],
    ]);
    expect(list.data[0]?.documentId).toBe(a.documentId);
    const french = await expectJson<{ data: Entry[] }>(await admin(`${CM}?locale=fr`), 200);
    expect(french.data.map((e) => [e.title, e.status])).toEqual([['Modifié', 'draft']]);
    const page = await expectJson<{ data: Entry[]; meta: unknown }>(await admin(`${CM}?sort=title:asc&page=2&pageSize=2&_q=D`), 200);
    expect(page.meta).toEqual({ pagination: { page: 2, pageSize: 2, pageCount: 2, total: 3 } });
    expect(page.data.map((e) => e.title)).toEqual(['Published']);
    expect((await admin('/admin/api/content-manager/api::nothing.nothing/documents')).status).toBe(404);
  });
});

describe('actions', () => {
  it('publish, then unpublish keeps the draft and hides the document from the content API', async () => {
    const doc = await draft('To publish');
    const published = await entry(await admin(`${CM}/${doc.documentId}/actions/publish`, { method: 'POST' }));
    expect(published).toMatchObject({ documentId: doc.documentId, title: 'To publish', status: 'published', publishedAt: null });
    await expectJson(await server.request(`/api/articles/${doc.documentId}`, { token: await server.token('read-only') }), 200);

    const unpublished = await entry(await admin(`${CM}/${doc.documentId}/actions/unpublish`, { method: 'POST' }));
    expect(unpublished).toMatchObject({ documentId: doc.documentId, title: 'To publish', status: 'draft' });
    expect((await api(`/api/articles/${doc.documentId}`)).status).toBe(404);
    await expectJson(await api(`/api/articles/${doc.documentId}?status=draft`), 200);
  });

  it('publishing validates the draft in full', async () => {
    const doc = await draft('Valid');
    await expectJson(await api(`/api/articles/${doc.documentId}?status=draft`, { method: 'PUT', json: { data: { title: null } } }), 200);
    const refused = await expectJson<{ error: { name: string } }>(await admin(`${CM}/${doc.documentId}/actions/publish`, { method: 'POST' }), 400);
    expect(refused.error.name).toBe('ValidationError');
  });

  it('discard resets the draft to the published version, components included', async () => {
    const doc = await draft('Original');
    await expectJson(await api(`/api/articles/${doc.documentId}?status=draft`, { method: 'PUT', json: { data: { seo: { metaTitle: 'Original SEO' } } } }), 200);
    await entry(await admin(`${CM}/${doc.documentId}/actions/publish`, { method: 'POST' }));
    await expectJson(await api(`/api/articles/${doc.documentId}?status=draft`, { method: 'PUT', json: { data: { title: 'Rewritten', seo: { metaTitle: 'New SEO' } } } }), 200);
    expect((await entry(await admin(`${CM}/${doc.documentId}`))).status).toBe('modified');

    const discarded = await entry(await admin(`${CM}/${doc.documentId}/actions/discard`, { method: 'POST' }));
    expect(discarded).toMatchObject({ title: 'Original', status: 'published', seo: { metaTitle: 'Original SEO' } });
    const neverPublished = await draft('Never');
    expect(await expectJson(await admin(`${CM}/${neverPublished.documentId}/actions/discard`, { method: 'POST' }), 400)).toEqual({
      data: null,
      error: { status: 400, name: 'ApplicationError', message: 'This document was never published: there is no published version to go back to', details: {} },
    });
    expect((await admin(`${CM}/nosuchdocument/actions/discard`, { method: 'POST' })).status).toBe(404);
    expect((await admin(`${CM}/${doc.documentId}/actions/explode`, { method: 'POST' })).status).toBe(404);
  });

  it('deletes one locale, then the whole document', async () => {
    const doc = await draft('Both languages');
    await expectJson(await api(`/api/articles/${doc.documentId}?status=draft&locale=fr`, { method: 'PUT', json: { data: { title: 'Deux langues' } } }), 200);
    await entry(await admin(`${CM}/${doc.documentId}/actions/publish?locale=fr`, { method: 'POST' }));
    expect((await entry(await admin(`${CM}/${doc.documentId}?locale=fr`))).localizations).toEqual([
      { locale: 'en', status: 'draft' },
      { locale: 'fr', status: 'published' },
    ]);
    expect(await expectJson(await admin(`${CM}/${doc.documentId}?locale=fr`, { method: 'DELETE' }), 200)).toEqual({ data: { documentId: doc.documentId, locale: 'fr' } });
    expect((await admin(`${CM}/${doc.documentId}?locale=fr`)).status).toBe(404);
    expect((await entry(await admin(`${CM}/${doc.documentId}`))).localizations).toEqual([{ locale: 'en', status: 'draft' }]);
    expect(await expectJson(await admin(`${CM}/${doc.documentId}`, { method: 'DELETE' }), 200)).toEqual({ data: { documentId: doc.documentId, locale: null } });
    expect((await admin(`${CM}/${doc.documentId}`)).status).toBe(404);
    expect((await admin(`${CM}/${doc.documentId}`, { method: 'DELETE' })).status).toBe(404);
  });

  it('types without draft & publish are always published and refuse publishing actions', async () => {
    const category = (await expectJson<{ data: Doc }>(await api('/api/categories', { method: 'POST', json: { data: { name: 'Science' } } }), 201)).data;
    const list = await expectJson<{ data: Entry[] }>(await admin('/admin/api/content-manager/api::category.category/documents'), 200);
    expect(list.data.map((e) => [e.name, e.status, e.localizations])).toEqual([['Science', 'published', undefined]]);
    expect(await expectJson(await admin(`/admin/api/content-manager/api::category.category/documents/${category.documentId}/actions/publish`, { method: 'POST' }), 400)).toEqual({
      data: null,
      error: { status: 400, name: 'ApplicationError', message: 'api::category.category does not use draft & publish', details: {} },
    });
  });
});
