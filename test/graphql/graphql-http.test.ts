import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { saveContentType } from '../../server/schema/builder.js';
import { collection, dataOf, writeProject } from '../helpers/project.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

/**
 * `/graphql` on a project of its own: the schema follows a content-type builder change without a
 * restart, nested relations cost the same number of statements for 1 and 50 parents, and upload
 * queries check the upload plugin's actions as REST does.
 */
type Json = Record<string, unknown>;
let server: TestServer;
let token: string;

const author = (attributes: Json = {}) => collection('author', 'authors', { name: { type: 'string' }, ...attributes });
const book = collection('book', 'books', {
  title: { type: 'string' },
  author: { type: 'relation', relation: 'manyToOne', target: 'api::author.author', inversedBy: 'books' },
});
const authorWithBooks = (extra: Json = {}) => author({ books: { type: 'relation', relation: 'oneToMany', target: 'api::book.book', mappedBy: 'author' }, ...extra });

beforeAll(async () => {
  const root = await writeProject({ types: { author: authorWithBooks(), book } });
  server = await startTestServer({ schemas: root });
  token = await server.token('full-access');
});

afterAll(async () => {
  await server.close();
});

const gql = async (query: string, auth: string | null = token): Promise<{ status: number; body: Json }> => {
  const res = await server.request('/graphql', { method: 'POST', json: { query }, ...(auth ? { token: auth } : {}) });
  return { status: res.status, body: (await res.json()) as Json };
};

describe('GraphQL over HTTP', () => {
  it('answers a new attribute as soon as the content-type builder adds it (no restart)', async () => {
    const before = await gql('{ authors { name born } }');
    expect(before.status).toBe(400);
    await server.server.services.schemas.apply((registry) =>
      saveContentType(registry, { uid: 'api::author.author', schema: authorWithBooks({ born: { type: 'integer' } }) }),
    );
    await dataOf(await server.request('/api/authors', { method: 'POST', token, json: { data: { name: 'Ann', born: 1970 } } }), 201);
    const after = await gql('{ authors { name born } }');
    expect(after).toEqual({ status: 200, body: { data: { authors: [{ name: 'Ann', born: 1970 }] } } });
  });

  it('reads two relation levels with as many statements for 50 parents as for 1 (no N+1)', async () => {
    const count = async (query: string) => {
      const before = server.server.services.database.queryCount();
      const { status, body } = await gql(query);
      expect(status, JSON.stringify(body)).toBe(200);
      expect(body.errors).toBeUndefined();
      return server.server.services.database.queryCount() - before;
    };
    const query = (limit: number) => `{ books(pagination: { limit: ${limit} }, sort: "title") { title author { name books { title } } } }`;
    const writer = await dataOf(await server.request('/api/authors', { method: 'POST', token, json: { data: { name: 'Writer' } } }), 201);
    for (let i = 0; i < 50; i += 1) {
      await dataOf(await server.request('/api/books', { method: 'POST', token, json: { data: { title: `Book ${String(i).padStart(2, '0')}`, author: writer.documentId } } }), 201);
    }
    await count(query(1)); // warms what the first read after the writes resolves afresh (the caller)
    const one = await count(query(1));
    const fifty = await count(query(50));
    expect(fifty).toBe(one);
    // The same relation again under an alias with other arguments: one batched read more, whatever the number of parents.
    const aliased = (limit: number) => `{ books(pagination: { limit: ${limit} }) { title author { name } other: author { name books(pagination: { limit: 1 }) { title } } } }`;
    expect(await count(aliased(50))).toBe(await count(aliased(1)));
  });

  it('checks plugin::upload.content-api.find for uploadFiles, as REST', async () => {
    const refused = await gql('{ uploadFiles { name } }', null);
    expect(refused.body).toEqual({
      errors: [{ message: 'Forbidden access', path: ['uploadFiles'], extensions: { code: 'FORBIDDEN', error: { name: 'ForbiddenError', message: 'Forbidden access', details: {} } } }],
      data: null,
    });
    await server.server.services.permissions.grant('public', ['plugin::upload.content-api.find']);
    expect(await gql('{ uploadFiles { name } }', null)).toEqual({ status: 200, body: { data: { uploadFiles: [] } } });
  });

  it('answers malformed JSON with REST’s 400 SyntaxError envelope, other methods with 405, bad GET variables with 400 BAD_REQUEST', async () => {
    const res = await server.request('/graphql', { method: 'POST', token, headers: { 'Content-Type': 'application/json' }, body: '{"query": ' });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ data: null, error: { status: 400, name: 'SyntaxError' } });
    const put = await server.request('/graphql', { method: 'PUT', token, json: { query: '{ authors { name } }' } });
    expect(put.status).toBe(405);
    const get = await server.request(`/graphql?query=${encodeURIComponent('{ authors { name } }')}&variables=%7Bnope`, { token, headers: { 'apollo-require-preflight': 'true' } });
    expect({ status: get.status, body: await get.json() }).toEqual({
      status: 400,
      body: { errors: [{ message: 'The variables search parameter contains invalid JSON.', extensions: { code: 'BAD_REQUEST' } }] },
    });
  });

  it('answers a browser preflight with the content API’s CORS policy', async () => {
    const preflight = (path: string) =>
      server.request(path, { method: 'OPTIONS', headers: { Origin: 'http://app.example', 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'content-type,authorization' } });
    const rest = await preflight('/api/authors');
    const graphql = await preflight('/graphql');
    expect(graphql.status).toBe(rest.status);
    for (const name of ['access-control-allow-origin', 'access-control-allow-methods', 'access-control-allow-headers']) {
      expect(graphql.headers.get(name), name).toBe(rest.headers.get(name));
    }
    expect(graphql.headers.get('access-control-allow-origin')).not.toBeNull();
  });

  it('refuses a selection nested deeper than MAX_GRAPHQL_DEPTH with a 400 BAD_USER_INPUT, fragments included', async () => {
    const nest = (levels: number): string => (levels === 1 ? 'name' : `books(pagination: { limit: 1 }) { author { ${nest(levels - 2)} } }`);
    // 10 levels of fields (authors, books, author, ..., name: 8 relation levels, more than one REST populate reads) pass; 12 are refused.
    const ten = await gql(`{ authors { ${nest(9)} } }`);
    expect(ten.status).toBe(200);
    expect(ten.body.errors, JSON.stringify(ten.body)).toBeUndefined();
    const deep = await gql(`{ authors { ${nest(11)} } }`);
    expect(deep).toEqual({
      status: 400,
      body: { errors: [{ message: 'The query is nested too deeply: at most 10 levels of fields are accepted', locations: [{ line: 1, column: 1 }], extensions: { code: 'BAD_USER_INPUT' } }] },
    });
    const viaFragment = await gql(`query { authors { ...A } } fragment A on Author { ${nest(11)} }`);
    expect(viaFragment.status).toBe(400);
  });
});
