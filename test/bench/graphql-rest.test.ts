import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCHEMAS } from '../../bench/lib/common.js';
import { GRAPHQL_QUERY, REST_PATH, checkSameEntries } from '../../bench/lib/graphql-rest.js';
import { seedRecipes, seedReferences } from '../../bench/lib/seed.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

/**
 * The bench's GraphQL scenario (`npm run bench -- --only graphql`): its GraphQL list (recipes ->
 * cuisine -> region) and its REST twin carry the same entries on a real server with the bench's
 * project, and the check refuses a page where the two relation levels are not all there.
 */
describe('bench: GraphQL list vs its REST twin', () => {
  let server: TestServer;
  let token: string;

  beforeAll(async () => {
    server = await startTestServer({ schemas: SCHEMAS });
    token = await server.token('full-access');
    const refs = await seedReferences(server.url, token);
    await seedRecipes({ url: server.url, token, refs, count: 30, concurrency: 4, slugs: true, checkpoints: [], onCheckpoint: async () => undefined });
  }, 60_000);
  afterAll(async () => {
    await server?.close();
  });

  it('answers the same 25 recipes, cuisines and regions through POST /graphql and through REST populate', async () => {
    const same = await checkSameEntries(server.url, token);
    expect(same.entries).toBe(25);
    expect(GRAPHQL_QUERY).toContain('cuisine { documentId name region { documentId name } }');
    expect(REST_PATH).toContain('pagination[withCount]=false');
  });

  it('refuses to measure when a recipe on the page has no cuisine (the two levels would not be exercised)', async () => {
    // Deleting a cuisine (no draft & publish) leaves its recipes without one, where they stand in the list.
    const page = (await (await server.request(REST_PATH, { token })).json()) as { data: { cuisine: { documentId: string } | null }[] };
    const cuisine = page.data[0]?.cuisine?.documentId;
    expect(typeof cuisine).toBe('string');
    expect((await server.request(`/api/cuisines/${String(cuisine)}`, { method: 'DELETE', token })).status).toBe(204);
    await expect(checkSameEntries(server.url, token)).rejects.toThrow('some recipes lack a cuisine or region');
  });
});
