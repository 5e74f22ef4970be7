import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { collection, expectJson, writeProject, type Doc } from '../helpers/project.js';
import { fixture } from '../uploads/helpers.js';
import { adminRequest, registerOwner } from './helpers.js';

let server: TestServer;
let admin: ReturnType<typeof adminRequest>;
let session: string;

type Folder = { id: number; name: string; pathId: number; path: string; parent: number | null; children: { count: number }; files: { count: number } };
type File = { id: number; name: string; folderPath?: string; mime: string };

beforeAll(async () => {
  const schemas = await writeProject({
    types: {
      post: collection(
        'post',
        'posts',
        {
          title: { type: 'string', pluginOptions: { i18n: { localized: true } } },
          cover: { type: 'media', multiple: false, allowedTypes: ['images', 'files'] },
          hero: { type: 'component', repeatable: false, component: 'shared.picture' },
        },
        { draftAndPublish: true, localized: true },
      ),
    },
    components: { 'shared.picture': { attributes: { caption: { type: 'string' }, image: { type: 'media', multiple: false } } } },
  });
  server = await startTestServer({ schemas });
  session = await registerOwner(server);
  admin = adminRequest(server, session);
});
afterAll(() => server.close());

/** Uploads a JPEG (`.jpg` names) or a text file under the given name. */
async function upload(name: string): Promise<File> {
  const form = new FormData();
  const jpeg = name.endsWith('.jpg');
  form.append('files', new Blob([jpeg ? fixture('blue-64x48.jpg') : 'some notes'], { type: jpeg ? 'image/jpeg' : 'text/plain' }), name);
  const [file] = await expectJson<File[]>(await server.request('/api/upload', { method: 'POST', body: form, token: session }), 201);
  if (!file) throw new Error('no file');
  return file;
}

const folders = async (query = '') => (await expectJson<{ data: Folder[] }>(await admin(`/admin/api/upload/folders${query}`), 200)).data;
const create = async (json: unknown) => (await expectJson<{ data: Folder }>(await admin('/admin/api/upload/folders', { method: 'POST', json }), 201)).data;
const files = async (query = '') => expectJson<{ data: File[]; meta: { pagination: Record<string, number> } }>(await admin(`/admin/api/upload/files${query}`), 200);

describe('folders', () => {
  it('creates nested folders, refuses duplicate names under one parent, renames and moves them with their files', async () => {
    const photos = await create({ name: 'Photos' });
    expect(photos).toMatchObject({ name: 'Photos', pathId: 1, path: '/1', parent: null, children: { count: 0 }, files: { count: 0 } });
    const trips = await create({ name: 'Trips', parent: photos.id });
    expect(trips).toMatchObject({ path: '/1/2', parent: photos.id });
    const archive = await create({ name: 'Archive' });
    expect(await expectJson(await admin('/admin/api/upload/folders', { method: 'POST', json: { name: 'Trips', parent: photos.id } }), 400)).toEqual({
      data: null,
      error: {
        status: 400,
        name: 'ValidationError',
        message: 'A folder with this name already exists here',
        details: { errors: [{ path: ['name'], message: 'A folder with this name already exists here', name: 'ValidationError' }] },
      },
    });
    expect((await folders()).map((f) => [f.name, f.children.count])).toEqual([['Archive', 0], ['Photos', 1]]);
    expect((await folders(`?parent=${photos.id}`)).map((f) => f.name)).toEqual(['Trips']);

    const file = await upload('beach.jpg');
    await expectJson(await admin(`/admin/api/upload/files/${file.id}/move`, { method: 'POST', json: { folder: trips.id } }), 200);
    expect((await folders(`?parent=${photos.id}`))[0]?.files.count).toBe(1);

    const moved = (await expectJson<{ data: Folder }>(await admin(`/admin/api/upload/folders/${photos.id}`, { method: 'PUT', json: { name: 'Pictures', parent: archive.id } }), 200)).data;
    expect(moved).toMatchObject({ name: 'Pictures', path: '/3/1', parent: archive.id });
    expect((await folders(`?parent=${moved.id}`))[0]).toMatchObject({ name: 'Trips', path: '/3/1/2' });
    const row = await server.server.services.database.db.selectFrom('hearth_files').select('folderPath').where('id', '=', file.id).executeTakeFirst();
    expect(row?.folderPath).toBe('/3/1/2');
    expect((await admin(`/admin/api/upload/folders/${archive.id}`, { method: 'PUT', json: { parent: trips.id } })).status).toBe(400);

    const removed = (await expectJson<{ data: Folder }>(await admin(`/admin/api/upload/folders/${archive.id}`, { method: 'DELETE' }), 200)).data;
    expect(removed.name).toBe('Archive');
    // Uploads through the REST API land in Strapi's "API Uploads" folder.
    expect((await folders()).map((f) => f.name)).toEqual(['API Uploads']);
    expect((await server.request(`/api/upload/files/${file.id}`, { token: session })).status).toBe(404);
  });
});

describe('the file list', () => {
  it('pages, filters by folder, type and name, and sorts', async () => {
    const docs = await create({ name: 'Docs' });
    const a = await upload('alpha.jpg');
    const b = await upload('beta.txt');
    await upload('gamma.txt');
    await expectJson(await admin(`/admin/api/upload/files/${b.id}/move`, { method: 'POST', json: { folder: docs.id } }), 200);
    const all = await files('?sort=name:asc');
    expect(all.data.map((f) => f.name)).toEqual(['alpha.jpg', 'beta.txt', 'gamma.txt']);
    expect(all.meta).toEqual({ pagination: { page: 1, pageSize: 10, pageCount: 1, total: 3 } });
    expect((await files('?mime=image')).data.map((f) => f.name)).toEqual(['alpha.jpg']);
    expect((await files('?mime=file&sort=name:asc')).data.map((f) => f.name)).toEqual(['beta.txt', 'gamma.txt']);
    expect((await files('?mime=audio')).data).toEqual([]);
    expect((await files(`?folder=${docs.id}`)).data.map((f) => f.name)).toEqual(['beta.txt']);
    expect((await files('?_q=AMM')).data.map((f) => f.name)).toEqual(['gamma.txt']);
    const second = await files('?sort=name:desc&page=2&pageSize=2');
    expect(second.data.map((f) => f.name)).toEqual(['alpha.jpg']);
    expect(second.meta).toEqual({ pagination: { page: 2, pageSize: 2, pageCount: 2, total: 3 } });
    expect((await admin('/admin/api/upload/files?mime=pdf')).status).toBe(400);
    expect((await admin(`/admin/api/upload/files/${a.id}/move`, { method: 'POST', json: { folder: 999 } })).status).toBe(400);
    await expectJson(await admin(`/admin/api/upload/files/${b.id}/move`, { method: 'POST', json: { folder: null } }), 200);
    expect((await files(`?folder=${docs.id}`)).data).toEqual([]);
  });
});

describe('where-used', () => {
  it('lists each document and locale using a file, through components too (non-localized fields are in every locale)', async () => {
    await server.server.services.locales.add({ code: 'fr' });
    const image = await upload('used.jpg');
    const unused = await upload('unused.jpg');
    const post = (await expectJson<{ data: Doc }>(await server.request('/api/posts', { method: 'POST', token: session, json: { data: { title: 'Cover story', cover: image.id } } }), 201)).data;
    await expectJson(
      await server.request(`/api/posts/${post.documentId}?locale=fr`, { method: 'PUT', token: session, json: { data: { title: 'Couverture', hero: { caption: 'c', image: image.id } } } }),
      200,
    );
    const used = await expectJson<{ data: unknown[] }>(await admin(`/admin/api/upload/files/${image.id}/where-used`), 200);
    expect(used.data).toEqual([
      { uid: 'api::post.post', documentId: post.documentId, locale: 'en', field: 'cover', displayName: 'post', title: 'Cover story' },
      { uid: 'api::post.post', documentId: post.documentId, locale: 'en', field: 'hero.image', displayName: 'post', title: 'Cover story' },
      { uid: 'api::post.post', documentId: post.documentId, locale: 'fr', field: 'cover', displayName: 'post', title: 'Couverture' },
      { uid: 'api::post.post', documentId: post.documentId, locale: 'fr', field: 'hero.image', displayName: 'post', title: 'Couverture' },
    ]);
    expect(await expectJson(await admin(`/admin/api/upload/files/${unused.id}/where-used`), 200)).toEqual({ data: [] });
    expect((await admin('/admin/api/upload/files/9999/where-used')).status).toBe(404);
  });
});
