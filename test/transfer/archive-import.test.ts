import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { create as createTar } from 'tar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { strapiCipher } from '../../server/strapi-archive/source.js';
import { adminRequest, registerOwner, UNAUTHORIZED } from '../admin/helpers.js';
import { answers, CONTENT_READS, importStrapi, serveImported, stage, STRAPI_DIR, STRAPI_TAR_GZ } from '../backup/strapi-helpers.js';
import { collection, expectJson, writeProject } from '../helpers/project.js';
import { FIXTURE_PROJECT, startTestServer, type TestServer } from '../helpers/server.js';

/**
 * The admin API's live import of a Strapi export (`POST /admin/api/strapi-archive/import`): into
 * the running server, all or nothing, one at a time, then answering REST as a server that
 * imported the same archive with the CLI does.
 */

interface Inspection {
  id: string;
  liveImport: boolean;
  conflicts: string[];
}
interface Result {
  types: number;
  documents: number;
  files: number;
  entities: number;
  links: number;
  assets: number;
  schemas: number;
  conflicts: string[];
}
interface Status {
  state: string;
  stage: string | null;
  steps: string[];
  result: Result | null;
  error: { status: number; name: string; message: string } | null;
}
type ErrorBody = { data: null; error: { status: number; name: string; message: string; details: Record<string, unknown> } };

let root: string;
let reference: TestServer;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'hearth-live-import-'));
  expect((await importStrapi(STRAPI_TAR_GZ, join(root, 'cli'))).code).toBe(0);
  reference = await serveImported(join(root, 'cli'));
});
afterAll(async () => {
  await reference?.close();
  await rm(root, { recursive: true, force: true });
});

const form = (bytes: Uint8Array, name: string, key?: string) => {
  const body = new FormData();
  body.append('files', new Blob([bytes]), name);
  if (key !== undefined) body.append('key', key);
  return body;
};

/** A server (SQLite: the live import's database) with its owner's admin requests. */
async function serve(schemas?: string): Promise<{ server: TestServer; admin: ReturnType<typeof adminRequest>; session: string }> {
  const server = await startTestServer({ database: 'sqlite', ...(schemas === undefined ? {} : { schemas }) });
  const session = await registerOwner(server);
  return { server, admin: adminRequest(server, session), session };
}

async function upload(admin: ReturnType<typeof adminRequest>, bytes: Uint8Array, name: string, key?: string): Promise<Inspection> {
  return (await expectJson<{ data: Inspection }>(await admin('/admin/api/strapi-archive/inspect', { method: 'POST', body: form(bytes, name, key) }), 200)).data;
}

const runImport = (admin: ReturnType<typeof adminRequest>, body: Record<string, unknown>) => admin('/admin/api/strapi-archive/import', { method: 'POST', json: body });
const statusOf = async (admin: ReturnType<typeof adminRequest>) => (await expectJson<{ data: Status }>(await admin('/admin/api/strapi-archive/import'), 200)).data;

/** What a bad import must leave as it was: every type's documents and a sample document, as text. */
const snapshot = (server: TestServer, sample: string): Promise<Record<string, string>> => answers(server, [...CONTENT_READS, sample]);

/** The documents of project types and the media files among the archive's entity lines, counted here. */
async function archiveCounts(): Promise<{ types: number; documents: number; files: number; entities: number }> {
  const entities = await stage(STRAPI_DIR, 'entities');
  const schemas = await stage(STRAPI_DIR, 'schemas');
  const documents = new Set(entities.filter((e) => e.type.startsWith('api::')).map((e) => `${e.type} ${String(e.data.documentId)}`));
  return {
    types: schemas.filter((s) => String(s.uid).startsWith('api::')).length,
    documents: documents.size,
    files: entities.filter((e) => e.type === 'plugin::upload.file').length,
    entities: entities.length,
  };
}

/** The fixture archive encrypted as `strapi export -k KEY` writes it. */
async function encrypted(key: string): Promise<Buffer> {
  const cipher = strapiCipher(key);
  return Buffer.concat([cipher.update(await readFile(STRAPI_TAR_GZ)), cipher.final()]);
}

describe('live import of a Strapi export through the admin API', () => {
  it('imports into the running server: REST answers as after a CLI import, admin session and API token kept, status tells the stages', async () => {
    const { server, admin } = await serve();
    try {
      const token = await server.token('full-access');
      expect((await server.request('/api/tags', { method: 'POST', token, json: { data: { label: 'gone after the import' } } })).status).toBe(201);
      expect((await statusOf(admin)).state).toBe('idle');
      const member = await expectJson<{ jwt: string }>(await server.request('/api/auth/local/register', { method: 'POST', json: { username: 'member', email: 'member@example.com', password: 'Secret123' } }), 200);
      expect((await server.request('/api/users/me', { token: member.jwt })).status).toBe(200);
      // Answers cached before the import must not outlive it.
      const cached = await answers(server, CONTENT_READS);
      expect(await answers(server, CONTENT_READS)).toEqual(cached);
      const inspection = await upload(admin, await readFile(STRAPI_TAR_GZ), 'export-example.tar.gz');
      expect(inspection).toMatchObject({ liveImport: true, conflicts: [] });

      const { data } = await expectJson<{ data: Result }>(await runImport(admin, { id: inspection.id }), 200);
      expect(data).toMatchObject(await archiveCounts());
      expect(data.assets).toBe((await readdir(join(STRAPI_DIR, 'assets', 'uploads'))).length);
      const status = await statusOf(admin);
      expect(status).toMatchObject({ state: 'done', stage: 'applying', error: null, result: data });
      expect(status.steps).toContain(`entities: ${data.entities}`);

      // Every read of the archive's content answers byte for byte as the CLI-imported server.
      expect(await answers(server, CONTENT_READS)).toEqual(await answers(reference, CONTENT_READS));
      // A sample against the archive's own lines: the French article's title.
      const fr = (await stage(STRAPI_DIR, 'entities')).find((e) => e.type === 'api::article.article' && e.data.locale === 'fr' && e.data.publishedAt !== null);
      const one = await expectJson<{ data: { title: string } }>(await server.request(`/api/articles/${String(fr?.data.documentId)}?locale=fr`, { token }), 200);
      expect(one.data.title).toBe(fr?.data.title);
      // The admin content screens read the new content; the session and the API token still work.
      const listed = await expectJson<{ data: unknown[] }>(await admin('/admin/api/content-manager/api::article.article/documents'), 200);
      expect(listed.data.length).toBeGreaterThan(0);
      expect((await admin('/admin/api/users/me')).status).toBe(200);
      // The end users are the archive's now: a session of a user the import replaced no longer works.
      expect(await expectJson(await server.request('/api/users/me', { token: member.jwt }), 401)).toMatchObject({ data: null, error: { status: 401 } });
      expect(JSON.stringify(await (await server.request('/api/tags?status=draft', { token })).json())).not.toContain('gone after the import');
      // The uploaded archive is gone once imported.
      expect((await admin(`/admin/api/strapi-archive/${inspection.id}`, { method: 'DELETE' })).status).toBe(404);
    } finally {
      await server.close();
    }
  });

  it('brings new types into a server whose project lacks them, without a restart, and writes their schema files', async () => {
    const schemas = await writeProject({ types: { post: collection('post', 'posts', { title: { type: 'string' } }) } });
    const { server, admin } = await serve(schemas);
    try {
      const token = await server.token('full-access');
      expect((await server.request('/api/articles', { token })).status).toBe(404);
      const inspection = await upload(admin, await readFile(STRAPI_TAR_GZ), 'export-example.tar.gz');
      expect(inspection.conflicts).toEqual([]);
      await expectJson(await runImport(admin, { id: inspection.id }), 200);
      expect(await answers(server, CONTENT_READS)).toEqual(await answers(reference, CONTENT_READS));
      // The project's own type stays (its content replaced, as Strapi's restore does).
      expect(await expectJson(await server.request('/api/posts', { token }), 200)).toMatchObject({ data: [] });
      const written = JSON.parse(await readFile(join(schemas, 'src/api/article/content-types/article/schema.json'), 'utf8')) as unknown;
      expect(written).toEqual(JSON.parse(await readFile(join(FIXTURE_PROJECT, 'src/api/article/content-types/article/schema.json'), 'utf8')));
      const builder = await expectJson<{ data: { uid: string }[] }>(await admin('/admin/api/content-types'), 200);
      expect(builder.data.map((t) => t.uid)).toEqual(expect.arrayContaining(['api::article.article', 'api::post.post']));
    } finally {
      await server.close();
    }
  });
});

describe('live import: all or nothing', () => {
  let server: TestServer;
  let admin: ReturnType<typeof adminRequest>;
  let token: string;
  let sample: string;
  let before: Record<string, string>;

  beforeAll(async () => {
    ({ server, admin } = await serve());
    token = await server.token('full-access');
    const tag = await expectJson<{ data: { documentId: string } }>(await server.request('/api/tags', { method: 'POST', token, json: { data: { label: 'mine' } } }), 201);
    sample = `/api/tags/${tag.data.documentId}?status=draft`;
    before = await snapshot(server, sample);
  });
  afterAll(() => server?.close());

  const unchanged = async () => expect(await snapshot(server, sample)).toEqual(before);

  it('a wrong key is a 400 naming the archive, and nothing changes', async () => {
    const inspection = await upload(admin, await encrypted('s3cret'), 'export-example.tar.gz.enc', 's3cret');
    const wrong = await expectJson<ErrorBody>(await runImport(admin, { id: inspection.id, key: 'nope' }), 400);
    expect(wrong.error).toMatchObject({ status: 400, name: 'ValidationError', message: 'invalid Strapi archive: export-example.tar.gz.enc: wrong key (the archive does not decrypt to a gzip or tar stream)' });
    const keyless = await expectJson<ErrorBody>(await runImport(admin, { id: inspection.id }), 400);
    expect(keyless.error.message).toBe('export-example.tar.gz.enc is encrypted: send its key');
    expect(await statusOf(admin)).toMatchObject({ state: 'failed', error: { status: 400, name: 'ValidationError' } });
    await unchanged();
  });

  it('a truncated archive is a 400 (at inspection, and when the stored upload is cut short), and nothing changes', async () => {
    const whole = await readFile(STRAPI_TAR_GZ);
    const cut = await expectJson<ErrorBody>(await admin('/admin/api/strapi-archive/inspect', { method: 'POST', body: form(whole.subarray(0, Math.floor(whole.length * 0.6)), 'cut.tar.gz') }), 400);
    expect(cut.error.message).toMatch(/^invalid Strapi archive: .*unexpected end of file/);
    const inspection = await upload(admin, whole, 'export-example.tar.gz');
    await writeFile(join(server.dataDir, 'tmp', 'strapi-archive', inspection.id, 'archive.tar.gz'), whole.subarray(0, Math.floor(whole.length * 0.6)));
    const truncated = await expectJson<ErrorBody>(await runImport(admin, { id: inspection.id }), 400);
    expect(truncated.error.message).toMatch(/^invalid Strapi archive: export-example\.tar\.gz: .*unexpected end of file/);
    await unchanged();
  });

  it('an entity of a type the archive does not declare is a 400 naming the file and line, and nothing changes', async () => {
    const tree = join(root, 'ghost');
    await cp(STRAPI_DIR, tree, { recursive: true });
    const file = join(tree, 'entities', 'entities_00001.jsonl');
    await writeFile(file, `${(await readFile(file, 'utf8')).trimEnd()}\n{"type":"api::ghost.ghost","id":1,"data":{"documentId":"x"}}\n`);
    const tarball = join(root, 'ghost.tar.gz');
    await createTar({ gzip: true, cwd: tree, file: tarball }, ['schemas', 'entities', 'links', 'configuration', 'assets', 'metadata.json']);
    const inspection = await upload(admin, await readFile(tarball), 'ghost.tar.gz');
    const ghost = await expectJson<ErrorBody>(await runImport(admin, { id: inspection.id }), 400);
    expect(ghost.error).toMatchObject({ status: 400, name: 'ValidationError', message: "invalid Strapi archive: entities/entities_00001.jsonl:57: entity of type api::ghost.ghost, which is not in the archive's schemas" });
    await unchanged();
    // The uploads folder holds no media of the failed imports.
    expect(await readdir(join(server.dataDir, 'uploads')).catch(() => [])).toEqual([]);
  });

  it('a second import while one runs is a 409; the status shows the running one; then the right key imports', async () => {
    const first = await upload(admin, await encrypted('s3cret'), 'export-example.tar.gz.enc', 's3cret');
    const second = await upload(admin, await readFile(STRAPI_TAR_GZ), 'export-example.tar.gz');
    const running = runImport(admin, { id: first.id, key: 's3cret' });
    let seen: Status | null = null;
    for (let i = 0; i < 400 && seen === null; i++) {
      const status = await statusOf(admin);
      if (status.state === 'running') seen = status;
      else await new Promise((r) => setTimeout(r, 5));
    }
    expect(seen?.state).toBe('running');
    const refused = await expectJson<ErrorBody>(await runImport(admin, { id: second.id }), 409);
    expect(refused.error).toMatchObject({ status: 409, name: 'ConflictError', message: 'A Strapi import is already running (export-example.tar.gz.enc); wait for it to end' });
    await expectJson(await running, 200);
    expect(await answers(server, CONTENT_READS)).toEqual(await answers(reference, CONTENT_READS));
    expect(await expectJson(await server.request(sample, { token }), 404)).toMatchObject({ data: null });
  });
});

describe('live import: refusals', () => {
  it("refuses schemas that differ from the archive's by name (409) unless forced; nothing changes until then", async () => {
    const project = await mkdtemp(join(tmpdir(), 'hearth-live-import-project-'));
    await cp(FIXTURE_PROJECT, project, { recursive: true });
    const article = join(project, 'src/api/article/content-types/article/schema.json');
    await writeFile(article, (await readFile(article, 'utf8')).replace('"collectionType"', '"collectionType", "description": "changed"'));
    const { server, admin } = await serve(project);
    try {
      const token = await server.token('full-access');
      await expectJson(await server.request('/api/tags', { method: 'POST', token, json: { data: { label: 'mine' } } }), 201);
      const before = await answers(server, CONTENT_READS);
      const inspection = await upload(admin, await readFile(STRAPI_TAR_GZ), 'export-example.tar.gz');
      expect(inspection.conflicts).toEqual(['api::article.article']);
      const refused = await expectJson<ErrorBody>(await runImport(admin, { id: inspection.id }), 409);
      expect(refused.error).toMatchObject({ name: 'ConflictError', details: { conflicts: ['api::article.article'] } });
      expect(refused.error.message).toContain('api::article.article');
      expect(await answers(server, CONTENT_READS)).toEqual(before);
      expect(await readFile(article, 'utf8')).toContain('"description": "changed"');
      const forced = await expectJson<{ data: Result }>(await runImport(admin, { id: inspection.id, force: true }), 200);
      expect(forced.data.conflicts).toEqual(['api::article.article']);
      expect(JSON.parse(await readFile(article, 'utf8'))).toEqual(JSON.parse(await readFile(join(FIXTURE_PROJECT, 'src/api/article/content-types/article/schema.json'), 'utf8')));
      expect(await answers(server, CONTENT_READS)).toEqual(await answers(reference, CONTENT_READS));
    } finally {
      await server.close();
      await rm(project, { recursive: true, force: true });
    }
  });

  it('is for admin sessions only (API tokens and end users: 401), behind the Host check and without CORS', async () => {
    const { server, admin } = await serve();
    try {
      const inspection = await upload(admin, await readFile(STRAPI_TAR_GZ), 'export-example.tar.gz');
      const apiToken = await server.token('full-access');
      expect(await expectJson(await server.request('/admin/api/strapi-archive/import', { method: 'POST', token: apiToken, json: { id: inspection.id } }), 401)).toEqual(UNAUTHORIZED);
      const user = await expectJson<{ jwt: string }>(await server.request('/api/auth/local/register', { method: 'POST', json: { username: 'member', email: 'member@example.com', password: 'Secret123' } }), 200);
      expect(await expectJson(await server.request('/admin/api/strapi-archive/import', { method: 'POST', token: user.jwt, json: { id: inspection.id } }), 401)).toEqual(UNAUTHORIZED);
      expect(await expectJson(await server.request('/admin/api/strapi-archive/import', { token: user.jwt }), 401)).toEqual(UNAUTHORIZED);
      const preflight = await server.request('/admin/api/strapi-archive/import', { method: 'OPTIONS', headers: { Origin: 'https://site.example', 'Access-Control-Request-Method': 'POST' } });
      expect(preflight.status).toBe(403);
      expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
      const url = new URL(server.url);
      const foreignHost = await new Promise<number>((resolve, reject) => {
        const req = httpRequest({ host: url.hostname, port: url.port, path: '/admin/api/strapi-archive/import', method: 'POST', headers: { Host: 'evil.example', 'Content-Type': 'application/json' } }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.on('error', reject);
        req.end(JSON.stringify({ id: inspection.id }));
      });
      expect(foreignHost).toBe(403);
      // None of them started an import.
      expect((await statusOf(admin)).state).toBe('idle');
    } finally {
      await server.close();
    }
  });
});
