import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collection, dataOf, writeProject } from '../helpers/project.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

/**
 * How `/graphql` reads (issue 18: a GraphQL list cost 3-5 times its REST twin): root lists and
 * documents take REST's SQL-built path (on SQLite, on a read thread), reading only the selected
 * fields; a query text is parsed and validated once, and what validation depends on (the schema,
 * the locale codes) drops what was kept.
 */
type Json = Record<string, unknown>;
let server: TestServer;
let token: string;

const cuisine = collection('cuisine', 'cuisines', { name: { type: 'string' }, notes: { type: 'text' } });
const dish = collection(
  'dish',
  'dishes',
  {
    title: { type: 'string' },
    body: { type: 'richtext' },
    cuisine: { type: 'relation', relation: 'manyToOne', target: 'api::cuisine.cuisine' },
  },
  { localized: true },
);

beforeAll(async () => {
  const root = await writeProject({ types: { cuisine, dish } });
  // Every REST request computed: its statements are compared with GraphQL's.
  server = await startTestServer({ schemas: root, env: { HEARTH_RESPONSE_CACHE: 'false' } });
  token = await server.token('full-access');
  const thai = await dataOf(await server.request('/api/cuisines', { method: 'POST', token, json: { data: { name: 'Thai', notes: 'n'.repeat(2000) } } }), 201);
  for (let i = 0; i < 3; i += 1) {
    await dataOf(await server.request('/api/dishes', { method: 'POST', token, json: { data: { title: `Dish ${i}`, body: 'b'.repeat(5000), cuisine: thai.documentId } } }), 201);
  }
});

afterAll(async () => {
  await server.close();
});

const gql = async (query: string): Promise<{ status: number; body: Json }> => {
  const res = await server.request('/graphql', { method: 'POST', json: { query }, token });
  return { status: res.status, body: (await res.json()) as Json };
};

describe('GraphQL reads', () => {
  it('answers a list and a document through the read threads, as REST does', async () => {
    const reads = () => server.server.services.documents.readThreads().reads;
    const before = reads();
    const list = await gql('{ dishes(sort: "title") { documentId title cuisine { name } } }');
    expect(list.status).toBe(200);
    const dishes = (list.body.data as { dishes: Json[] }).dishes;
    expect(dishes.map((d) => [d.title, d.cuisine])).toEqual([0, 1, 2].map((i) => [`Dish ${i}`, { name: 'Thai' }]));
    expect(reads()).toBeGreaterThan(before);
    const afterList = reads();
    const one = await gql(`{ dish(documentId: "${String(dishes[1]?.documentId)}") { title cuisine { name notes } } }`);
    expect(one).toEqual({ status: 200, body: { data: { dish: { title: 'Dish 1', cuisine: { name: 'Thai', notes: 'n'.repeat(2000) } } } } });
    expect(reads()).toBeGreaterThan(afterList);
  });

  it('runs as many statements on the server\'s connection as its REST twin (no count, the locale codes read again only after a write)', async () => {
    const statements = async (send: () => Promise<Response>): Promise<number> => {
      const before = server.server.services.database.queryCount();
      const res = await send();
      expect(res.status).toBe(200);
      await res.json();
      return server.server.services.database.queryCount() - before;
    };
    const graphql = () => server.request('/graphql', { method: 'POST', json: { query: '{ dishes(pagination: { pageSize: 2 }) { documentId title cuisine { name } } }' }, token });
    const rest = () => server.request('/api/dishes?fields[0]=title&populate[cuisine][fields][0]=name&pagination[pageSize]=2&pagination[withCount]=false', { token });
    await statements(graphql);
    await statements(rest);
    expect(await statements(graphql)).toBe(await statements(rest));
  });

  it('counts a connection once and answers its pageInfo', async () => {
    const { status, body } = await gql('{ dishes_connection(pagination: { pageSize: 2 }) { nodes { title } pageInfo { total page pageSize pageCount } } }');
    expect(status).toBe(200);
    expect(body).toEqual({ data: { dishes_connection: { nodes: [{ title: 'Dish 0' }, { title: 'Dish 1' }], pageInfo: { total: 3, page: 1, pageSize: 2, pageCount: 2 } } } });
  });

  it('answers the same query text again the same, and its validation error the same', async () => {
    const query = '{ dishes(sort: "title", pagination: { limit: 1 }) { title locale publishedAt } }';
    const first = await gql(query);
    expect(first.body.errors).toBeUndefined();
    expect(await gql(query)).toEqual(first);
    const invalid = '{ dishes { title nope } }';
    const refused = await gql(invalid);
    expect(refused.status).toBe(400);
    expect(await gql(invalid)).toEqual(refused);
  });

  it('refuses a kept query again once a locale it names is deleted', async () => {
    const { locales, database } = server.server.services;
    const fr = await locales.add({ code: 'fr' });
    const query = '{ dishes(locale: "fr") { title } }';
    expect(await gql(query)).toEqual({ status: 200, body: { data: { dishes: [] } } });
    expect(await gql(query)).toEqual({ status: 200, body: { data: { dishes: [] } } });
    await database.db.transaction().execute((trx) => locales.remove(trx, fr.id));
    const refused = await gql(query);
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body)).toContain('Unknown locale supplied');
  });
});
