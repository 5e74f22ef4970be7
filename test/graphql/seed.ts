import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { IdMap } from '../helpers/normalize.js';
import type { TestServer } from '../helpers/server.js';
import { STRAPI_FIXTURES_DIR } from '../helpers/transcripts.js';

/**
 * The content the GraphQL transcripts were recorded on (`transcripts/state.json` names it), made
 * with REST calls in the recorded order: 3 categories, tags js/node (published) and graphql
 * (draft only), 3 uploads, 4 en articles (one full, one with an edited draft, one plain, one draft
 * only), the fr localization of the full one, a fr-only article, the homepage and a specimen.
 * Each recorded documentId (and file hash) is learned into `ids` as its document is made.
 */
export async function seedGraphqlState(server: TestServer, token: string, ids: IdMap, state: Record<string, string | number>): Promise<void> {
  const call = async (method: string, path: string, data: unknown): Promise<Record<string, unknown>> => {
    const res = await server.request(path, { method, token, json: { data } });
    const body = (await res.json()) as { data: Record<string, unknown> };
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(body)}`);
    return body.data;
  };
  const learn = (key: string, made: Record<string, unknown>) => ids.learn({ documentId: state[key] }, { documentId: made.documentId });
  const upload = async (key: string, file: string, type: string, info: Record<string, unknown>, recordedHash: string): Promise<number> => {
    const form = new FormData();
    form.append('files', new Blob([readFileSync(join(STRAPI_FIXTURES_DIR, file))], { type }), file);
    form.append('fileInfo', JSON.stringify(info));
    const res = await server.request('/api/upload', { method: 'POST', token, body: form });
    const [made] = (await res.json()) as Array<Record<string, unknown>>;
    if (!made) throw new Error(`upload ${file}: ${res.status}`);
    ids.learn({ documentId: state[key], hash: recordedHash }, { documentId: made.documentId, hash: made.hash });
    return Number(made.id);
  };

  for (const [key, name] of [['catTech', 'Tech'], ['catLife', 'Life'], ['catEmpty', 'Empty']] as const) learn(key, await call('POST', '/api/categories', { name }));
  learn('tagJs', await call('POST', '/api/tags', { label: 'js' }));
  learn('tagNode', await call('POST', '/api/tags', { label: 'node' }));
  learn('tagGqlDraft', await call('POST', '/api/tags?status=draft', { label: 'graphql' }));
  const red = await upload('fileRedDoc', 'red-400x300.png', 'image/png', {}, 'red_400x300_271d1c82a4');
  const notes = await upload('fileNotes', 'notes.txt', 'text/plain', {}, 'notes_f27140176f');
  const blue = await upload('fileBlueDoc', 'blue-64x48.jpg', 'image/jpeg', { name: 'blue.jpg', alternativeText: 'blue box' }, 'blue_2cdf6cfe6b');
  const doc = (key: string) => ids.actualFor(String(state[key])) ?? '';
  const body = [
    { type: 'heading', level: 2, children: [{ type: 'text', text: 'Intro' }] },
    {
      type: 'paragraph',
      children: [
        { type: 'text', text: 'Hello ' }, { type: 'text', text: 'bold', bold: true }, { type: 'text', text: ' and ' },
        { type: 'link', url: 'https://example.com', children: [{ type: 'text', text: 'a link' }] },
      ],
    },
    { type: 'list', format: 'unordered', children: [{ type: 'list-item', children: [{ type: 'text', text: 'item one' }] }] },
  ];
  learn('art1', await call('POST', '/api/articles', {
    title: 'Hello World', summary: 'A first article', views: 10, rating: 4.5, featured: true, publishDate: '2024-05-01', body,
    cover: red, gallery: [blue, notes], category: doc('catTech'), tags: [doc('tagJs'), doc('tagNode')],
    seo: { metaTitle: 'Hello', metaDescription: 'Hello meta' },
    blocks: [
      { __component: 'shared.quote', text: 'To be or not to be', author: 'Shakespeare' },
      { __component: 'shared.rich-text', body: [{ type: 'paragraph', children: [{ type: 'text', text: 'Rich text inside a dynamic zone' }] }] },
    ],
  }));
  learn('art2', await call('POST', '/api/articles', { title: 'Second Post', views: 3, rating: 2.25, featured: false, category: doc('catLife') }));
  await call('PUT', `/api/articles/${doc('art2')}?status=draft`, { title: 'Second Post (edited draft)', views: 4 });
  learn('art3', await call('POST', '/api/articles', { title: 'Another Story', slug: 'custom-slug', views: 50, featured: false, publishDate: '2023-12-24', category: doc('catTech'), tags: [doc('tagNode')], blocks: [{ __component: 'shared.quote', text: 'A quote' }] }));
  learn('artDraft', await call('POST', '/api/articles?status=draft', { title: 'Draft Only', views: 7, tags: [doc('tagNode')] }));
  await call('PUT', `/api/articles/${doc('art1')}?locale=fr`, { title: 'Bonjour le monde', summary: 'FR' });
  learn('artFr', await call('POST', '/api/articles?locale=fr', { title: 'Bonjour' }));
  await call('PUT', '/api/homepage', { headline: 'Welcome', hero: blue });
  learn('specimen', await call('POST', '/api/specimens', {
    s_string: 'abc', s_text: 'long text', s_richtext: '# Title\n\nSome *markdown*', s_blocks: [{ type: 'paragraph', children: [{ type: 'text', text: 'spec' }] }],
    s_email: 'a@example.com', s_password: 'secret123', s_enum: 'beta', s_int: 42, s_bigint: '9007199254740993', s_float: 1.5, s_decimal: 2.75,
    s_bool: false, s_date: '2024-02-29', s_time: '13:45:30', s_datetime: '2024-03-01T10:00:00.000Z', s_timestamp: 1709287200000,
    s_json: { a: 1, b: [true, null, 'x'] }, s_regex: 'abc', s_required: 'req', s_unique: 'u1', s_private: 'hidden', s_comp: [{ text: 'q1', author: 'me' }], s_media: [notes],
  }));
}
