import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminRequest, registerOwner } from '../admin/helpers.js';
import { collection, dataOf, expectJson, listOf, writeProject } from '../helpers/project.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { STRAPI_USER_ATTRIBUTES, userExtension } from '../helpers/strapi-plugin-schemas.js';

/**
 * FoodAdvisor's user extension declares `articles` mappedBy `author`, which its article type does
 * not have. Strapi creates nothing for a mappedBy side and never checks the side it names, so the
 * project starts there; Hearth serves the models without such a relation, says so once, and keeps
 * it in the files.
 */

type Json = Record<string, unknown>;
const UP = 'plugin::users-permissions';

const USER_ATTRIBUTES: Json = {
  ...STRAPI_USER_ATTRIBUTES,
  articles: { type: 'relation', relation: 'oneToMany', target: 'api::article.article', mappedBy: 'author' },
  job: { type: 'string' },
};

const ARTICLE: Json = {
  title: { type: 'string' },
  critics: { type: 'relation', relation: 'manyToMany', target: `${UP}.user`, mappedBy: 'reviewed' },
  category: { type: 'relation', relation: 'manyToOne', target: 'api::category.category', inversedBy: 'articles' },
};
const CATEGORY: Json = { name: { type: 'string' }, articles: { type: 'relation', relation: 'oneToMany', target: 'api::article.article', mappedBy: 'category' } };

async function projectWith(article: Json, user: Json): Promise<string> {
  const root = await writeProject({ types: { article: collection('article', 'articles', article), category: collection('category', 'categories', CATEGORY) } });
  const dir = join(root, 'src', 'extensions', 'users-permissions', 'content-types', 'user');
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'schema.json'), JSON.stringify(userExtension(user), null, 2));
  return root;
}

const WARNINGS = [
  `schemas: ${UP}.user attribute "articles": its inverse "author" is not an attribute of api::article.article; ` +
    'Hearth leaves the relation out (Strapi creates nothing for it). Declare "author" on api::article.article with inversedBy: "articles" to use it',
  `schemas: api::article.article attribute "critics": its inverse "reviewed" is not an attribute of ${UP}.user; ` +
    `Hearth leaves the relation out (Strapi creates nothing for it). Declare "reviewed" on ${UP}.user with inversedBy: "critics" to use it`,
];

describe('a relation whose mappedBy names an attribute its target lacks', () => {
  let server: TestServer;
  let root = '';
  let token = '';
  const articleFile = () => join(root, 'src/api/article/content-types/article/schema.json');

  beforeAll(async () => {
    root = await projectWith(ARTICLE, USER_ATTRIBUTES);
    server = await startTestServer({ schemas: root });
    token = await server.token('full-access');
    const role = (await expectJson<{ roles: { id: number; type: string }[] }>(await server.request('/api/users-permissions/roles', { token }), 200)).roles.find((r) => r.type === 'authenticated');
    await expectJson(await server.request('/api/users', { method: 'POST', token, json: { username: 'writer', email: 'writer@example.com', password: 'writer-pass', role: role?.id, job: 'cook' } }), 201);
    const category = await dataOf(await server.request('/api/categories', { method: 'POST', token, json: { data: { name: 'Soups' } } }), 201);
    await dataOf(await server.request('/api/articles', { method: 'POST', token, json: { data: { title: 'Broth', category: category.documentId } } }), 201);
  });
  afterAll(() => server.close());

  it('starts, with one warning per relation naming the model, the attribute and the missing inverse', () => {
    expect(server.logs.filter((l) => l.includes('its inverse'))).toEqual(WARNINGS);
  });

  it('serves the other attributes, populate=* leaving the relation out', async () => {
    const users = await expectJson<Json[]>(await server.request('/api/users?populate=*', { token }), 200);
    expect(users).toHaveLength(1);
    expect(users[0]).toMatchObject({ username: 'writer', job: 'cook', role: { type: 'authenticated' } });
    expect(Object.keys(users[0] ?? {})).not.toContain('articles');
    const [article] = await listOf(await server.request('/api/articles?populate=*', { token }));
    expect(article).toMatchObject({ title: 'Broth', category: { name: 'Soups' } });
    expect(Object.keys(article ?? {})).not.toContain('critics');
    const [category] = await listOf(await server.request('/api/categories?populate=*', { token }));
    expect((category?.articles as Json[]).map((a) => a.title)).toEqual(['Broth']);
  });

  it('answers a request naming the relation as one naming an unknown attribute', async () => {
    const populate = await expectJson(await server.request('/api/users?populate=articles', { token }), 400);
    expect(populate).toEqual({ data: null, error: { status: 400, name: 'ValidationError', message: 'Invalid key articles', details: { key: 'articles', path: 'articles', source: 'query', param: 'populate' } } });
    await expectJson(await server.request('/api/articles?filters[critics][id][$eq]=1', { token }), 400);
  });

  it('keeps the relation in the file when the builder saves the schema', async () => {
    const request = adminRequest(server, await registerOwner(server));
    const before = await readFile(articleFile(), 'utf8');
    const { data } = await expectJson<{ data: { schema: Json } }>(await request('/admin/api/content-types/api::article.article'), 200);
    const schema = data.schema as { attributes: Json };
    const edited = { ...schema, attributes: { ...schema.attributes, subtitle: { type: 'string' } } };
    expect(await expectJson(await request('/admin/api/content-types/api::article.article', { method: 'PUT', json: { contentType: edited } }), 200)).toEqual({ data: { uid: 'api::article.article' } });
    const after = JSON.parse(await readFile(articleFile(), 'utf8')) as { attributes: Json };
    expect(after.attributes.critics).toEqual((JSON.parse(before) as { attributes: Json }).attributes.critics);
    expect(after.attributes.subtitle).toEqual({ type: 'string' });
    const [article] = await listOf(await server.request('/api/articles?populate=*', { token }));
    expect(article).toMatchObject({ title: 'Broth', subtitle: null, category: { name: 'Soups' } });
    expect(server.logs.filter((l) => l.includes('its inverse'))).toEqual(WARNINGS);
  });
});

describe('a relation whose other side is wrong, not missing', () => {
  const refusals: [string, Json, Json, string][] = [
    [
      'a mappedBy naming an attribute that points elsewhere',
      ARTICLE,
      { ...USER_ATTRIBUTES, articles: { type: 'relation', relation: 'oneToMany', target: 'api::article.article', mappedBy: 'title' } },
      `${UP}.user: attribute "articles": "api::article.article" has no relation "title" back to ${UP}.user`,
    ],
    [
      'a dangling inversedBy',
      { ...ARTICLE, author: { type: 'relation', relation: 'manyToOne', target: `${UP}.user`, inversedBy: 'posts' } },
      USER_ATTRIBUTES,
      `api::article.article: attribute "author": "${UP}.user" has no relation "posts" back to api::article.article`,
    ],
  ];
  for (const [what, article, user, message] of refusals) {
    it(`still refuses ${what}`, async () => {
      await expect(startTestServer({ schemas: await projectWith(article, user) })).rejects.toThrow(message);
    });
  }
});
