import { AsyncLocalStorage } from 'node:async_hooks';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerOwner } from '../admin/helpers.js';
import { call, httpClient } from '../mcp/helpers.js';
import { databaseUrlFor, dropDatabaseFor, onPostgres } from '../helpers/database.js';
import { collection, expectJson, writeProject } from '../helpers/project.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

/**
 * Team mode (issue 22, item 2): a request that races a schema change made on another instance
 * completes under the new schemas on every route, not only the content API: GraphQL, the admin
 * content manager, users & permissions (http/schema-race.ts). Three instances on one PostgreSQL
 * database, each with its own data dir and schemas folder; load on B while A adds and drops an
 * attribute: every answer is 2xx, every acknowledged write is read on C. And a run is never
 * repeated once one of its writes got past the write guard (admin/schema-race.ts).
 */

type Json = Record<string, unknown>;

const dirs: string[] = [];
async function newDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), `hearth-team-routes-${prefix}-`));
  dirs.push(dir);
  return dir;
}

const base = { title: { type: 'string' }, rank: { type: 'integer' } };
const note = (attributes: Json) => collection('note', 'notes', { ...base, ...attributes }, { draftAndPublish: true });

if (onPostgres()) {
  describe('routes racing a schema change made on another instance', () => {
    let key: string;
    let url: string;
    const servers: TestServer[] = [];
    let a: TestServer;
    let b: TestServer;
    let c: TestServer;
    let session: string;
    let token: string;
    let role: number;

    async function instance(name: string, schemas: string): Promise<TestServer> {
      const copy = await newDir(`${name}-schemas`);
      await cp(schemas, copy, { recursive: true });
      const server = await startTestServer({ dataDir: await newDir(name), database: 'sqlite', schemas: copy, env: { DATABASE_URL: url } });
      servers.push(server);
      return server;
    }
    const admin = (server: TestServer, path: string, init: RequestInit & { json?: unknown } = {}) => server.request(path, { ...init, token: session });
    const api = (server: TestServer, path: string, init: RequestInit & { json?: unknown } = {}) => server.request(path, { ...init, token });
    const gql = (server: TestServer, query: string) => api(server, '/graphql', { method: 'POST', json: { query } });
    const cm = (path: string) => `/admin/api/content-manager/api::note.note/documents${path}`;

    beforeAll(async () => {
      key = await newDir('db');
      url = (await databaseUrlFor(key)) as string;
      const project = await writeProject({ types: { note: note({}) } });
      a = await instance('a', project);
      b = await instance('b', project);
      c = await instance('c', project);
      session = await registerOwner(a);
      token = await a.token('full-access');
      const { roles } = await expectJson<{ roles: { id: number; type: string }[] }>(await api(a, '/api/users-permissions/roles'), 200);
      role = roles.find((r) => r.type === 'authenticated')?.id ?? 0;
    });

    afterAll(async () => {
      for (const server of servers.reverse()) await server.close();
      await dropDatabaseFor(key);
      for (const dir of dirs) await rm(dir, { recursive: true, force: true });
    });

    /** Runs `workers` on B until A has added and dropped an attribute three times; answers every status seen. */
    async function underSchemaChanges(workers: ((n: number, statuses: number[]) => Promise<boolean>)[]): Promise<number[]> {
      const statuses: number[] = [];
      let running = true;
      const loop = async (work: (n: number, statuses: number[]) => Promise<boolean>) => {
        for (let i = 0; running; i++) if (!(await work(i, statuses))) return;
      };
      const load = workers.map(loop);
      for (let round = 0; round < 3; round++) {
        await expectJson(
          await admin(a, '/admin/api/content-types/api::note.note', { method: 'PUT', json: { contentType: note({ extra: { type: 'string' } }) } }),
          200,
        );
        await new Promise((resolve) => setTimeout(resolve, 150));
        await expectJson(
          await admin(a, '/admin/api/content-types/api::note.note', { method: 'PUT', json: { contentType: note({}), confirmDataLoss: true } }),
          200,
        );
        await new Promise((resolve) => setTimeout(resolve, 150));
      }
      running = false;
      await Promise.all(load);
      return statuses;
    }

    /** A worker of underSchemaChanges that sends `request` and records its status (the body read and dropped). */
    const reading = (request: () => Promise<Response>) => async (_i: number, statuses: number[]) => {
      const res = await request();
      statuses.push(res.status);
      await res.text();
      return true;
    };

    /** Every documentId in `ids` is read on C (drafts included). */
    async function readOnC(ids: readonly string[]): Promise<string[]> {
      const missing: string[] = [];
      for (const id of ids) if ((await api(c, `/api/notes/${id}?status=draft`)).status !== 200) missing.push(id);
      return missing;
    }

    it('GraphQL: mutations and queries on B answer 200 without errors, and every created note is on C', async () => {
      const created: string[] = [];
      const errors: unknown[] = [];
      const mutate = (n: number) => async (i: number, statuses: number[]) => {
        const res = await gql(b, `mutation { createNote(data: { title: "gql-${n}-${i}", rank: ${i} }) { documentId title rank } }`);
        statuses.push(res.status);
        const body = (await res.json()) as { data?: { createNote?: { documentId: string } | null }; errors?: unknown[] };
        if (body.errors) errors.push(...body.errors);
        if (body.data?.createNote) created.push(body.data.createNote.documentId);
        return true;
      };
      const query = async (_i: number, statuses: number[]) => {
        const res = await gql(b, 'query { notes(status: DRAFT, sort: "rank:desc", pagination: { pageSize: 5 }) { documentId title rank } }');
        statuses.push(res.status);
        const body = (await res.json()) as { errors?: unknown[] };
        if (body.errors) errors.push(...body.errors);
        return true;
      };
      const statuses = await underSchemaChanges([mutate(1), mutate(2), mutate(3), query]);
      expect(statuses.length).toBeGreaterThan(20);
      expect(statuses.filter((s) => s !== 200)).toEqual([]);
      expect(errors).toEqual([]);
      expect(await readOnC(created)).toEqual([]);
    });

    it('content manager: publishes, lists and reads on B answer 200, and every published note is on C', async () => {
      const published: string[] = [];
      const publish = (n: number) => async (i: number, statuses: number[]) => {
        const draft = await api(b, '/api/notes?status=draft', { method: 'POST', json: { data: { title: `cm-${n}-${i}`, rank: i } } });
        statuses.push(draft.status);
        if (draft.status !== 201) return true;
        const { documentId } = ((await draft.json()) as { data: { documentId: string } }).data;
        const res = await admin(b, cm(`/${documentId}/actions/publish`), { method: 'POST', json: {} });
        statuses.push(res.status);
        await res.text();
        if (res.status === 200) published.push(documentId);
        return true;
      };
      const list = reading(() => admin(b, cm('?page=1&pageSize=5&sort=rank:DESC')));
      const statuses = await underSchemaChanges([publish(1), publish(2), list]);
      expect(statuses.length).toBeGreaterThan(20);
      expect(statuses.filter((s) => s !== 200 && s !== 201)).toEqual([]);
      for (const id of published) expect((await api(c, `/api/notes/${id}`)).status).toBe(200);
    });

    it('users & permissions: users created and listed on B answer 2xx, and every created user is on C', async () => {
      const created: number[] = [];
      const create = (n: number) => async (i: number, statuses: number[]) => {
        const res = await api(b, '/api/users', {
          method: 'POST',
          json: { username: `u-${n}-${i}`, email: `u-${n}-${i}@example.com`, password: 'Secret123', role },
        });
        statuses.push(res.status);
        const body = (await res.json()) as { id?: number };
        if (res.status === 201 && typeof body.id === 'number') created.push(body.id);
        return true;
      };
      const list = reading(() => api(b, '/api/users?pagination[pageSize]=5&sort=id:desc'));
      const statuses = await underSchemaChanges([create(1), create(2), list]);
      expect(statuses.length).toBeGreaterThan(20);
      expect(statuses.filter((s) => s !== 200 && s !== 201)).toEqual([]);
      for (const id of created) expect((await api(c, `/api/users/${id}`)).status).toBe(200);
    });

    it('MCP: create_document and find_documents calls on B answer no error, and every created note is on C', async () => {
      const client = await httpClient(b.url, token);
      const created: string[] = [];
      const failed: unknown[] = [];
      const tool = (name: string, args: (i: number) => Record<string, unknown>) => async (i: number, statuses: number[]) => {
        const result = await call(client, name, args(i));
        statuses.push(result.isError ? 409 : 200);
        if (result.isError) failed.push(result.structuredContent);
        const data = result.structuredContent.data as { documentId?: string } | undefined;
        if (name === 'create_document' && data?.documentId) created.push(data.documentId);
        return true;
      };
      try {
        const statuses = await underSchemaChanges([
          tool('create_document', (i) => ({ contentType: 'notes', data: { title: `mcp-${i}`, rank: i } })),
          tool('find_documents', () => ({ contentType: 'notes', status: 'draft', sort: 'rank:desc', pagination: { pageSize: 5 } })),
        ]);
        expect(statuses.length).toBeGreaterThan(10);
        expect(failed).toEqual([]);
        expect(await readOnC(created)).toEqual([]);
      } finally {
        await client.close();
      }
    });

    it('never runs a GraphQL mutation again once one of its writes got past the write guard (its later refused field is answered as an error)', async () => {
      const db = b.server.services.database.db;
      // The first field's insert holds the write lock for a second, so A's change lands right after it commits and before the second field begins.
      await sql`CREATE OR REPLACE FUNCTION hearth_test_slow() RETURNS trigger AS $$ BEGIN IF NEW.title = 'slow-first' THEN PERFORM pg_sleep(1); END IF; RETURN NEW; END $$ LANGUAGE plpgsql`.execute(
        db,
      );
      await sql`CREATE TRIGGER hearth_test_slow BEFORE INSERT ON notes FOR EACH ROW EXECUTE FUNCTION hearth_test_slow()`.execute(db);
      try {
        await expectJson(await gql(b, 'query { notes { documentId } }'), 200);
        const answer = gql(
          b,
          'mutation { first: createNote(data: { title: "slow-first" }) { documentId } second: createNote(data: { title: "then-second" }) { documentId } }',
        );
        await new Promise((resolve) => setTimeout(resolve, 300));
        const change = admin(a, '/admin/api/content-types/api::note.note', { method: 'PUT', json: { contentType: note({ later: { type: 'string' } }) } });
        const res = await answer;
        await expectJson(await change, 200);
        const body = (await res.json()) as { data: { first: unknown; second: unknown }; errors?: { message: string }[] };
        const count = async (title: string) =>
          Number((await sql<{ n: string }>`SELECT count(DISTINCT "documentId") AS n FROM notes WHERE title = ${title}`.execute(db)).rows[0]?.n);
        expect(await count('slow-first')).toBe(1);
        expect(await count('then-second')).toBe(0);
        expect(res.status).toBe(200);
        expect(body.data.first).not.toBeNull();
        expect(body.data.second).toBeNull();
        expect(body.errors?.map((e) => e.message)).toEqual(['The content types changed while this request was handled; send it again']);
      } finally {
        await sql`DROP TRIGGER IF EXISTS hearth_test_slow ON notes`.execute(db);
      }
    });

    it('settles a webhook delivery woken by a write after a schema change made while it was sent (background work runs outside the request’s pin)', async () => {
      const arrived: string[] = [];
      let answer = (): void => undefined;
      const receiver = createServer((req, res) => {
        req.resume();
        req.on('end', () => {
          arrived.push(req.url ?? '');
          answer = () => res.end('ok');
        });
      });
      await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
      const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
      const hook = await b.server.services.webhooks.store.create({ name: 'race', headers: {}, url, events: ['entry.create'] } as never);
      try {
        const before = servers.map((s) => s.logs.length);
        await expectJson(await api(b, '/api/notes', { method: 'POST', json: { data: { title: 'hooked' } } }), 201);
        for (let i = 0; arrived.length === 0; i++) {
          if (i > 250) throw new Error('the webhook was not sent');
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        // While the delivery is in flight, A changes the schemas and every instance follows.
        await expectJson(
          await admin(a, '/admin/api/content-types/api::note.note', { method: 'PUT', json: { contentType: note({ hooked: { type: 'string' } }) } }),
          200,
        );
        const version = a.server.services.schemas.stamp()?.version;
        for (let i = 0; servers.some((s) => s.server.services.schemas.stamp()?.version !== version); i++) {
          if (i > 100) throw new Error('not followed');
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        answer();
        const db = b.server.services.database.db;
        const statuses = async () =>
          (await sql<{ status: string }>`SELECT status FROM hearth_webhook_deliveries WHERE webhook_id = ${Number(hook.id)}`.execute(db)).rows.map(
            (r) => r.status,
          );
        for (let i = 0; (await statuses()).join() !== 'delivered'; i++) {
          if (i > 50) break;
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        expect(await statuses()).toEqual(['delivered']);
        expect(servers.flatMap((s, i) => s.logs.slice(before[i]).filter((line) => line.includes('delivery failed')))).toEqual([]);
        expect(arrived).toHaveLength(1);
      } finally {
        await b.server.services.webhooks.store.remove(Number(hook.id));
        receiver.closeAllConnections();
        await new Promise<void>((resolve) => receiver.close(() => resolve()));
      }
    });
  });
}

describe('background work woken by a request', () => {
  it('runs outside the context of the call that woke it: a webhook worker inherits no pin (nor any other async context)', async () => {
    const server = await startTestServer({ schemas: await writeProject({ types: { note: note({}) } }) });
    const receiver = createServer((req, res) => req.resume().on('end', () => res.end('ok')));
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    try {
      const probe = new AsyncLocalStorage<string>();
      const { webhooks } = server.server.services;
      const seen: string[] = [];
      const get = webhooks.store.get.bind(webhooks.store);
      // The dispatcher's worker reads its webhook as it starts: in what context?
      webhooks.store.get = async (id) => {
        if (/dispatcher\.[jt]s/.test(new Error().stack ?? '')) seen.push(probe.getStore() ?? 'outside');
        return get(id);
      };
      const hook = await webhooks.store.create({
        name: 'ctx',
        headers: {},
        url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`,
        events: ['entry.create'],
      } as never);
      const token = await server.token('full-access');
      await expectJson(await server.request('/api/notes', { method: 'POST', token, json: { data: { title: 'woken' } } }), 201);
      const delivered = async () => (await webhooks.deliveries(Number(hook.id))).find((d) => d.status === 'delivered');
      for (let i = 0; (await delivered()) === undefined && i < 100; i++) await new Promise((resolve) => setTimeout(resolve, 20));
      const delivery = await delivered();
      seen.length = 0;
      // A request's call (here the probe's context stands for its pin) wakes the dispatcher.
      await probe.run('request', () => webhooks.redeliver(Number(hook.id), Number(delivery?.id)));
      for (let i = 0; seen.length === 0 && i < 100; i++) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(seen).toEqual(['outside']);
      await webhooks.store.remove(Number(hook.id));
    } finally {
      await server.close();
      receiver.closeAllConnections();
      await new Promise<void>((resolve) => receiver.close(() => resolve()));
    }
  });
});
