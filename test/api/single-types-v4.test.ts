import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { collection, dataOf, expectJson, writeProject } from '../helpers/project.js';

let server: TestServer;
let token: string;

beforeAll(async () => {
  const schemas = await writeProject({
    types: {
      settings: collection('settings', 'settingses', { siteName: { type: 'string', pluginOptions: { i18n: { localized: true } } } }, { kind: 'singleType', draftAndPublish: true, localized: true }),
      article: collection('article', 'articles', {
        title: { type: 'string' },
        category: { type: 'relation', relation: 'manyToOne', target: 'api::category.category', inversedBy: 'articles' },
        seo: { type: 'component', component: 'shared.seo' },
        blocks: { type: 'dynamiczone', components: ['shared.quote'] },
      }),
      category: collection('category', 'categories', {
        name: { type: 'string' },
        articles: { type: 'relation', relation: 'oneToMany', target: 'api::article.article', mappedBy: 'category' },
      }),
    },
    components: {
      'shared.seo': { attributes: { metaTitle: { type: 'string' } } },
      'shared.quote': { attributes: { text: { type: 'text' } } },
    },
  });
  server = await startTestServer({ schemas });
  await server.server.services.locales.add({ code: 'fr' });
  token = await server.token('full-access');
});
afterAll(() => server.close());

const req = (path: string, init: Parameters<TestServer['request']>[1] = {}) => server.request(path, { token, ...init });

describe('single types', () => {
  it('PUT creates, drafts stay hidden, locales are separate, DELETE removes one locale', async () => {
    await expectJson(await req('/api/settings'), 404);
    const en = await dataOf(await req('/api/settings', { method: 'PUT', json: { data: { siteName: 'Home' } } }));
    expect(en).toMatchObject({ siteName: 'Home', locale: 'en' });
    await dataOf(await req('/api/settings?status=draft', { method: 'PUT', json: { data: { siteName: 'Home (draft)' } } }));
    expect(await dataOf(await req('/api/settings'))).toMatchObject({ siteName: 'Home' });
    expect(await dataOf(await req('/api/settings?status=draft'))).toMatchObject({ siteName: 'Home (draft)', publishedAt: null });
    const fr = await dataOf(await req('/api/settings?locale=fr', { method: 'PUT', json: { data: { siteName: 'Accueil' } } }));
    expect(fr).toMatchObject({ documentId: en.documentId, locale: 'fr', siteName: 'Accueil' });
    await expectJson(await req('/api/settings?locale=fr', { method: 'DELETE' }), 204);
    await expectJson(await req('/api/settings?locale=fr'), 404);
    expect(await dataOf(await req('/api/settings'))).toMatchObject({ siteName: 'Home' });
  });

  it('has no POST and no /:documentId route', async () => {
    const post = await req('/api/settings', { method: 'POST', json: { data: {} } });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('HEAD, GET, PUT, DELETE');
    expect(await post.text()).toBe('Method Not Allowed');
    await expectJson(await req('/api/settings/abc'), 404);
  });

  it('a write answers every field when `fields` has a shape it cannot read, and only scalar names otherwise (its query is not validated)', async () => {
    const every = ['id', 'documentId', 'siteName', 'createdAt', 'updatedAt', 'publishedAt', 'locale'];
    for (const fields of ['fields[a]=siteName', 'fields[0][0]=siteName', 'fields[0]=siteName&fields[1][a]=locale']) {
      const entry = await dataOf(await req(`/api/settings?${fields}`, { method: 'PUT', json: { data: { siteName: 'Shapes' } } }));
      expect(Object.keys(entry).sort()).toEqual([...every].sort());
    }
    const named = await dataOf(await req('/api/settings?fields=siteName,nope,localizations', { method: 'PUT', json: { data: { siteName: 'Named' } } }));
    expect(named).toEqual({ id: expect.any(Number), documentId: expect.any(String), siteName: 'Named' });
    await expectJson(await req('/api/settings?fields[a]=siteName', { method: 'DELETE' }), 204);
  });
});

describe('Strapi-Response-Format: v4', () => {
  it('nests attributes and wraps relations and media in data, leaving components flat', async () => {
    const category = await dataOf(await req('/api/categories', { method: 'POST', json: { data: { name: 'News' } } }), 201);
    const created = await req('/api/articles?populate=*', {
      method: 'POST',
      headers: { 'Strapi-Response-Format': 'v4' },
      json: { data: { title: 'Old format', category: category.documentId, seo: { metaTitle: 'M' }, blocks: [{ __component: 'shared.quote', text: 'Q' }] } },
    });
    const body = await expectJson<{ data: Record<string, unknown> }>(created, 201);
    expect(body.data).toEqual({
      id: expect.any(Number),
      documentId: expect.any(String),
      attributes: {
        title: 'Old format',
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
        publishedAt: expect.any(String),
        category: { data: { id: category.id, documentId: category.documentId, attributes: { name: 'News', createdAt: expect.any(String), updatedAt: expect.any(String), publishedAt: expect.any(String) } } },
        seo: { id: expect.any(Number), metaTitle: 'M' },
        blocks: [{ id: expect.any(Number), text: 'Q', __component: 'shared.quote' }],
      },
    });
    const list = await expectJson<{ data: { attributes: { category: unknown } }[] }>(
      await req('/api/articles?populate=category', { headers: { 'Strapi-Response-Format': 'v4' } }),
      200,
    );
    expect(list.data[0]?.attributes.category).toMatchObject({ data: { attributes: { name: 'News' } } });
    const none = await expectJson<{ data: { attributes: { category: unknown } } }>(
      await req(`/api/articles?populate=category&filters[title]=nothing`, { headers: { 'Strapi-Response-Format': 'v4' } }),
      200,
    );
    expect(none.data).toEqual([]);
  });
});
