import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { collection, dataOf, expectJson, writeProject } from '../helpers/project.js';
import { fixture } from '../uploads/helpers.js';
import { adminRequest, registerOwner } from './helpers.js';

type Json = Record<string, unknown>;
let server: TestServer;
let root: string;
let admin: ReturnType<typeof adminRequest>;
let session: string;

const shelf = (attributes: Json, collectionName = 'shelves') => ({ ...collection('shelf', 'shelves', attributes), collectionName });
const item = (attributes: Json) => collection('item', 'items', attributes);
const schemaOf = async (name: string): Promise<Json> => JSON.parse(await readFile(join(root, 'src', 'api', name, 'content-types', name, 'schema.json'), 'utf8')) as Json;
const api = (path: string, init: RequestInit & { json?: unknown } = {}) => server.request(path, { ...init, token: session });
const put = (uid: string, json: unknown) => admin(`/admin/api/content-types/${uid}`, { method: 'PUT', json });

beforeAll(async () => {
  root = await writeProject({
    types: {
      item: item({ label: { type: 'string' } }),
      shelf: shelf({
        name: { type: 'string' },
        items: { type: 'relation', relation: 'oneToMany', target: 'api::item.item', mappedBy: 'shelf' },
        photo: { type: 'media', multiple: false },
        spec: { type: 'component', repeatable: false, component: 'shared.spec' },
      }),
    },
    components: { 'shared.spec': { attributes: { width: { type: 'integer' } } } },
  });
  // The item's owner side, declared by hand as a Strapi project would have it.
  const itemSchema = item({ label: { type: 'string' }, shelf: { type: 'relation', relation: 'manyToOne', target: 'api::shelf.shelf', inversedBy: 'items' } });
  await writeProject({ types: { item: itemSchema } }, root);
  server = await startTestServer({ schemas: root });
  session = await registerOwner(server);
  admin = adminRequest(server, session);
});
afterAll(() => server.close());

describe('renames keep data of every kind of attribute', () => {
  it('relations (both sides follow), media, components, and a new collectionName', async () => {
    const form = new FormData();
    form.append('files', new Blob([fixture('blue-64x48.jpg')], { type: 'image/jpeg' }), 'shelf.jpg');
    const [photo] = await expectJson<{ id: number }[]>(await api('/api/upload', { method: 'POST', body: form }), 201);
    const a = await dataOf(await api('/api/items', { method: 'POST', json: { data: { label: 'A' } } }), 201);
    const s = await dataOf(await api('/api/shelves', { method: 'POST', json: { data: { name: 'Top', items: [a.documentId], photo: photo?.id, spec: { width: 80 } } } }), 201);

    // Rename the owner side on the item: the shelf's mappedBy follows.
    const itemRenamed = item({ label: { type: 'string' }, rack: { type: 'relation', relation: 'manyToOne', target: 'api::shelf.shelf', inversedBy: 'items' } });
    await expectJson(await put('api::item.item', { contentType: itemRenamed, renames: { shelf: 'rack' } }), 200);
    expect(((await schemaOf('shelf')).attributes as Json).items).toEqual({ type: 'relation', relation: 'oneToMany', target: 'api::item.item', mappedBy: 'rack' });
    expect(await dataOf(await api(`/api/items/${a.documentId}?populate=rack`))).toMatchObject({ rack: { name: 'Top' } });

    // Rename the inverse side, the media and the component on the shelf, and move its tables.
    const shelfRenamed = shelf(
      {
        title: { type: 'string' },
        things: { type: 'relation', relation: 'oneToMany', target: 'api::item.item', mappedBy: 'rack' },
        picture: { type: 'media', multiple: false },
        details: { type: 'component', repeatable: false, component: 'shared.spec' },
      },
      'storage_shelves',
    );
    const renames = { name: 'title', items: 'things', photo: 'picture', spec: 'details' };
    await expectJson(await put('api::shelf.shelf', { contentType: shelfRenamed, renames }), 200);
    expect(((await schemaOf('item')).attributes as Json).rack).toEqual({ type: 'relation', relation: 'manyToOne', target: 'api::shelf.shelf', inversedBy: 'things' });
    const after = await dataOf(await api(`/api/shelves/${s.documentId}?populate=*`));
    expect(after).toMatchObject({ title: 'Top', things: [{ label: 'A' }], picture: { id: photo?.id }, details: { width: 80 } });
    const tables = (await server.server.services.database.db.introspection.getTables()).map((t) => t.name);
    expect(tables).toEqual(expect.arrayContaining(['storage_shelves', 'storage_shelves_cmps', 'items_rack_lnk']));
    expect(tables).not.toContain('shelves');
    expect(tables).not.toContain('items_shelf_lnk');
  });

  it('changing a relation target drops its links, with confirmation', async () => {
    const retargeted = item({ label: { type: 'string' }, rack: { type: 'relation', relation: 'manyToOne', target: 'api::item.item' } });
    const refused = await expectJson<{ error: { details: unknown } }>(await put('api::item.item', { contentType: retargeted }), 400);
    expect(refused.error.details).toEqual({ dataLoss: [{ uid: 'api::item.item', attribute: 'rack', rows: 1, documents: 1 }] });
    await expectJson(await put('api::item.item', { contentType: retargeted, confirmDataLoss: true }), 200);
    expect(((await schemaOf('shelf')).attributes as Json).things).toBeUndefined();
    const [first] = (await expectJson<{ data: Json[] }>(await api('/api/items?populate=rack'), 200)).data;
    expect(first).toMatchObject({ label: 'A', rack: null });
  });
});

describe('the registry of a request', () => {
  it('stays the one the request started with while a change is applied', async () => {
    const { schemas } = server.server.services;
    const before = schemas.current();
    await schemas.pin(async () => {
      await expectJson(await put('api::item.item', { contentType: item({ label: { type: 'string' }, note: { type: 'text' } }), confirmDataLoss: true }), 200);
      expect(schemas.current()).toBe(before);
    });
    expect(schemas.current()).not.toBe(before);
    expect(schemas.current().model('api::item.item')?.attributes.has('note')).toBe(true);
  });
});
