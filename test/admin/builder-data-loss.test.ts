import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { collection, dataOf, expectJson, writeProject } from '../helpers/project.js';
import { adminRequest, registerOwner } from './helpers.js';

let server: TestServer;
let admin: ReturnType<typeof adminRequest>;
let token: string;

const localized = { pluginOptions: { i18n: { localized: true } } };
const noteAttributes = {
  title: { type: 'string', ...localized },
  tags: { type: 'relation', relation: 'manyToMany', target: 'api::tag.tag' },
  block: { type: 'component', component: 'shared.block', ...localized },
};
const note = (attributes: Record<string, unknown>, draftAndPublish = true) => collection('note', 'notes', attributes, { draftAndPublish, localized: true });
const block = { collectionName: 'components_shared_blocks', info: { displayName: 'block' }, options: {}, attributes: { caption: { type: 'string' }, leaf: { type: 'component', component: 'shared.leaf' } } };
const leaf = { collectionName: 'components_shared_leaves', info: { displayName: 'leaf' }, options: {}, attributes: { text: { type: 'string' } } };

beforeAll(async () => {
  const schemas = await writeProject({
    types: { note: note(noteAttributes), tag: collection('tag', 'tags', { name: { type: 'string' } }) },
    components: { 'shared.block': block, 'shared.leaf': leaf },
  });
  server = await startTestServer({ schemas });
  await server.server.services.locales.add({ code: 'fr' });
  token = await server.token('full-access');
  admin = adminRequest(server, await registerOwner(server));

  const api = (path: string, init: Parameters<TestServer['request']>[1] = {}) => server.request(path, { token, ...init });
  const red = await dataOf(await api('/api/tags', { method: 'POST', json: { data: { name: 'red' } } }), 201);
  const blue = await dataOf(await api('/api/tags', { method: 'POST', json: { data: { name: 'blue' } } }), 201);
  // Three documents, seven rows: A is published in en and fr (a draft and a published row each),
  // B is published in en, C is an en draft never published.
  const a = await dataOf(await api('/api/notes', { method: 'POST', json: { data: { title: 'A', tags: [red.documentId, blue.documentId], block: { caption: 'c', leaf: { text: 'deep' } } } } }), 201);
  await dataOf(await api(`/api/notes/${a.documentId}?locale=fr`, { method: 'PUT', json: { data: { title: 'A fr', block: { caption: 'c fr' } } } }));
  await dataOf(await api('/api/notes', { method: 'POST', json: { data: { title: 'B' } } }), 201);
  await dataOf(await api('/api/notes?status=draft', { method: 'POST', json: { data: { title: 'C' } } }), 201);
});
afterAll(() => server.close());

/** The data-loss details a save without confirmation answers. */
async function lossOf(path: string, body: Record<string, unknown>): Promise<unknown> {
  const refused = await expectJson<{ error: { name: string; details: { dataLoss: unknown } } }>(await admin(path, { method: 'PUT', json: body }), 400);
  expect(refused.error.name).toBe('ApplicationError');
  return refused.error.details.dataLoss;
}

const withoutKey = (key: string) => Object.fromEntries(Object.entries(noteAttributes).filter(([name]) => name !== key));

describe('the data-loss confirmation counts documents, not rows', () => {
  it('the setup holds seven rows of three documents', async () => {
    const rows = await server.server.services.database.db.selectFrom('notes').select(['documentId', 'locale', 'publishedAt']).execute();
    expect(rows).toHaveLength(7);
    expect(new Set(rows.map((r) => r.documentId)).size).toBe(3);
  });

  it('removing an attribute every version holds: 7 rows, 3 documents', async () => {
    expect(await lossOf('/admin/api/content-types/api::note.note', { contentType: note(withoutKey('title')) })).toEqual([{ uid: 'api::note.note', attribute: 'title', rows: 7, documents: 3 }]);
  });

  it('removing a relation: its links, and the one document holding them', async () => {
    // A's two tags, in its en draft and published versions; the fr versions share them (relations follow the locale they are set in).
    const [loss] = (await lossOf('/admin/api/content-types/api::note.note', { contentType: note(withoutKey('tags')) })) as { rows: number; documents: number }[];
    expect(loss).toMatchObject({ uid: 'api::note.note', attribute: 'tags', documents: 1 });
    expect(loss?.rows).toBeGreaterThanOrEqual(4);
  });

  it('removing a component attribute counts the documents holding the component', async () => {
    expect(await lossOf('/admin/api/content-types/api::note.note', { contentType: note(withoutKey('block')) })).toEqual([{ uid: 'api::note.note', attribute: 'block', rows: 4, documents: 1 }]);
  });

  it("removing a nested component's attribute counts the documents that hold it, through the nesting", async () => {
    const { collectionName, info, options } = leaf;
    const loss = await lossOf('/admin/api/components/shared.leaf', { component: { category: 'shared', collectionName, info, options, attributes: { other: { type: 'string' } } } });
    // The en draft and published versions of A hold the leaf; the fr ones were saved without it.
    expect(loss).toEqual([{ uid: 'shared.leaf', attribute: 'text', rows: 2, documents: 1 }]);
  });

  it('deleting the type counts its documents', async () => {
    const refused = await expectJson<{ error: { details: unknown } }>(await admin('/admin/api/content-types/api::note.note', { method: 'DELETE' }), 400);
    expect(refused.error.details).toEqual({ dataLoss: [{ uid: 'api::note.note', rows: 7, documents: 3 }] });
  });

  it('switching draft & publish off counts the documents whose drafts would go', async () => {
    const api = (path: string, init: Parameters<TestServer['request']>[1] = {}) => server.request(path, { token, ...init });
    const [c] = (await expectJson<{ data: { documentId: string }[] }>(await api('/api/notes?status=draft&filters[title][$eq]=C'), 200)).data;
    await dataOf(await api(`/api/notes/${c?.documentId}?locale=fr&status=draft`, { method: 'PUT', json: { data: { title: 'C fr' } } }));
    expect(await lossOf('/admin/api/content-types/api::note.note', { contentType: note(noteAttributes, false) })).toEqual([{ uid: 'api::note.note', rows: 2, documents: 1 }]);
  });
});
