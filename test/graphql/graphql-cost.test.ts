import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { buildSchema, getOperationAST, parse, validate } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { costError } from '../../server/graphql/cost.js';
import { MAX_GRAPHQL_COST } from '../../server/limits.js';
import { collection, dataOf, writeProject } from '../helpers/project.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

/**
 * The cost limit of `/graphql`: an operation's estimate (entities it may return: each list level
 * multiplied by its page size, aliases and fragments counted) above MAX_GRAPHQL_COST is a 400
 * BAD_USER_INPUT before anything is read; every recorded Strapi transcript stays under it.
 */
type Json = Record<string, unknown>;
let server: TestServer;
let token: string;

const author = collection('author', 'authors', {
  name: { type: 'string' },
  books: { type: 'relation', relation: 'oneToMany', target: 'api::book.book', mappedBy: 'author' },
});
const book = collection('book', 'books', {
  title: { type: 'string' },
  author: { type: 'relation', relation: 'manyToOne', target: 'api::author.author', inversedBy: 'books' },
});

beforeAll(async () => {
  const root = await writeProject({ types: { author, book } });
  server = await startTestServer({ schemas: root });
  token = await server.token('full-access');
  const writer = await dataOf(await server.request('/api/authors', { method: 'POST', token, json: { data: { name: 'Writer' } } }), 201);
  for (let i = 0; i < 50; i += 1) {
    await dataOf(await server.request('/api/books', { method: 'POST', token, json: { data: { title: `Book ${i}`, author: writer.documentId } } }), 201);
  }
});

afterAll(async () => {
  await server.close();
});

const gql = async (query: string, variables?: Json): Promise<{ status: number; body: Json; statements: number }> => {
  const before = server.server.services.database.queryCount();
  const res = await server.request('/graphql', { method: 'POST', json: { query, ...(variables ? { variables } : {}) }, token });
  const body = (await res.json()) as Json;
  return { status: res.status, body, statements: server.server.services.database.queryCount() - before };
};

/** A refused query's answer and its statements beside those of a query refused by validation (the caller and the locales are read before either). */
const refused = async (query: string, variables?: Json): Promise<{ body: Json; extra: number }> => {
  await gql('{ nope }'); // the first request after writes resolves the caller afresh
  const validationOnly = await gql('{ nope }');
  expect(validationOnly.status).toBe(400);
  const { status, body, statements } = await gql(query, variables);
  expect(status).toBe(400);
  return { body, extra: statements - validationOnly.statements };
};

const refusal = (cost: string) => ({
  errors: [
    {
      message: `The query may return too many entries: its cost is ${cost} entities, at most 1,000,000 are accepted (pass smaller pagination limits or select fewer nested lists)`,
      locations: [{ line: 1, column: 1 }],
      extensions: { code: 'BAD_USER_INPUT' },
    },
  ],
});

describe('GraphQL cost limit', () => {
  it('refuses the 50 books x author x books query of 10 levels with a 400 BAD_USER_INPUT, reading nothing', async () => {
    const query = '{ books(pagination: { limit: 50 }) { author { books { author { books { author { books { author { books { title } } } } } } } } } }';
    // 50 books, each 1 author + 25 books (the default page of an unpaginated relation list), four times over.
    expect(await refused(query)).toEqual({ body: refusal('21,158,850'), extra: 0 });
  });

  it('runs a query just under the limit and refuses the next page size up; pagination variables are honoured', async () => {
    // authors 100 x books 100 x (author 1 + books $n): 100 x (1 + 100 x (1 + 1 + $n)).
    const query = 'query Q($n: Int) { authors(pagination: { limit: 100 }) { name books(pagination: { limit: 100 }) { author { books(pagination: { limit: $n }) { title } } } } }';
    const under = await gql(query, { n: 97 });
    expect(under.status, JSON.stringify(under.body)).toBe(200);
    expect(under.body.errors).toBeUndefined();
    const books = (under.body.data as { authors: Array<{ books: Array<{ author: { books: unknown[] } }> }> }).authors[0]?.books ?? [];
    expect(books).toHaveLength(50);
    expect(books[0]?.author.books).toHaveLength(50);
    expect(await refused(query, { n: 98 })).toEqual({ body: refusal('1,000,100'), extra: 0 });
    // limit: -1 is the max limit (100): over as well.
    expect((await gql(query, { n: -1 })).body).toEqual(refusal('1,020,100'));
  });

  it('counts every alias and every fragment (named and inline), and connections by their page', async () => {
    // One alias of the just-under query passes; the same selection twice is over.
    const inner = 'books(pagination: { limit: 100 }) { author { books(pagination: { limit: 48 }) { title } } }';
    const one = `{ a: authors(pagination: { limit: 100 }) { ${inner} } }`;
    expect((await gql(one)).status).toBe(200);
    const twice = `{ a: authors(pagination: { limit: 100 }) { ${inner} } b: authors(pagination: { limit: 100 }) { ${inner} } }`;
    expect((await gql(twice)).body).toEqual(refusal('1,000,200'));
    const viaFragments = `query { a: authors(pagination: { limit: 100 }) { ...F } b: authors(pagination: { limit: 100 }) { ... on Author { ${inner} } } } fragment F on Author { ${inner} }`;
    expect((await gql(viaFragments)).body).toEqual(refusal('1,000,200'));
    const connection = `{ authors_connection(pagination: { pageSize: 100 }) { nodes { ${inner} } pageInfo { total } } x: authors_connection(pagination: { pageSize: 100 }) { nodes { ${inner} } } }`;
    expect((await gql(connection)).body).toEqual(refusal('1,000,201'));
  });

  it('answers 40 fragments that each spread the next one twice (2^40 paths): each fragment is measured once', async () => {
    const fragments = Array.from({ length: 40 }, (_, i) => `fragment F${i} on Author { name ${i < 39 ? `...F${i + 1} ...F${i + 1}` : ''} }`).join(' ');
    const { status, body } = await gql(`query { authors(pagination: { limit: 1 }) { ...F0 } } ${fragments}`);
    expect({ status, body }).toEqual({ status: 200, body: { data: { authors: [{ name: 'Writer' }] } } });
    // The last fragment reads a list: spread 2^39 times over, merged by graphql-js into one selection, costed once (1 author + 1 book).
    const lists = Array.from({ length: 40 }, (_, i) => `fragment L${i} on Author { name ${i < 39 ? `...L${i + 1} ...L${i + 1}` : 'books(pagination: { limit: 1 }) { title }'} }`).join(' ');
    const listed = await gql(`query { authors(pagination: { limit: 1 }) { ...L0 } } ${lists}`);
    expect(listed.status, JSON.stringify(listed.body)).toBe(200);
    expect(listed.body).toEqual({ data: { authors: [{ name: 'Writer', books: [{ title: expect.any(String) }] }] } });
  });
});

describe('GraphQL relation lists', () => {
  it('answers an unpaginated relation list as the default page (25 of 50), as Strapi; pagination reads more, up to the max limit', async () => {
    const titles = async (args: string) => {
      const { status, body } = await gql(`{ authors { books${args} { title } books_connection${args} { nodes { title } } } }`);
      expect(status, JSON.stringify(body)).toBe(200);
      const [writer] = (body.data as { authors: Array<{ books: unknown[]; books_connection: { nodes: unknown[] } }> }).authors;
      expect(writer?.books_connection.nodes.length).toBe(writer?.books.length);
      return writer?.books.length;
    };
    expect(await titles('')).toBe(25);
    expect(await titles('(pagination: { limit: -1 })')).toBe(50);
    expect(await titles('(pagination: { page: 2, pageSize: 20 })')).toBe(20);
  });
});

describe('GraphQL cost of the recorded transcripts', () => {
  it('keeps every transcript recorded against Strapi 5.54 under MAX_GRAPHQL_COST (defaultLimit 25, maxLimit 100, as recorded)', () => {
    const dir = resolve(import.meta.dirname, '../fixtures/strapi/graphql');
    const schema = buildSchema(readFileSync(join(dir, 'schema.graphql'), 'utf8'));
    let costed = 0;
    for (const file of readdirSync(join(dir, 'transcripts')).filter((f) => /^\d{3}-.*\.json$/.test(f))) {
      const { request } = JSON.parse(readFileSync(join(dir, 'transcripts', file), 'utf8')) as { request: { method: string; path: string; query?: string; variables?: Json | null; rawBody?: string } };
      let { query, variables } = request;
      let operationName: string | undefined;
      if (query === undefined && request.method === 'GET') {
        const url = new URL(request.path, 'http://localhost');
        query = url.searchParams.get('query') ?? undefined;
        const vars = url.searchParams.get('variables');
        variables = vars ? (JSON.parse(vars) as Json) : null;
        operationName = url.searchParams.get('operationName') ?? undefined;
      }
      if (typeof query !== 'string') continue;
      let document;
      try {
        document = parse(query);
      } catch {
        continue; // a parse error is answered before any cost
      }
      if (validate(schema, document).length > 0) continue;
      const operation = getOperationAST(document, operationName);
      if (!operation) continue;
      const refused = costError({ schema, document, operation, variables: variables ?? undefined, limits: { defaultLimit: 25, maxLimit: 100 }, max: MAX_GRAPHQL_COST });
      expect(refused?.message, file).toBeUndefined();
      costed += 1;
    }
    expect(costed).toBeGreaterThan(130);
  });
});
