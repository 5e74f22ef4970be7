import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { collection, dataOf, expectJson, listOf, writeProject } from '../helpers/project.js';

let server: TestServer;
let token: string;

beforeAll(async () => {
  const schemas = await writeProject({
    types: {
      page: collection(
        'page',
        'pages',
        {
          title: { type: 'string', pluginOptions: { i18n: { localized: true } } },
          views: { type: 'integer', pluginOptions: { i18n: { localized: false } } },
          seo: { type: 'component', component: 'shared.meta', pluginOptions: { i18n: { localized: false } } },
        },
        { draftAndPublish: true, localized: true },
      ),
    },
    components: { 'shared.meta': { attributes: { description: { type: 'string' } } } },
  });
  server = await startTestServer({ schemas });
  await server.server.services.locales.add({ code: 'fr' });
  token = await server.token('full-access');
});
afterAll(() => server.close());

const req = (path: string, init: Parameters<TestServer['request']>[1] = {}) => server.request(path, { token, ...init });

describe('i18n', () => {
  it('creates a localization with PUT ?locale=fr, copying non-localized fields', async () => {
    const en = await dataOf(await req('/api/pages', { method: 'POST', json: { data: { title: 'Hello', views: 3, seo: { description: 'meta' } } } }), 201);
    expect(en.locale).toBe('en');
    const fr = await dataOf(await req(`/api/pages/${en.documentId}?locale=fr&populate=seo`, { method: 'PUT', json: { data: { title: 'Bonjour' } } }));
    expect(fr).toMatchObject({ documentId: en.documentId, title: 'Bonjour', views: 3, locale: 'fr', seo: { description: 'meta' } });
  });

  it('keeps non-localized attributes in sync across locales', async () => {
    const en = await dataOf(await req('/api/pages', { method: 'POST', json: { data: { title: 'One', views: 1 } } }), 201);
    await dataOf(await req(`/api/pages/${en.documentId}?locale=fr`, { method: 'PUT', json: { data: { title: 'Un' } } }));
    await dataOf(await req(`/api/pages/${en.documentId}`, { method: 'PUT', json: { data: { views: 99, seo: { description: 'shared' } } } }));
    const fr = await dataOf(await req(`/api/pages/${en.documentId}?locale=fr&populate=seo`));
    expect(fr).toMatchObject({ title: 'Un', views: 99, seo: { description: 'shared' } });
    const frDraft = await dataOf(await req(`/api/pages/${en.documentId}?locale=fr&status=draft`));
    expect(frDraft.views).toBe(99);
  });

  it('lists one locale by default, another with ?locale=, all with *, and nothing for an unknown code', async () => {
    const all = await listOf(await req('/api/pages?locale=*&fields[0]=locale&pagination[pageSize]=100'));
    const locales = new Set(all.map((d) => d.locale));
    expect(locales).toEqual(new Set(['en', 'fr']));
    expect((await listOf(await req('/api/pages'))).every((d) => d.locale === 'en')).toBe(true);
    expect((await listOf(await req('/api/pages?locale=fr'))).every((d) => d.locale === 'fr')).toBe(true);
    expect(await listOf(await req('/api/pages?locale=de'))).toEqual([]);
  });

  it('rejects writes to a locale that is not configured (Strapi creates it: strapi#27108)', async () => {
    const body = await expectJson(await req('/api/pages?locale=de', { method: 'POST', json: { data: { title: 'x' } } }), 400);
    expect(body).toMatchObject({ error: { name: 'ValidationError', message: 'Locale "de" does not exist' } });
  });

  it('rejects a malformed locale as Strapi does', async () => {
    const body = await expectJson(await req('/api/pages?locale=e'), 400);
    expect(body).toMatchObject({
      error: { message: "Invalid parameter at 'locale'. Locale must be a valid BCP 47 format (e.g. en, en-US, zh-Hans)." },
    });
  });

  it('deletes one locale with ?locale=fr, and every locale with ?locale=*', async () => {
    const en = await dataOf(await req('/api/pages', { method: 'POST', json: { data: { title: 'Del' } } }), 201);
    await dataOf(await req(`/api/pages/${en.documentId}?locale=fr`, { method: 'PUT', json: { data: { title: 'Sup' } } }));
    await expectJson(await req(`/api/pages/${en.documentId}?locale=fr`, { method: 'DELETE' }), 204);
    await expectJson(await req(`/api/pages/${en.documentId}?locale=fr`), 404);
    await dataOf(await req(`/api/pages/${en.documentId}`));
    await dataOf(await req(`/api/pages/${en.documentId}?locale=fr`, { method: 'PUT', json: { data: { title: 'Sup' } } }));
    await expectJson(await req(`/api/pages/${en.documentId}?locale=*`, { method: 'DELETE' }), 204);
    await expectJson(await req(`/api/pages/${en.documentId}`), 404);
    await expectJson(await req(`/api/pages/${en.documentId}?locale=fr`), 404);
  });

  it('populates localizations with the other locales in the same publication state', async () => {
    const en = await dataOf(await req('/api/pages', { method: 'POST', json: { data: { title: 'Loc' } } }), 201);
    await dataOf(await req(`/api/pages/${en.documentId}?locale=fr`, { method: 'PUT', json: { data: { title: 'Loc fr' } } }));
    const withLocs = await dataOf(await req(`/api/pages/${en.documentId}?populate=localizations&fields[0]=title`));
    expect(withLocs.localizations).toEqual([expect.objectContaining({ title: 'Loc fr', locale: 'fr', publishedAt: expect.any(String) })]);
  });
});
