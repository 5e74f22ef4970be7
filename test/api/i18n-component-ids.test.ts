import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataOf } from '../helpers/project.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

/**
 * Writing one locale keeps the other locales' component rows (their ids) as Strapi 5 does: the
 * GraphQL transcripts 045 and 052 were recorded after a `PUT ?locale=fr` created the fr version of
 * an article whose non-localized `seo` and `blocks` the en version holds; Strapi still answers the
 * en rows' first ids (seo 2, quote 2, rich-text 2 published) and the next component row made is
 * the fr version's draft and published copies plus one (quote 7).
 */
let server: TestServer;
let token: string;

beforeAll(async () => {
  server = await startTestServer();
  token = await server.token('full-access');
  await server.server.services.locales.add({ code: 'fr' });
});
afterAll(() => server.close());

const req = (path: string, init: Parameters<TestServer['request']>[1] = {}) => server.request(path, { token, ...init });
const POPULATE = 'populate[seo]=true&populate[blocks]=true';
type Article = { seo: { id: number; metaTitle: string }; blocks: Array<{ id: number; __component: string; text?: string }> };
const idsOf = (a: Article) => ({ seo: a.seo.id, blocks: a.blocks.map((b) => `${b.__component}:${b.id}`) });

describe('component rows across locales', () => {
  it('a PUT ?locale=fr (creating or updating fr) keeps the en versions\' component ids and syncs their values in place', async () => {
    const made = await dataOf(
      await req('/api/articles', {
        method: 'POST',
        json: {
          data: {
            title: 'Hello World', seo: { metaTitle: 'Hello', metaDescription: 'Hello meta' },
            blocks: [{ __component: 'shared.quote', text: 'To be', author: 'S' }, { __component: 'shared.rich-text', body: [{ type: 'paragraph', children: [{ type: 'text', text: 'x' }] }] }],
          },
        },
      }),
      201,
    );
    const id = String(made.documentId);
    const read = async (query: string) => (await dataOf(await req(`/api/articles/${id}?${POPULATE}&${query}`))) as unknown as Article;
    const enDraft = idsOf(await read('status=draft'));
    const enPublished = idsOf(await read('status=published'));
    expect(enDraft).toEqual({ seo: 1, blocks: ['shared.quote:1', 'shared.rich-text:1'] });
    expect(enPublished).toEqual({ seo: 2, blocks: ['shared.quote:2', 'shared.rich-text:2'] });

    await dataOf(await req(`/api/articles/${id}?locale=fr`, { method: 'PUT', json: { data: { title: 'Bonjour le monde' } } }));
    expect(idsOf(await read('status=draft'))).toEqual(enDraft);
    expect(idsOf(await read('status=published'))).toEqual(enPublished);
    expect(idsOf(await read('status=published&locale=fr'))).toEqual({ seo: 4, blocks: ['shared.quote:4', 'shared.rich-text:4'] });

    // The next component row is the one after the fr copies: Strapi's quote 7 in transcript 052 on its seed.
    const specimen = await dataOf(await req('/api/specimens?populate=s_comp', { method: 'POST', json: { data: { s_required: 'r', s_comp: [{ text: 'q1' }] } } }), 201);
    expect((specimen.s_comp as Array<{ id: number }>)[0]?.id).toBe(5);

    // A later fr write of a non-localized component changes the en rows' values, not their ids.
    await dataOf(await req(`/api/articles/${id}?locale=fr`, { method: 'PUT', json: { data: { seo: { metaTitle: 'Shared' } } } }));
    const en = await read('status=published');
    expect(idsOf(en)).toEqual(enPublished);
    expect(en.seo.metaTitle).toBe('Shared');
  });
});
