import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { saveContentType } from '../../server/schema/builder.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { collection, expectJson, writeProject } from '../helpers/project.js';

type Json = Record<string, unknown>;
let server: TestServer;

const item = (attributes: Json) => collection('item', 'items', attributes);
const shelf = collection('shelf', 'shelves', { name: { type: 'string' }, items: { type: 'relation', relation: 'oneToMany', target: 'api::item.item' } });
// Parsed with the registry: `note` must be an attribute of the relation's target.
const createShelf = (token: string) => server.request('/api/shelves?populate[items][fields][0]=note', { method: 'POST', json: { data: { name: 'S' } }, token });

beforeAll(async () => {
  const root = await writeProject({ types: { item: item({ label: { type: 'string' } }), shelf } });
  server = await startTestServer({ schemas: root });
});

afterAll(async () => {
  await server.close();
});

describe('a content-type change applied while a request is in flight', () => {
  it('does not reach a content-API request that started before it', async () => {
    const token = await server.token('full-access');
    const { schemas } = server.server.services;
    let inFlight: Promise<Response> | undefined;
    await schemas.apply(
      (registry) => saveContentType(registry, { uid: 'api::item.item', schema: item({ label: { type: 'string' }, note: { type: 'string' } }) }),
      async () => {
        // Sent while the change's transaction runs: on SQLite the new token's lookup waits for the
        // connection the transaction holds, so the rest of the request (its query's parse) runs after
        // the swap. (A GET would wait in the response cache's front door, before the app.)
        inFlight = createShelf(token);
        await new Promise((resolve) => setTimeout(resolve, 300));
      },
    );
    expect(schemas.current().contentType('api::item.item')?.attributes.has('note')).toBe(true);
    if (inFlight === undefined) throw new Error('the request was not sent');
    // It started with the registry before the change, where `note` is no attribute of an item.
    const refused = await expectJson<{ error: { message: string } }>(await inFlight, 400);
    expect(refused.error.message).toBe('Invalid key note');
    // A request that starts after the change has it.
    const created = await expectJson<{ data: Json }>(await createShelf(token), 201);
    expect(created.data).toMatchObject({ name: 'S', items: [] });
  });
});
