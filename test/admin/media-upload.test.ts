import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { collection, expectJson, writeProject } from '../helpers/project.js';
import { fixture } from '../uploads/helpers.js';
import { adminRequest, registerOwner, UNAUTHORIZED } from './helpers.js';

let server: TestServer;
let admin: ReturnType<typeof adminRequest>;
let session: string;

type Folder = { id: number; name: string; path: string; files: { count: number } };
type File = { id: number; name: string };

beforeAll(async () => {
  const schemas = await writeProject({ types: { post: collection('post', 'posts', { title: { type: 'string' } }) } });
  server = await startTestServer({ schemas });
  session = await registerOwner(server);
  admin = adminRequest(server, session);
});
afterAll(() => server.close());

const jpeg = (name: string) => {
  const form = new FormData();
  form.append('files', new Blob([fixture('blue-64x48.jpg')], { type: 'image/jpeg' }), name);
  return form;
};
const folders = async () => (await expectJson<{ data: Folder[] }>(await admin('/admin/api/upload/folders'), 200)).data;
const names = async (folder: string) => (await expectJson<{ data: File[] }>(await admin(`/admin/api/upload/files?folder=${folder}`), 200)).data.map((f) => f.name);

describe('the media library upload (POST /admin/api/upload)', () => {
  it('puts files at the root or in ?folder=, creates no "API Uploads" folder; the content API still files under "API Uploads"', async () => {
    const [atRoot] = await expectJson<File[]>(await admin('/admin/api/upload', { method: 'POST', body: jpeg('root.jpg') }), 201);
    expect(atRoot).toMatchObject({ name: 'root.jpg' });
    expect(await folders()).toEqual([]);
    expect(await names('root')).toEqual(['root.jpg']);

    const photos = (await expectJson<{ data: Folder }>(await admin('/admin/api/upload/folders', { method: 'POST', json: { name: 'Photos' } }), 201)).data;
    const [inFolder] = await expectJson<File[]>(await admin(`/admin/api/upload?folder=${photos.id}`, { method: 'POST', body: jpeg('in-photos.jpg') }), 201);
    expect(inFolder).toMatchObject({ name: 'in-photos.jpg' });
    expect(await names(String(photos.id))).toEqual(['in-photos.jpg']);
    expect(await folders()).toMatchObject([{ name: 'Photos', files: { count: 1 } }]);

    await expectJson<File[]>(await server.request('/api/upload', { method: 'POST', body: jpeg('api.jpg'), token: session }), 201);
    const apiFolder = (await folders()).find((f) => f.name === 'API Uploads');
    expect(apiFolder).toMatchObject({ files: { count: 1 } });
    expect(await names(String(apiFolder?.id))).toEqual(['api.jpg']);
    expect(await names('root')).toEqual(['root.jpg']);
  });

  it('refuses a folder that does not exist, an upload without files, and a caller without a session', async () => {
    expect(await expectJson(await admin('/admin/api/upload?folder=999', { method: 'POST', body: jpeg('lost.jpg') }), 400)).toEqual({
      data: null,
      error: { status: 400, name: 'ValidationError', message: 'the folder does not exist', details: { errors: [{ path: ['folder'], message: 'the folder does not exist', name: 'ValidationError' }] } },
    });
    expect(await names('root')).not.toContain('lost.jpg');
    expect(await expectJson(await admin('/admin/api/upload', { method: 'POST', body: new FormData() }), 400)).toMatchObject({ data: null, error: { status: 400, name: 'ValidationError', message: 'Files are empty' } });
    expect(await expectJson(await server.request('/admin/api/upload', { method: 'POST', body: jpeg('anon.jpg') }), 401)).toEqual(UNAUTHORIZED);
  });
});
