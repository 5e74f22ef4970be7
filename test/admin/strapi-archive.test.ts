import { readdir, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { collection, expectJson, writeProject } from '../helpers/project.js';
import { adminRequest, OWNER, registerOwner, UNAUTHORIZED } from './helpers.js';

const EXPORT = resolve(import.meta.dirname, '../fixtures/strapi/export');
const TAR_GZ = join(EXPORT, 'export-example.tar.gz');

let server: TestServer;
let admin: ReturnType<typeof adminRequest>;

interface Inspection {
  id: string;
  fileName: string;
  encrypted: boolean;
  schemas: { uid: string; kind: string; entities: number }[];
  entities: Record<string, number>;
  totalEntities: number;
  links: number;
  assets: number;
  strapiVersion: string | null;
  liveImport: boolean;
  conflicts: string[];
  command: string;
}
type ErrorBody = { data: null; error: { status: number; name: string; message: string; details: Record<string, unknown> } };

beforeAll(async () => {
  const schemas = await writeProject({ types: { post: collection('post', 'posts', { title: { type: 'string' } }) } });
  server = await startTestServer({ schemas });
  admin = adminRequest(server, await registerOwner(server));
});
afterAll(() => server.close());

const form = (bytes: Uint8Array, name: string, key?: string) => {
  const body = new FormData();
  body.append('files', new Blob([bytes]), name);
  if (key !== undefined) body.append('key', key);
  return body;
};
const inspect = (bytes: Uint8Array, name: string, key?: string) => admin('/admin/api/strapi-archive/inspect', { method: 'POST', body: form(bytes, name, key) });

/** Entity lines per type in the unpacked copy of the archive, counted here independently of the server. */
async function expectedCounts(): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  const text = await readFile(join(EXPORT, 'archive', 'entities', 'entities_00001.jsonl'), 'utf8');
  for (const line of text.split('\n').filter(Boolean)) {
    const { type } = JSON.parse(line) as { type: string };
    counts[type] = (counts[type] ?? 0) + 1;
  }
  return counts;
}

const lineCount = async (path: string) => (await readFile(path, 'utf8')).split('\n').filter(Boolean).length;

describe('the admin API for Strapi archives', () => {
  it('inspects a Strapi export: schemas with kinds, entities per type, links and assets; nothing is imported', async () => {
    const { data } = await expectJson<{ data: Inspection }>(await inspect(await readFile(TAR_GZ), 'export-example.tar.gz'), 200);
    expect(data.encrypted).toBe(false);
    expect(data.strapiVersion).toMatch(/^5\./);
    expect(data.entities).toEqual(await expectedCounts());
    expect(data.totalEntities).toBe(await lineCount(join(EXPORT, 'archive', 'entities', 'entities_00001.jsonl')));
    expect(data.links).toBe(await lineCount(join(EXPORT, 'archive', 'links', 'links_00001.jsonl')));
    expect(data.assets).toBe((await readdir(join(EXPORT, 'archive', 'assets', 'uploads'))).length);
    expect(data.schemas).toContainEqual({ uid: 'api::homepage.homepage', kind: 'singleType', entities: data.entities['api::homepage.homepage'] ?? 0 });
    expect(data.schemas).toContainEqual({ uid: 'api::article.article', kind: 'collectionType', entities: data.entities['api::article.article'] });
    expect(data.schemas).toContainEqual({ uid: 'shared.seo', kind: 'component', entities: 0 });
    expect(data.command).toContain('hearth import --from-strapi "export-example.tar.gz"');
    // The live import runs on SQLite (test/transfer/archive-import.test.ts); the project's post type is not the archive's.
    expect(data.liveImport).toBe(server.server.services.database.kind === 'sqlite');
    expect(data.conflicts).toEqual([]);
    // Nothing changed: the server still serves its own types only.
    expect((await server.request('/api/articles')).status).toBe(404);
  });

  it('forgets a deleted upload: importing it is a 404', async () => {
    const { data } = await expectJson<{ data: Inspection }>(await inspect(await readFile(TAR_GZ), 'export-example.tar.gz'), 200);
    await expectJson(await admin(`/admin/api/strapi-archive/${data.id}`, { method: 'DELETE' }), 200);
    const gone = await expectJson<ErrorBody>(await admin('/admin/api/strapi-archive/import', { method: 'POST', json: { id: data.id } }), 404);
    expect(gone.error.name).toBe('NotFoundError');
    await expectJson(await admin('/admin/api/strapi-archive/import', { method: 'POST', json: { id: '../../etc' } }), 404);
  });

  it('answers a truncated archive, a file that is no archive and a missing file with a 400 envelope', async () => {
    const whole = await readFile(TAR_GZ);
    const cut = await expectJson<ErrorBody>(await inspect(whole.subarray(0, Math.floor(whole.length / 2)), 'cut.tar.gz'), 400);
    expect(cut.error).toMatchObject({ name: 'ValidationError' });
    expect(cut.error.message).toMatch(/^invalid Strapi archive: /);
    const named = await expectJson<ErrorBody>(await inspect(whole, 'notes.txt'), 400);
    expect(named.error.message).toMatch(/not a Strapi export/);
    await expectJson<ErrorBody>(await admin('/admin/api/strapi-archive/inspect', { method: 'POST', body: new FormData() }), 400);
  });

  it('exports the running server as a Strapi archive, plain or encrypted, that inspects back with its content', async () => {
    const token = await server.token('full-access');
    for (const title of ['one', 'two']) await expectJson(await server.request('/api/posts', { method: 'POST', token, json: { data: { title } } }), 201);

    const plain = await admin('/admin/api/strapi-archive/export');
    expect(plain.status).toBe(200);
    expect(plain.headers.get('content-disposition')).toContain('hearth-strapi-export.tar.gz');
    const bytes = new Uint8Array(await plain.arrayBuffer());
    const { data } = await expectJson<{ data: Inspection }>(await inspect(bytes, 'hearth-strapi-export.tar.gz'), 200);
    expect(data.entities['api::post.post']).toBe(2);
    expect(data.schemas).toContainEqual({ uid: 'api::post.post', kind: 'collectionType', entities: 2 });

    const locked = await admin('/admin/api/strapi-archive/export?key=s3cret');
    expect(locked.status).toBe(200);
    expect(locked.headers.get('content-disposition')).toContain('hearth-strapi-export.tar.gz.enc');
    const encrypted = new Uint8Array(await locked.arrayBuffer());
    const opened = await expectJson<{ data: Inspection }>(await inspect(encrypted, 'hearth-strapi-export.tar.gz.enc', 's3cret'), 200);
    expect(opened.data).toMatchObject({ encrypted: true, entities: { 'api::post.post': 2 } });
    expect(opened.data.command).toContain('--key <key>');
    const wrong = await expectJson<ErrorBody>(await inspect(encrypted, 'hearth-strapi-export.tar.gz.enc', 'nope'), 400);
    expect(wrong.error.message).toMatch(/wrong key/);
    const keyless = await expectJson<ErrorBody>(await inspect(encrypted, 'hearth-strapi-export.tar.gz.enc'), 400);
    expect(keyless.error.message).toMatch(/encrypted/);
  });

  it('removes an inspected archive left longer than a day when the next one is inspected', async () => {
    let clock = Date.now();
    const schemas = await writeProject({ types: { post: collection('post', 'posts', { title: { type: 'string' } }) } });
    const own = await startTestServer({ schemas, now: () => new Date(clock) });
    try {
      let request = adminRequest(own, await registerOwner(own));
      const send = async () => (await expectJson<{ data: Inspection }>(await request('/admin/api/strapi-archive/inspect', { method: 'POST', body: form(await readFile(TAR_GZ), 'e.tar.gz') }), 200)).data.id;
      const old = await send();
      const recent = await send();
      expect(await readdir(join(own.dataDir, 'tmp', 'strapi-archive'))).toEqual(expect.arrayContaining([old, recent]));
      clock += 25 * 60 * 60 * 1000;
      // The session has expired meanwhile: log in again.
      const login = await expectJson<{ data: { token: string } }>(await own.request('/admin/api/login', { method: 'POST', json: { email: OWNER.email, password: OWNER.password } }), 200);
      request = adminRequest(own, login.data.token);
      const fresh = await send();
      await expectJson(await request('/admin/api/strapi-archive/import', { method: 'POST', json: { id: old } }), 404);
      await expectJson(await request('/admin/api/strapi-archive/import', { method: 'POST', json: { id: recent } }), 404);
      await expectJson(await request(`/admin/api/strapi-archive/${fresh}`, { method: 'DELETE' }), 200);
    } finally {
      await own.close();
    }
  });

  it('needs an admin session', async () => {
    expect(await expectJson(await server.request('/admin/api/strapi-archive/export'), 401)).toEqual(UNAUTHORIZED);
    const token = await server.token('full-access');
    expect(await expectJson(await server.request('/admin/api/strapi-archive/inspect', { method: 'POST', body: form(await readFile(TAR_GZ), 'a.tar.gz'), token }), 401)).toEqual(UNAUTHORIZED);
  });
});
