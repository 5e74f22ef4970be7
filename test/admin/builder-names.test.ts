import { access } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { collection, expectJson, writeProject } from '../helpers/project.js';
import { adminRequest, registerOwner } from './helpers.js';

let server: TestServer;
let root: string;
let admin: ReturnType<typeof adminRequest>;

const article = collection('article', 'articles', {
  title: { type: 'string' },
  tags: { type: 'relation', relation: 'manyToMany', target: 'api::article.article' },
  seo: { type: 'component', component: 'shared.seo' },
});

beforeAll(async () => {
  root = await writeProject({ types: { article }, components: { 'shared.seo': { attributes: { metaTitle: { type: 'string' } } } } });
  server = await startTestServer({ schemas: root });
  admin = adminRequest(server, await registerOwner(server));
});
afterAll(() => server.close());

const validation = (path: string[], message: string) => ({ data: null, error: { status: 400, name: 'ValidationError', message, details: { errors: [{ path, message, name: 'ValidationError' }] } } });
const film = (collectionName: string) => ({ ...collection('film', 'films', { title: { type: 'string' } }), collectionName });
const both = (owner: string, other: string, name: string, mine: string, theirs: string) => `${owner} and ${other} would both use the name "${name}" (for ${owner}'s ${mine} and ${other}'s ${theirs})`;

describe('table names the builder refuses', () => {
  // Names of the database's system tables, Hearth's own, and any table or index another model or Hearth's link tables already use.
  const cases: [string, string][] = [
    ['sqlite_master', '"collectionName" may not start with sqlite_'],
    ['sqlite_sequence', '"collectionName" may not start with sqlite_'],
    ['SQLite_stat1', '"collectionName" may not start with sqlite_'],
    ['pg_class', '"collectionName" may not start with pg_'],
    ['hearth_locales', '"collectionName" may not start with hearth_'],
    ['articles', 'api::film.film and api::article.article would both use the table "articles"'],
    ['Articles', 'api::film.film and api::article.article would both use the table "Articles"'],
    ['articles_tags_lnk', 'api::film.film and api::article.article would both use the table "articles_tags_lnk"'],
    ['articles_cmps', 'api::film.film and api::article.article would both use the table "articles_cmps"'],
    ['components_shared_seo', 'shared.seo and api::film.film would both use the table "components_shared_seo"'],
    ['up_users', 'api::film.film and plugin::users-permissions would both use the table "up_users"'],
    ['up_users_role_lnk', 'api::film.film and plugin::users-permissions would both use the table "up_users_role_lnk"'],
    ['articles_lookup_idx', both('api::film.film', 'api::article.article', 'articles_lookup_idx', 'table', 'index')],
    ['articles_tags_lnk_entity_idx', both('api::film.film', 'api::article.article', 'articles_tags_lnk_entity_idx', 'table', 'index')],
    ['articles_pkey', both('api::film.film', 'api::article.article', 'articles_pkey', 'table', 'index')],
    ['up_users_email_idx', both('api::film.film', 'plugin::users-permissions', 'up_users_email_idx', 'table', 'index')],
  ];
  for (const [collectionName, message] of cases) {
    it(`a content type's collectionName "${collectionName}" is a 400 naming the field`, async () => {
      const res = await admin('/admin/api/content-types', { method: 'POST', json: { contentType: film(collectionName) } });
      expect(await expectJson(res, 400)).toEqual(validation(['contentType', 'collectionName'], message));
    });
  }

  it("a component's collectionName is checked the same way, and the server keeps working", async () => {
    const seoTwo = (collectionName: string) => ({ category: 'shared', info: { displayName: 'links' }, collectionName, attributes: { url: { type: 'string' } } });
    for (const [collectionName, message] of [
      ['sqlite_sequence', '"collectionName" may not start with sqlite_'],
      ['pg_type', '"collectionName" may not start with pg_'],
      ['articles', 'shared.links and api::article.article would both use the table "articles"'],
      ['articles_lookup_idx', both('shared.links', 'api::article.article', 'articles_lookup_idx', 'table', 'index')],
    ] as const) {
      const res = await admin('/admin/api/components', { method: 'POST', json: { component: seoTwo(collectionName) } });
      expect(await expectJson(res, 400)).toEqual(validation(['component', 'collectionName'], message));
    }
    expect(await access(join(root, 'src/components/shared/links.json')).then(() => true, () => false)).toBe(false);
    expect(await access(join(root, 'src/api/film')).then(() => true, () => false)).toBe(false);
    await expectJson(await admin('/admin/api/components', { method: 'POST', json: { component: seoTwo('components_shared_links') } }), 201);
    await expectJson(await admin('/admin/api/content-types', { method: 'POST', json: { contentType: film('films') } }), 201);
  });
});

describe('hand-written schemas with such a collectionName', () => {
  it('refuse to start with a message naming the schema and the name', async () => {
    for (const [types, message] of [
      [{ film: film('sqlite_master') }, 'src/api/film/content-types/film/schema.json: "collectionName" may not start with sqlite_'],
      [{ film: film('pg_index') }, 'src/api/film/content-types/film/schema.json: "collectionName" may not start with pg_'],
      [{ article, film: film('articles_lookup_idx') }, both('api::film.film', 'api::article.article', 'articles_lookup_idx', 'table', 'index')],
      [{ article, film: film('articles_tags_lnk') }, 'api::film.film and api::article.article would both use the table "articles_tags_lnk"'],
    ] as const) {
      const project = await writeProject({ types, components: { 'shared.seo': { attributes: { metaTitle: { type: 'string' } } } } });
      await expect(startTestServer({ schemas: project })).rejects.toThrow(message);
    }
  });
});
