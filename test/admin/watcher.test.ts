import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { collection, dataOf, expectJson, writeProject } from '../helpers/project.js';
import { adminRequest, eventually, registerOwner } from './helpers.js';

let server: TestServer;
let root: string;
let token: string;
let admin: ReturnType<typeof adminRequest>;

const schemaFile = (name: string) => join(root, 'src', 'api', name, 'content-types', name, 'schema.json');
const writeSchema = async (name: string, schema: unknown) => {
  await mkdir(join(root, 'src', 'api', name, 'content-types', name), { recursive: true });
  await writeFile(schemaFile(name), JSON.stringify(schema, null, 2));
};
const attributesOf = (uid: string) => [...(server.server.services.registry().model(uid)?.attributes.keys() ?? [])];

beforeAll(async () => {
  root = await writeProject({ types: { memo: collection('memo', 'memos', { text: { type: 'string' } }) } });
  server = await startTestServer({ schemas: root });
  token = await server.token('full-access');
  admin = adminRequest(server, await registerOwner(server));
});
afterAll(() => server.close());

describe('hand edits of the schemas folder', () => {
  it('are picked up without a restart: a new attribute and a new type', async () => {
    await dataOf(await server.request('/api/memos', { method: 'POST', token, json: { data: { text: 'kept' } } }), 201);
    await writeSchema('memo', collection('memo', 'memos', { text: { type: 'string' }, pinned: { type: 'boolean' } }));
    await eventually(async () => attributesOf('api::memo.memo').includes('pinned'));
    const [memo] = (await expectJson<{ data: Record<string, unknown>[] }>(await server.request('/api/memos', { token }), 200)).data;
    expect(memo).toMatchObject({ text: 'kept', pinned: null });

    await writeSchema('todo', collection('todo', 'todos', { task: { type: 'string' } }));
    await eventually(async () => (await server.request('/api/todos', { token })).status === 200);
    await dataOf(await server.request('/api/todos', { method: 'POST', token, json: { data: { task: 'write tests' } } }), 201);
  });

  it('an invalid folder state logs one line and keeps the running schemas; fixing it applies it', async () => {
    const before = server.server.services.registry();
    const logged = server.logs.length;
    await writeFile(schemaFile('memo'), '{ "kind": "collectionType", ');
    await eventually(async () => server.logs.length > logged);
    expect(server.logs.slice(logged)).toEqual([expect.stringMatching(/^schemas: .* has an invalid schema, keeping the running one: .*not valid JSON/)]);
    expect(server.server.services.registry()).toBe(before);
    await expectJson(await server.request('/api/memos', { token }), 200);

    await writeSchema('memo', collection('memo', 'memos', { text: { type: 'string' }, pinned: { type: 'boolean' }, color: { type: 'string' } }));
    await eventually(async () => attributesOf('api::memo.memo').includes('color'));
  });

  it("ignores the builder's own writes: they cause no reload", async () => {
    const reloads = () => server.logs.filter((l) => l.startsWith('schemas: reloaded')).length;
    const before = reloads();
    const note = collection('note', 'notes', { body: { type: 'text' } });
    await expectJson(await admin('/admin/api/content-types', { method: 'POST', json: { contentType: note } }), 201);
    // A hand edit right after: whatever the timing, exactly one reload follows (the builder's write finds nothing new).
    await writeSchema('memo', collection('memo', 'memos', { text: { type: 'string' }, pinned: { type: 'boolean' }, color: { type: 'string' }, size: { type: 'integer' } }));
    await eventually(async () => attributesOf('api::memo.memo').includes('size'));
    await server.server.services.schemas.idle();
    expect(reloads() - before).toBe(1);
    expect(attributesOf('api::note.note')).toEqual(['body']);
  });
});
