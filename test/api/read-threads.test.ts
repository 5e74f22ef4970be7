import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collection, dataOf, listOf, writeProject, type Doc } from '../helpers/project.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

/**
 * Computed reads on SQLite run on read threads (documents/read-pool.ts): each thread has its own
 * read-only connection to the data dir's file. Every answer is also compared byte for byte with
 * the JS path on the server's connection (verifyReads, on in every test server). On PostgreSQL
 * there are no read threads (the database server already runs queries in its own processes).
 */

let server: TestServer;
let full: string;
let recipes: Doc[] = [];

const schemaOf = async () =>
  writeProject({
    types: {
      recipe: collection(
        'recipe',
        'recipes',
        {
          title: { type: 'string' },
          rating: { type: 'decimal' },
          cuisine: { type: 'relation', relation: 'manyToOne', target: 'api::cuisine.cuisine' },
          steps: { type: 'component', component: 'recipe.step', repeatable: true },
        },
        { draftAndPublish: true },
      ),
      cuisine: collection('cuisine', 'cuisines', { name: { type: 'string' } }, { draftAndPublish: true }),
    },
    components: { 'recipe.step': { attributes: { text: { type: 'text' }, minutes: { type: 'integer' } } } },
  });

beforeAll(async () => {
  server = await startTestServer({ schemas: await schemaOf(), env: { HEARTH_RESPONSE_CACHE: 'false', HEARTH_READ_THREADS: '2' } });
  full = await server.token('full-access');
  const cuisine = await dataOf(await server.request('/api/cuisines', { method: 'POST', token: full, json: { data: { name: 'Italian' } } }), 201);
  recipes = [];
  for (let n = 0; n < 6; n++) {
    const data = { title: `recipe ${n}`, rating: n + 0.25, cuisine: cuisine.documentId, steps: [{ text: `step ${n}`, minutes: n }] };
    recipes.push(await dataOf(await server.request('/api/recipes', { method: 'POST', token: full, json: { data } }), 201));
  }
});

afterAll(async () => {
  await server?.close();
});

const sqlite = () => server.server.services.database.kind === 'sqlite';

describe('read threads', () => {
  it('build computed populated reads on SQLite, the same bytes as the JS path', async () => {
    const before = server.server.services.documents.readThreads();
    const list = await listOf(await server.request('/api/recipes?populate=*&sort=id', { token: full }));
    expect(list.map((r) => r.title)).toEqual(recipes.map((r) => r.title));
    expect(list[0]?.cuisine).toMatchObject({ name: 'Italian' });
    expect(list[0]?.steps).toEqual([{ id: expect.any(Number) as number, text: 'step 0', minutes: 0 }]);
    const one = await dataOf(await server.request(`/api/recipes/${recipes[2]?.documentId}?populate=*`, { token: full }));
    expect(one.rating).toBe(2.25);
    const after = server.server.services.documents.readThreads();
    if (sqlite()) {
      // The sorted page (its ids, then its rows' JSON) and the single document: statements answered by the threads.
      expect(after.reads - before.reads).toBeGreaterThanOrEqual(3);
      expect(after.threads).toBe(2);
    } else {
      expect(after).toEqual({ threads: 0, reads: 0 });
    }
  });

  it('see a write as soon as it is answered', async () => {
    const target = recipes[1] as Doc;
    for (let n = 0; n < 20; n++) {
      const title = `renamed ${n}`;
      await dataOf(await server.request(`/api/recipes/${target.documentId}`, { method: 'PUT', token: full, json: { data: { title } } }));
      const [shown] = await listOf(await server.request(`/api/recipes?populate=*&filters[documentId][$eq]=${target.documentId}`, { token: full }));
      expect(shown?.title).toBe(title);
      const one = await dataOf(await server.request(`/api/recipes/${target.documentId}?populate=*`, { token: full }));
      expect(one.title).toBe(title);
    }
  });

  it('answer many reads at once, each its own page', async () => {
    const answers = await Promise.all(
      Array.from({ length: 24 }, async (_, n) => {
        const page = (n % 3) + 1;
        const list = await listOf(await server.request(`/api/recipes?populate=*&sort=rating&pagination[page]=${page}&pagination[pageSize]=2`, { token: full }));
        return { page, ids: list.map((r) => r.documentId) };
      }),
    );
    for (const { page, ids } of answers) expect(ids).toEqual(recipes.slice((page - 1) * 2, page * 2).map((r) => r.documentId));
  });

  it('end when the server closes', async () => {
    const other = await startTestServer({ schemas: await schemaOf(), env: { HEARTH_RESPONSE_CACHE: 'false', HEARTH_READ_THREADS: '1' } });
    try {
      const token = await other.token('full-access');
      await listOf(await other.request('/api/recipes?populate=*', { token }));
      expect(other.server.services.documents.readThreads().threads).toBe(sqlite() ? 1 : 0);
    } finally {
      await other.close();
    }
    expect(other.server.services.documents.readThreads().threads).toBe(0);
  });

  it('are none with HEARTH_READ_THREADS=0: reads run on the server connection', async () => {
    const other = await startTestServer({ schemas: await schemaOf(), env: { HEARTH_RESPONSE_CACHE: 'false', HEARTH_READ_THREADS: '0' } });
    try {
      const token = await other.token('full-access');
      const list = await listOf(await other.request('/api/recipes?populate=*', { token }));
      expect(list).toEqual([]);
      expect(other.server.services.documents.readThreads()).toEqual({ threads: 0, reads: 0 });
    } finally {
      await other.close();
    }
  });
});
