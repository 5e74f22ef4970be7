import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { dataOf } from '../helpers/project.js';
import { fixturePart, json, postUpload, type FileObject } from '../uploads/helpers.js';

/** The bench's project: marketing pages hold media at several depths (seo, hero, gallery, nested features). */
const BENCH_SCHEMA = resolve(import.meta.dirname, '../../bench/schema');

let server: TestServer;
let token: string;
let images: number[];

beforeAll(async () => {
  server = await startTestServer({ schemas: BENCH_SCHEMA });
  token = await server.token('full-access');
  const files = await json<FileObject[]>(await postUpload(server, token, [fixturePart('red-400x300.png', 'image/png'), fixturePart('red-400x300.png', 'image/png')]), 201);
  images = files.map((f) => Number(f.id));
});
afterAll(() => server.close());

const req = (path: string, init: Parameters<TestServer['request']>[1] = {}) => server.request(path, { token, ...init });

/** The media links stored for pages and their components, as (type, field, file) of each version. */
async function mediaLinks(): Promise<string[]> {
  const rows = await server.server.services.database.db.selectFrom('hearth_files_related').select(['related_type', 'field', 'file_id', 'ord']).execute();
  return rows.map((r) => `${String(r.related_type)}.${String(r.field)}#${Number(r.file_id) === images[0] ? 'a' : 'b'}@${Number(r.ord)}`).sort();
}

const populate =
  'populate[seo][populate]=metaImage&populate[blocks][on][sections.hero][populate]=image&populate[blocks][on][sections.gallery][populate]=images&populate[blocks][on][sections.feature-grid][populate][features][populate]=icon';
const imageNames = (page: Record<string, unknown>) =>
  JSON.stringify(page).match(/"(metaImage|image|images|icon)":(\{"id":\d+|\[[^\]]*\]|null)/g)?.map((m) => m.replace(/"id":\d+/g, 'id')) ?? [];

describe('publishing copies media at every depth, and replacing components drops theirs', () => {
  it('keeps each version’s media links, and a component that goes takes its links with it', async () => {
    const [a, b] = images;
    const blocks = [
      { __component: 'sections.hero', title: 'Hero', image: a },
      { __component: 'sections.gallery', heading: 'Gallery', images: [b, a] },
      { __component: 'sections.feature-grid', features: [{ title: 'f', icon: b }] },
    ];
    const created = await dataOf(await req('/api/pages', { method: 'POST', json: { data: { title: 'Media page', seo: { metaTitle: 'm', metaImage: a }, blocks } } }), 201);
    const versions = [
      'sections.hero.image#a@1',
      'sections.gallery.images#a@2',
      'sections.gallery.images#b@1',
      'shared.feature.icon#b@1',
      'shared.seo.metaImage#a@1',
    ];
    const both = versions.flatMap((l) => [l, l]).sort();
    expect(await mediaLinks()).toEqual(both);
    await dataOf(await req(`/api/pages/${String(created.documentId)}`, { method: 'PUT', json: { data: { title: 'Renamed' } } }), 200);
    expect(await mediaLinks()).toEqual(both);
    const published = await dataOf(await req(`/api/pages/${String(created.documentId)}?${populate}`), 200);
    const draft = await dataOf(await req(`/api/pages/${String(created.documentId)}?status=draft&${populate}`), 200);
    expect(imageNames(published)).toHaveLength(4);
    expect(imageNames(published)).toEqual(imageNames(draft));
    await dataOf(await req(`/api/pages/${String(created.documentId)}`, { method: 'PUT', json: { data: { blocks: [{ __component: 'sections.hero', title: 'Only', image: b }] } } }), 200);
    expect(await mediaLinks()).toEqual(['sections.hero.image#b@1', 'sections.hero.image#b@1', 'shared.seo.metaImage#a@1', 'shared.seo.metaImage#a@1']);
    await req(`/api/pages/${String(created.documentId)}`, { method: 'DELETE' });
    expect(await mediaLinks()).toEqual([]);
  });
});

describe('the answer of a write that publishes', () => {
  it('is the published version as a read gives it (every scalar type of a recipe, components, blocks)', async () => {
    const data = {
      title: 'Answer',
      slug: 'answer',
      summary: 'Short',
      prepMinutes: 12,
      servings: 3,
      rating: 4.5,
      vegetarian: true,
      publishDate: '2024-02-29',
      nutrition: { calories: 100, protein: 1.5 },
      ingredients: [{ name: 'salt', quantity: 0.5, unit: 'g', optional: false }],
      sections: [{ __component: 'recipe.step', instruction: 'Stir', durationMinutes: 2 }],
      body: [{ type: 'paragraph', children: [{ type: 'text', text: 'Hi', bold: true }] }],
    };
    const created = await dataOf(await req('/api/recipes?populate=*', { method: 'POST', json: { data } }), 201);
    expect(created).toEqual(await dataOf(await req(`/api/recipes/${String(created.documentId)}?populate=*`), 200));
    const updated = await dataOf(await req(`/api/recipes/${String(created.documentId)}?populate=*`, { method: 'PUT', json: { data: { rating: 3.25, vegetarian: false } } }), 200);
    expect(updated).toEqual(await dataOf(await req(`/api/recipes/${String(created.documentId)}?populate=*`), 200));
    expect(updated).toMatchObject({ rating: 3.25, vegetarian: false, title: 'Answer' });
  });
});

describe('a create checks a unique value against drafts and published versions', () => {
  const recipe = (title: string, slug: string) => ({ data: { title, slug } });
  const uniqueError = { status: 400, name: 'ValidationError', message: 'This attribute must be unique' };

  it('refuses a value a published version holds even when no draft does, and one a draft holds', async () => {
    const a = await dataOf(await req('/api/recipes', { method: 'POST', json: recipe('A', 'published-slug') }), 201);
    await dataOf(await req(`/api/recipes/${String(a.documentId)}?status=draft`, { method: 'PUT', json: { data: { slug: 'draft-slug' } } }), 200);
    const published = await req('/api/recipes', { method: 'POST', json: recipe('B', 'published-slug') });
    expect(published.status).toBe(400);
    expect((await published.json()) as unknown).toMatchObject({ data: null, error: uniqueError });
    const draft = await req('/api/recipes', { method: 'POST', json: recipe('C', 'draft-slug') });
    expect(draft.status).toBe(400);
    expect((await draft.json()) as unknown).toMatchObject({ data: null, error: uniqueError });
    await dataOf(await req('/api/recipes?status=draft', { method: 'POST', json: recipe('D', 'published-slug') }), 201);
    await dataOf(await req('/api/recipes', { method: 'POST', json: recipe('E', 'free-slug') }), 201);
  });
});
