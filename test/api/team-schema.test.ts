import { cp, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../server/config.js';
import { SCHEMA_SET_KEY } from '../../server/db/schema-version.js';
import { META_TABLE } from '../../server/db/system-tables.js';
import { registerOwner } from '../admin/helpers.js';
import { databaseUrlFor, dropDatabaseFor, onPostgres } from '../helpers/database.js';
import { collection, expectJson, writeProject } from '../helpers/project.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { thrown } from '../helpers/thrown.js';

/**
 * Team mode (issue 22, item 2): schema changes reach every instance. Three instances on one
 * PostgreSQL database, each with its own data dir and its own copy of the schemas folder: a change
 * made through any one's builder or folder is run by the others within a second, with no restart,
 * and writes racing the change never fail with a 500 or lose an acknowledged write. The database
 * holds the versioned schema set (hearth_meta.schema_set); a start with a differing folder adopts
 * it, or with --schema-source folder applies the folder as the next version.
 */

type Json = Record<string, unknown>;
type Doc = { documentId: string; title: string; [field: string]: unknown };

const dirs: string[] = [];
async function newDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), `hearth-team-schema-${prefix}-`));
  dirs.push(dir);
  return dir;
}

const note = (attributes: Json) => collection('note', 'notes', { title: { type: 'string' }, ...attributes });
const schemaFile = (root: string, name: string) => join(root, 'src', 'api', name, 'content-types', name, 'schema.json');

/** Polls until `check` passes; answers the milliseconds it took. */
async function within(ms: number, check: () => Promise<boolean>): Promise<number> {
  const started = Date.now();
  for (;;) {
    if (await check()) return Date.now() - started;
    if (Date.now() - started > ms) throw new Error(`not seen within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('--schema-source', () => {
  it('is database or folder, from the flag or HEARTH_SCHEMA_SOURCE; anything else is refused', () => {
    expect(resolveConfig({ data: '/tmp/x' }, {}).schemaSource).toBeNull();
    expect(resolveConfig({ data: '/tmp/x', schemaSource: 'folder' }, {}).schemaSource).toBe('folder');
    expect(resolveConfig({ data: '/tmp/x' }, { HEARTH_SCHEMA_SOURCE: 'database' }).schemaSource).toBe('database');
    expect(thrown(() => resolveConfig({ data: '/tmp/x' }, { HEARTH_SCHEMA_SOURCE: 'disk' }))).toMatchObject({
      name: 'ConfigError',
      message: expect.stringContaining('database or folder'),
    });
  });
});

if (!onPostgres()) {
  describe('on SQLite', () => {
    it('keeps the schemas folder as the only truth: no schema set is written', async () => {
      const server = await startTestServer({ schemas: await writeProject({ types: { note: note({}) } }) });
      try {
        const row = await server.server.services.database.db.selectFrom(META_TABLE).select('value').where('key', '=', SCHEMA_SET_KEY).executeTakeFirst();
        expect(row).toBeUndefined();
        expect(server.server.services.schemas.stamp()).toBeNull();
      } finally {
        await server.close();
      }
    });
  });
} else {
  describe('three instances on one PostgreSQL database, each with its own schemas folder', () => {
    let key: string;
    let url: string;
    let project: string;
    const servers: TestServer[] = [];
    let a: TestServer;
    let b: TestServer;
    let c: TestServer;
    let session: string;

    /** An instance with its own data dir and its own copy of `schemas`. */
    async function instance(name: string, schemas: string, env: NodeJS.ProcessEnv = {}): Promise<TestServer> {
      const copy = await newDir(`${name}-schemas`);
      await cp(schemas, copy, { recursive: true });
      const server = await startTestServer({ dataDir: await newDir(name), database: 'sqlite', schemas: copy, env: { DATABASE_URL: url, ...env } });
      servers.push(server);
      return server;
    }
    const rootOf = (server: TestServer) => server.server.services.config.schemasDir;
    const call = (server: TestServer, path: string, init: RequestInit & { json?: unknown } = {}) => server.request(path, { ...init, token: session });
    const builder = (server: TestServer, method: string, path: string, json?: unknown) => call(server, `/admin/api/content-types${path}`, { method, json });
    const serves = (server: TestServer, path: string) => async () => (await call(server, path)).status === 200;
    const attributesOn = async (server: TestServer, uid: string): Promise<Json> =>
      (await expectJson<{ data: { schema: { attributes: Json } } }>(await call(server, `/admin/api/content-types/${uid}`), 200)).data.schema.attributes;

    beforeAll(async () => {
      key = await newDir('db');
      url = (await databaseUrlFor(key)) as string;
      project = await writeProject({ types: { post: collection('post', 'posts', { title: { type: 'string' } }) } });
      a = await instance('a', project);
      b = await instance('b', project);
      c = await instance('c', project);
      // Admin sessions live in the database: one works on every instance.
      session = await registerOwner(a);
    });

    afterAll(async () => {
      for (const server of servers.reverse()) await server.close();
      await dropDatabaseFor(key);
      for (const dir of dirs) await rm(dir, { recursive: true, force: true });
    });

    it('serves a content type added through A’s builder on B and C within a second, and mirrors it into their folders', async () => {
      expect((await call(b, '/api/notes')).status).toBe(404);
      await expectJson(await builder(a, 'POST', '', { contentType: note({}) }), 201);
      for (const other of [b, c]) expect(await within(1000, serves(other, '/api/notes'))).toBeLessThanOrEqual(1000);
      for (const other of [b, c])
        expect(JSON.parse(await readFile(schemaFile(rootOf(other), 'note'), 'utf8'))).toMatchObject({ info: { singularName: 'note' } });
      expect(b.logs.some((line) => /running the database's schema set version \d+/.test(line))).toBe(true);
    });

    it('writes and reads an attribute added on A on B and C', async () => {
      await expectJson(await builder(a, 'PUT', '/api::note.note', { contentType: note({ rank: { type: 'integer' } }) }), 200);
      for (const other of [b, c]) await within(1000, async () => 'rank' in (await attributesOn(other, 'api::note.note')));
      const written = await expectJson<{ data: Doc }>(await call(b, '/api/notes', { method: 'POST', json: { data: { title: 'from B', rank: 7 } } }), 201);
      const read = await expectJson<{ data: Doc }>(await call(c, `/api/notes/${written.data.documentId}`), 200);
      expect(read.data).toMatchObject({ title: 'from B', rank: 7 });
      const fromC = await expectJson<{ data: Doc }>(await call(c, '/api/notes', { method: 'POST', json: { data: { title: 'from C', rank: 9 } } }), 201);
      expect((await expectJson<{ data: Doc }>(await call(a, `/api/notes/${fromC.data.documentId}`), 200)).data).toMatchObject({ rank: 9 });
    });

    it('applies a change made in B’s schemas folder on A and C', async () => {
      const file = schemaFile(rootOf(b), 'note');
      const doc = JSON.parse(await readFile(file, 'utf8')) as Json;
      // Replaced as a deploy does (write, then rename): the watcher never reads a half-written file.
      await writeFile(`${file}.tmp`, JSON.stringify({ ...doc, attributes: { ...(doc.attributes as Json), mood: { type: 'string' } } }, null, 2));
      await rename(`${file}.tmp`, file);
      await within(5000, async () => 'mood' in (await attributesOn(b, 'api::note.note')));
      // Applied on B (after its watcher's quiet time): the others follow within a second.
      for (const other of [a, c]) await within(1000, async () => 'mood' in (await attributesOn(other, 'api::note.note')));
      expect(JSON.parse(await readFile(schemaFile(rootOf(a), 'note'), 'utf8'))).toMatchObject({ attributes: { mood: { type: 'string' } } });
      const written = await expectJson<{ data: Doc }>(await call(a, '/api/notes', { method: 'POST', json: { data: { title: 'moody', mood: 'calm' } } }), 201);
      expect((await expectJson<{ data: Doc }>(await call(c, `/api/notes/${written.data.documentId}`), 200)).data).toMatchObject({ mood: 'calm' });
    });

    it('keeps both of two types added at once on two instances (the one behind follows, then edits)', async () => {
      const [alpha, beta] = await Promise.all([
        builder(a, 'POST', '', { contentType: collection('alpha', 'alphas', { name: { type: 'string' } }) }),
        builder(b, 'POST', '', { contentType: collection('beta', 'betas', { name: { type: 'string' } }) }),
      ]);
      expect([alpha.status, beta.status]).toEqual([201, 201]);
      for (const path of ['/api/alphas', '/api/betas']) for (const server of [a, b, c]) await within(1000, serves(server, path));
    });

    it('loses no acknowledged write and answers no 500 while A adds and removes an attribute under load on B', async () => {
      const statuses: number[] = [];
      const acknowledged: string[] = [];
      let running = true;
      const writer = async (n: number) => {
        for (let i = 0; running; i++) {
          const res = await call(b, '/api/notes', { method: 'POST', json: { data: { title: `load-${n}-${i}`, rank: i } } });
          statuses.push(res.status);
          if (res.status === 201) acknowledged.push(((await res.json()) as { data: Doc }).data.documentId);
          else await res.text();
        }
      };
      const reader = async () => {
        while (running) {
          const res = await call(b, '/api/notes?pagination[pageSize]=5&sort=id:desc');
          statuses.push(res.status);
          await res.text();
        }
      };
      const load = [writer(1), writer(2), writer(3), reader()];
      const base = { rank: { type: 'integer' }, mood: { type: 'string' } };
      for (let round = 0; round < 3; round++) {
        await expectJson(await builder(a, 'PUT', '/api::note.note', { contentType: note({ ...base, extra: { type: 'string' } }) }), 200);
        await new Promise((resolve) => setTimeout(resolve, 150));
        await expectJson(await builder(a, 'PUT', '/api::note.note', { contentType: note(base), confirmDataLoss: true }), 200);
        await new Promise((resolve) => setTimeout(resolve, 150));
      }
      running = false;
      await Promise.all(load);
      expect(statuses.length).toBeGreaterThan(20);
      expect(statuses.filter((s) => s !== 200 && s !== 201)).toEqual([]);
      // Every acknowledged write is there, read on another instance.
      const found = new Set<string>();
      for (let page = 1; ; page++) {
        const { data } = await expectJson<{ data: Doc[] }>(await call(c, `/api/notes?pagination[pageSize]=100&pagination[page]=${page}&fields[0]=title`), 200);
        for (const d of data) found.add(d.documentId);
        if (data.length < 100) break;
      }
      expect(acknowledged.filter((id) => !found.has(id))).toEqual([]);
    });

    it('adopts the database’s set when started with a differing folder (the default), and says so', async () => {
      // The original project: no note type.
      const d = await instance('d', project);
      expect((await call(d, '/api/notes')).status).toBe(200);
      expect(JSON.parse(await readFile(schemaFile(rootOf(d), 'note'), 'utf8'))).toMatchObject({ attributes: { rank: { type: 'integer' } } });
      expect(d.logs.some((line) => line.includes('differs from the database') && line.includes('adopted'))).toBe(true);
    });

    it('applies a folder edited while the instance was stopped as the next version when restarted on its data dir (the default)', async () => {
      const root = rootOf(c);
      const dataDir = c.dataDir;
      await c.close();
      servers.splice(servers.indexOf(c), 1);
      await writeProject({ types: { page: collection('page', 'pages', { heading: { type: 'string' } }) } }, root);
      c = await startTestServer({ dataDir, database: 'sqlite', schemas: root, env: { DATABASE_URL: url } });
      servers.push(c);
      expect(
        c.logs.some((line) => line.includes('applying the folder as version') && line.includes('the folder was edited since this instance last ran')),
      ).toBe(true);
      for (const other of [a, b]) await within(1000, serves(other, '/api/pages'));
      expect((await call(c, '/api/notes')).status).toBe(200);
    });

    it('applies its folder as the next version with --schema-source folder, and the others follow', async () => {
      const before = a.server.services.schemas.stamp()?.version ?? 0;
      const folder = await newDir('e-project');
      await cp(rootOf(a), folder, { recursive: true });
      await writeProject({ types: { memo: collection('memo', 'memos', { body: { type: 'text' } }) } }, folder);
      const e = await instance('e', folder, { HEARTH_SCHEMA_SOURCE: 'folder' });
      expect(e.logs.some((line) => line.includes(`applying the folder as version ${before + 1}`))).toBe(true);
      expect((await call(e, '/api/memos')).status).toBe(200);
      for (const other of [a, b, c]) await within(1000, serves(other, '/api/memos'));
      expect(a.server.services.schemas.stamp()).toEqual(e.server.services.schemas.stamp());
    });
  });
}
