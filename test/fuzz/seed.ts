import { dataOf } from '../helpers/project.js';
import type { TestServer } from '../helpers/server.js';
import { fixturePart, json, postUpload, type FileObject } from '../uploads/helpers.js';

/** What the fuzzers aim at: documents of several types, locales, drafts, files. */
export interface Seeded {
  readonly token: string;
  readonly readOnly: string;
  readonly documentIds: Readonly<Record<'articles' | 'categories' | 'tags' | 'specimens', readonly string[]>>;
  readonly fileIds: readonly number[];
}

/**
 * Fills the fixture project with a little of everything the read paths walk through: relations
 * both ways, a component, a dynamic zone, media, drafts, a second locale, a single type.
 */
export async function seedFixture(server: TestServer): Promise<Seeded> {
  await server.server.services.locales.add({ code: 'fr' });
  const token = await server.token('full-access');
  const readOnly = await server.token('read-only');
  const post = async (path: string, data: unknown) => dataOf(await server.request(path, { method: 'POST', token, json: { data } }), 201);
  const files = await json<FileObject[]>(await postUpload(server, token, [fixturePart('red-400x300.png'), fixturePart('notes.txt')]), 201);
  const fileIds = files.map((f) => f.id);
  const categories = [await post('/api/categories', { name: 'Tech' }), await post('/api/categories', { name: 'Life' })];
  const tags = [await post('/api/tags', { label: 'js' }), await post('/api/tags', { label: 'Öl' }), await post('/api/tags?status=draft', { label: 'draft' })];
  const articles = [];
  for (const [i, title] of ['Åland', 'apple pie', "O'Reilly %_"].entries()) {
    articles.push(
      await post(i === 2 ? '/api/articles?status=draft' : '/api/articles', {
        title,
        views: i * 10,
        rating: 1.5 * i,
        featured: i % 2 === 0,
        publishDate: '2024-02-0' + String(i + 1),
        category: categories[i % 2]?.documentId,
        tags: tags.slice(0, i + 1).map((t) => t.documentId),
        seo: { metaTitle: `meta ${i}`, metaDescription: 'd' },
        blocks: [{ __component: 'shared.quote', text: 'q', author: 'a' }],
        cover: fileIds[0],
        body: [{ type: 'paragraph', children: [{ type: 'text', text: 'hello' }] }],
      }),
    );
  }
  const first = articles[0];
  if (first) await dataOf(await server.request(`/api/articles/${first.documentId}?locale=fr`, { method: 'PUT', token, json: { data: { title: 'Åland FR' } } }));
  const specimens = [
    await post('/api/specimens', { s_required: 'one', s_int: 5, s_bigint: '9007199254740993', s_json: { a: [1, 2] }, s_comp: [{ text: 't', author: 'x' }], s_media: fileIds }),
    await post('/api/specimens', { s_required: 'two', s_enum: 'beta', s_date: '2024-05-06', s_datetime: '2024-05-06T07:08:09.000Z' }),
  ];
  await dataOf(await server.request('/api/homepage', { method: 'PUT', token, json: { data: { headline: 'Welcome', hero: fileIds[0] } } }));
  // A token's first use records its lastUsedAt: done here, so the fuzzers see only the writes they cause.
  await server.request('/api/tags', { token: readOnly });
  return {
    token,
    readOnly,
    documentIds: {
      articles: articles.map((d) => d.documentId),
      categories: categories.map((d) => d.documentId),
      tags: tags.map((d) => d.documentId),
      specimens: specimens.map((d) => d.documentId),
    },
    fileIds,
  };
}
