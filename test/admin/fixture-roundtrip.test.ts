import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_PROJECT, startTestServer, type TestServer } from '../helpers/server.js';
import { dataOf, expectJson, writeProject } from '../helpers/project.js';
import { adminRequest, registerOwner } from './helpers.js';

type Json = Record<string, unknown>;
let server: TestServer;
let root: string;
let admin: ReturnType<typeof adminRequest>;

async function jsonFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await jsonFiles(path)));
    else if (entry.name.endsWith('.json')) out.push(path);
  }
  return out.sort();
}

const fixture = async (path: string): Promise<Json> => JSON.parse(await readFile(join(FIXTURE_PROJECT, path), 'utf8')) as Json;
const written = async (path: string): Promise<Json> => JSON.parse(await readFile(join(root, path), 'utf8')) as Json;

beforeAll(async () => {
  root = await writeProject({});
  server = await startTestServer({ schemas: root });
  admin = adminRequest(server, await registerOwner(server));
});
afterAll(() => server.close());

describe('re-creating the public fixture through the builder API', () => {
  it('writes every content-type and component file deep-equal to the fixture, and the result serves content', async () => {
    for (const name of ['rich-text', 'seo', 'quote']) {
      const component = { category: 'shared', ...(await fixture(`src/components/shared/${name}.json`)) };
      expect(await expectJson(await admin('/admin/api/components', { method: 'POST', json: { component } }), 201)).toEqual({ data: { uid: `shared.${name}` } });
    }
    const post = async (contentType: Json, uid: string) =>
      expect(await expectJson(await admin('/admin/api/content-types', { method: 'POST', json: { contentType } }), 201)).toEqual({ data: { uid } });
    await post(await fixture('src/api/tag/content-types/tag/schema.json'), 'api::tag.tag');
    await post(await fixture('src/api/specimen/content-types/specimen/schema.json'), 'api::specimen.specimen');
    await post(await fixture('src/api/homepage/content-types/homepage/schema.json'), 'api::homepage.homepage');
    // The category's `articles` side is written by the builder when the article declares `inversedBy: "articles"`.
    const category = await fixture('src/api/category/content-types/category/schema.json');
    const { articles: _articles, ...categoryAttributes } = category.attributes as Json;
    await post({ ...category, attributes: categoryAttributes }, 'api::category.category');
    await post(await fixture('src/api/article/content-types/article/schema.json'), 'api::article.article');

    const expected = (await jsonFiles(join(FIXTURE_PROJECT, 'src'))).map((f) => relative(FIXTURE_PROJECT, f));
    expect((await jsonFiles(join(root, 'src'))).map((f) => relative(root, f))).toEqual(expected);
    for (const path of expected) expect({ path, schema: await written(path) }).toEqual({ path, schema: await fixture(path) });

    // Saving the full fixture schema of the category again changes nothing.
    await expectJson(await admin('/admin/api/content-types/api::category.category', { method: 'PUT', json: { contentType: category } }), 200);
    expect(await written('src/api/category/content-types/category/schema.json')).toEqual(category);

    const token = await server.token('full-access');
    const tech = await dataOf(await server.request('/api/categories', { method: 'POST', token, json: { data: { name: 'Tech' } } }), 201);
    const article = await dataOf(
      await server.request('/api/articles?populate=category', { method: 'POST', token, json: { data: { title: 'Hello', category: tech.documentId, seo: { metaTitle: 'Hi' } } } }),
      201,
    );
    expect(article).toMatchObject({ title: 'Hello', category: { name: 'Tech' } });
  });
});
