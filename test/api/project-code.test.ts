import { cp, mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import qs from 'qs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { dataOf, expectJson, listOf, type Doc } from '../helpers/project.js';
import { registerOwner } from '../admin/helpers.js';

/** A Strapi project in LaunchPad's shape: route files naming middlewares that set the populate, and code Hearth lists. */
const PROJECT = resolve(import.meta.dirname, '../fixtures/project-code');

let server: TestServer;
let root: string;
let token: string;
let session: string;
const ids: Record<string, string> = {};

const post = async (path: string, data: Record<string, unknown>): Promise<Doc> => dataOf(await server.request(path, { method: 'POST', token, json: { data } }), 201);
const get = (path: string, query: Record<string, unknown> | string = '') =>
  server.request(`${path}?${typeof query === 'string' ? query : qs.stringify(query, { encodeValuesOnly: true })}`, { token });
const admin = (path: string, init: RequestInit & { json?: unknown } = {}) => server.request(`/admin/api${path}`, { ...init, token: session });
/** Drops what changes from run to run (ids, documentIds, timestamps) at every depth. */
const stable = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(stable);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).filter(([k]) => !['id', 'documentId', 'createdAt', 'updatedAt', 'publishedAt'].includes(k)).map(([k, v]) => [k, stable(v)]));
};

beforeAll(async () => {
  // A copy: the admin tests below write the schemas folder.
  root = await mkdtemp(join(tmpdir(), 'hearth-project-code-'));
  await cp(PROJECT, root, { recursive: true });
  server = await startTestServer({ schemas: root });
  token = await server.token('full-access');
  session = await registerOwner(server);
  const news = await post('/api/categories', { name: 'News' });
  const tips = await post('/api/categories', { name: 'Tips' });
  ids.news = news.documentId;
  for (const [title, category] of [['Charlie', news], ['Alpha', tips], ['Bravo', news]] as const) {
    ids[title] = (await post('/api/articles', { title, slug: title.toLowerCase(), category: category.documentId })).documentId;
  }
  ids.home = (
    await post('/api/pages', {
      title: 'Home',
      slug: 'home',
      seo: { metaTitle: 'Welcome', metaDescription: 'The home page' },
      sections: [
        { __component: 'sections.hero', heading: 'Hello' },
        { __component: 'sections.related-articles', heading: 'Read next', articles: [ids.Bravo, ids.Alpha] },
      ],
    })
  ).documentId;
});
afterAll(() => server.close());

const HOME = {
  title: 'Home',
  slug: 'home',
  sections: [
    { __component: 'sections.hero', heading: 'Hello', image: null },
    {
      __component: 'sections.related-articles',
      heading: 'Read next',
      articles: [
        { title: 'Bravo', slug: 'bravo', category: { name: 'News' } },
        { title: 'Alpha', slug: 'alpha', category: { name: 'Tips' } },
      ],
    },
  ],
  seo: { metaTitle: 'Welcome' },
};

describe('route middlewares that assign literal query values (LaunchPad page-populate)', () => {
  it('find and findOne of a page get the populate the TypeScript middleware assigns, deep `on` fragments included', async () => {
    expect(stable(await listOf(await get('/api/pages')))).toEqual([HOME]);
    expect(stable(await dataOf(await get(`/api/pages/${ids.home}`)))).toEqual(HOME);
  });

  it('`ctx.query.populate = x` replaces the populate the client sent, as the assignment does in Strapi', async () => {
    expect(stable(await listOf(await get('/api/pages', { populate: ['seo'] })))).toEqual([HOME]);
    expect(stable(await dataOf(await get(`/api/pages/${ids.home}`, { populate: '*' })))).toEqual(HOME);
  });

  it('`ctx.query = { ...ctx.query, populate, sort, pagination }` (CommonJS) keeps the client filters and replaces the rest', async () => {
    const page1 = await expectJson<{ data: Doc[]; meta: unknown }>(await get('/api/articles', { sort: 'title:desc' }), 200);
    expect(stable(page1.data)).toEqual([
      { title: 'Alpha', slug: 'alpha', category: { name: 'Tips' } },
      { title: 'Bravo', slug: 'bravo', category: { name: 'News' } },
    ]);
    expect(page1.meta).toEqual({ pagination: { page: 1, pageSize: 2, pageCount: 2, total: 3 } });
    expect(stable(await listOf(await get('/api/articles', { filters: { category: { name: 'News' } } })))).toEqual([
      { title: 'Bravo', slug: 'bravo', category: { name: 'News' } },
      { title: 'Charlie', slug: 'charlie', category: { name: 'News' } },
    ]);
  });

  it('only the routes the router config names: findOne of an article is as the client asks, find of a category too', async () => {
    expect(stable(await dataOf(await get(`/api/articles/${ids.Alpha}`)))).toEqual({ title: 'Alpha', slug: 'alpha' });
    expect(stable(await listOf(await get('/api/categories', { sort: 'name' })))).toEqual([{ name: 'News' }, { name: 'Tips' }]);
  });

  it('an ES module middleware in a .js file (`export default (config, { strapi }) => async (ctx, next) => ...`) applies to findOne', async () => {
    expect(stable(await dataOf(await get(`/api/categories/${ids.news}`)))).toEqual({ name: 'News', articles: [{ title: 'Bravo' }, { title: 'Charlie' }] });
  });

  it('lists once at start-up, one line per item, what is applied and what is not run', () => {
    expect(server.logs.filter((l) => l.startsWith('project code: '))).toEqual([
      'project code: config/plugins.ts: plugin "seo" configured, not run',
      'project code: src/api/article/content-types/article/lifecycles.ts: lifecycle hooks of api::article.article, not run',
      'project code: src/api/article/controllers/article.ts: custom controller of api::article.article, not run',
      'project code: src/api/article/middlewares/article-populate.js: applied to api::article.article find (sets populate, sort, pagination)',
      'project code: src/api/article/middlewares/published-before.js: not applied to api::article.article find: line 5: a function call is not a literal',
      'project code: src/api/article/routes/article.js: policy global::is-admin of api::article.article find, not run',
      'project code: src/api/category/middlewares/category-populate.js: applied to api::category.category findOne (sets populate)',
      'project code: src/api/page/middlewares/page-populate.ts: applied to api::page.page find, findOne (sets populate)',
      'project code: src/api/page/routes/custom-page.ts: custom routes, not served: GET /pages/slug/:slug',
      'project code: src/policies/is-admin.ts: policy global::is-admin, not run',
    ]);
  });

  it("the admin API's content type carries the project code that touches it", async () => {
    const body = await expectJson<{ data: { projectCode: unknown } }>(await admin('/content-types/api::article.article'), 200);
    expect(body.data.projectCode).toEqual([
      { file: 'src/api/article/content-types/article/lifecycles.ts', status: 'not-run', message: 'lifecycle hooks of api::article.article, not run' },
      { file: 'src/api/article/controllers/article.ts', status: 'not-run', message: 'custom controller of api::article.article, not run' },
      { file: 'src/api/article/middlewares/article-populate.js', status: 'applied', message: 'applied to api::article.article find (sets populate, sort, pagination)' },
      {
        file: 'src/api/article/middlewares/published-before.js',
        status: 'not-applied',
        message: 'not applied to api::article.article find: line 5: a function call is not a literal',
      },
      { file: 'src/api/article/routes/article.js', status: 'not-run', message: 'policy global::is-admin of api::article.article find, not run' },
    ]);
    const page = await expectJson<{ data: { projectCode: unknown } }>(await admin('/content-types/api::page.page'), 200);
    expect(page.data.projectCode).toEqual([
      { file: 'src/api/page/middlewares/page-populate.ts', status: 'applied', message: 'applied to api::page.page find, findOne (sets populate)' },
      { file: 'src/api/page/routes/custom-page.ts', status: 'not-run', message: 'custom routes, not served: GET /pages/slug/:slug' },
    ]);
  });
});

describe('a default populate set without code (pluginOptions.hearth.defaultPopulate)', () => {
  const categorySchema = async () => JSON.parse(await readFile(join(root, 'src/api/category/content-types/category/schema.json'), 'utf8')) as Record<string, unknown>;
  const save = async (pluginOptions: Record<string, unknown>) => {
    const schema = await categorySchema();
    return admin('/content-types/api::category.category', { method: 'PUT', json: { contentType: { ...schema, pluginOptions } } });
  };

  it('is saved with the type, and find gets it when the request sends no populate; a request with its own keeps its own', async () => {
    const defaultPopulate = { articles: { fields: ['slug'], sort: ['slug:desc'] } };
    expect(await expectJson(await save({ hearth: { defaultPopulate } }), 200)).toEqual({ data: { uid: 'api::category.category' } });
    expect((await categorySchema()).pluginOptions).toEqual({ hearth: { defaultPopulate } });
    expect(stable(await listOf(await get('/api/categories', { sort: 'name' })))).toEqual([
      { name: 'News', articles: [{ slug: 'charlie' }, { slug: 'bravo' }] },
      { name: 'Tips', articles: [{ slug: 'alpha' }] },
    ]);
    expect(stable(await listOf(await get('/api/categories', { sort: 'name', populate: { articles: { fields: ['title'], filters: { title: 'Alpha' } } } })))).toEqual([
      { name: 'News', articles: [] },
      { name: 'Tips', articles: [{ title: 'Alpha' }] },
    ]);
  });

  it('the route middleware still overrides it where the project sets one (findOne of a category)', async () => {
    expect(stable(await dataOf(await get(`/api/categories/${ids.news}`)))).toEqual({ name: 'News', articles: [{ title: 'Bravo' }, { title: 'Charlie' }] });
  });

  it('is shown by the builder read, and one its own find would refuse is a 400 naming the option', async () => {
    const read = await expectJson<{ data: { schema: { pluginOptions: unknown } } }>(await admin('/content-types/api::category.category'), 200);
    expect(read.data.schema.pluginOptions).toEqual({ hearth: { defaultPopulate: { articles: { fields: ['slug'], sort: ['slug:desc'] } } } });
    const message = 'Default populate: Invalid key nope';
    expect(await expectJson(await save({ hearth: { defaultPopulate: ['nope'] } }), 400)).toEqual({
      data: null,
      error: { status: 400, name: 'ValidationError', message, details: { errors: [{ path: ['contentType', 'pluginOptions', 'hearth', 'defaultPopulate'], message, name: 'ValidationError' }] } },
    });
    expect(await expectJson(await save({ hearth: { defaultPopulate: 3 } }), 400)).toMatchObject({ error: { status: 400, name: 'ValidationError' } });
    expect((await categorySchema()).pluginOptions).toEqual({ hearth: { defaultPopulate: { articles: { fields: ['slug'], sort: ['slug:desc'] } } } });
  });
});
