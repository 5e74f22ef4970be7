import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerOwner } from '../admin/helpers.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { startReceiver, type Mode, type Receiver } from './receiver.js';
import { recordedAdminApi, type RecordedExchange } from './replay.js';

/**
 * Replays admin-api.jsonl (Strapi 5.54's `/admin/webhooks`, recorded) against Hearth's
 * `/admin/api/webhooks`: the same statuses and bodies, with ids mapped (Hearth refuses the
 * ftp:// webhook, so its ids run one behind from there) and the receiver's URL replaced.
 * Where Hearth answers differently on purpose, the test says so and checks Hearth's answer.
 */

const RECORDED_ORIGIN = 'http://127.0.0.1:1341';

/** Steps of the recording that need a Strapi setting Hearth does not have (NODE_ENV=production, config defaultHeaders) or a 10 s hang. */
const SKIPPED = (note: string): boolean =>
  note.startsWith('register') ||
  note.startsWith('admin login') ||
  note.startsWith('NODE_ENV=production') ||
  note.includes('defaultHeaders') ||
  note.includes('mode hang') ||
  note.includes('302');

let server: TestServer;
let receiver: Receiver;
let down: Receiver;
let admin: string;

beforeAll(async () => {
  server = await startTestServer();
  receiver = await startReceiver();
  admin = await registerOwner(server);
});

afterAll(async () => {
  await server?.close();
  await receiver?.close();
  await down?.close();
});

function modeOf(note: string): Mode {
  if (note.includes('mode 500')) return { status: 500, body: 'fail' };
  if (note.includes('receiver answers 404')) return { status: 404, body: 'not here' };
  return { status: 200, body: 'ok' };
}

describe('admin webhook API replayed from Strapi 5.54', () => {
  it('answers every recorded request as Strapi did, except where Hearth is stricter', async () => {
    const ids = new Map<string, string>();
    const gone = new Set<string>();
    // A closed port for the `down` webhook: a receiver started and closed again.
    down = await startReceiver();
    const downUrl = down.url;
    await down.close();
    const swap = (text: string): string => {
      let out = text.split(`http://127.0.0.1:1349`).join(downUrl).split(RECORDED_ORIGIN).join(receiver.url);
      out = out.replace(/"id":"(\d+)"/g, (_m, id: string) => `"id":"${ids.get(id) ?? id}"`);
      return out;
    };
    const mapPath = (path: string): string =>
      path.replace(/^\/admin\/webhooks/, '/admin/api/webhooks').replace(/\/webhooks\/(\d+)/, (_m, id: string) => `/webhooks/${ids.get(id) ?? id}`);
    const exchanges: RecordedExchange[] = recordedAdminApi().filter((e) => !SKIPPED(e.note));
    expect(exchanges.length).toBeGreaterThan(55);
    for (const { note, request, response } of exchanges) {
      receiver.mode = modeOf(note);
      let body = request.body;
      if (note === 'batch-delete two webhooks and an unknown id') body = { ids: (body as { ids: string[] }).ids.map((id) => ids.get(id) ?? id) };
      const res = await server.request(mapPath(request.path), {
        method: request.method,
        token: admin,
        ...(body !== undefined && body !== null ? { json: JSON.parse(swap(JSON.stringify(body))) } : {}),
      });
      const got = (await res.json()) as unknown;
      if (note === 'validation: ftp scheme url') {
        // Hearth: only http and https (Strapi accepts any scheme).
        expect(res.status, note).toBe(400);
        expect(got).toEqual({
          data: null,
          error: {
            status: 400,
            name: 'ValidationError',
            message: 'url must use http or https',
            details: { errors: [{ path: ['url'], message: 'url must use http or https', name: 'ValidationError', value: 'ftp://127.0.0.1:1341/x' }] },
          },
        });
        gone.add('10');
        continue;
      }
      if (note === 'delete the ftp webhook created above') {
        expect(res.status, note).toBe(404);
        continue;
      }
      if (note === 'trigger webhook 999 (receiver mode ok)') {
        // Hearth: 404 for an unknown webhook (Strapi: 500 InternalServerError).
        expect(res.status, note).toBe(404);
        expect(got).toEqual({ data: null, error: { status: 404, name: 'NotFoundError', message: 'webhook.notFound', details: {} } });
        continue;
      }
      let want = response.body as { data?: unknown };
      if (note === 'batch-delete two webhooks and an unknown id') want = { data: (want.data as string[]).map((id) => ids.get(id) ?? id) };
      else if (Array.isArray(want.data)) want = { ...want, data: want.data.filter((w: { id?: string }) => !gone.has(String(w.id))) };
      if (res.status === 201 && request.method === 'POST') {
        const recorded = (response.body as { data: { id: string } }).data.id;
        ids.set(recorded, (got as { data: { id: string } }).data.id);
      }
      expect(res.status, note).toBe(response.status);
      expect(got, note).toEqual(JSON.parse(swap(JSON.stringify(want))));
    }
    // The trigger calls reached the receiver with Strapi's body.
    const triggers = receiver.received.map((r) => JSON.parse(r.body) as Record<string, unknown>).filter((b) => b.event === 'trigger-test');
    expect(triggers.length).toBeGreaterThan(3);
    for (const t of triggers) expect(Object.keys(t)).toEqual(['event', 'createdAt']);
  });

  it('keeps a delivery log per webhook and redelivers', async () => {
    const create = await server.request('/admin/api/webhooks', {
      method: 'POST',
      token: admin,
      json: { name: 'log', url: `${receiver.url}/log`, headers: {}, events: ['entry.create'] },
    });
    const { id } = ((await create.json()) as { data: { id: string } }).data;
    receiver.mode = { status: 200, body: 'ok' };
    const apiToken = await server.token('full-access');
    expect((await server.request('/api/categories', { method: 'POST', token: apiToken, json: { data: { name: 'Logged' } } })).status).toBe(201);
    await receiver.waitFor(receiver.received.filter((r) => r.path !== '/log').length + 1);
    let log: { data: { id: number; event: string; status: string; attempts: number; responseStatus: number | null }[] } = { data: [] };
    for (let i = 0; i < 100 && log.data[0]?.status !== 'delivered'; i++) {
      await new Promise((r) => setTimeout(r, 30));
      log = (await (await server.request(`/admin/api/webhooks/${id}/deliveries`, { token: admin })).json()) as typeof log;
    }
    expect(log.data).toHaveLength(1);
    expect(log.data[0]).toMatchObject({ event: 'entry.create', status: 'delivered', attempts: 1, responseStatus: 200 });
    const first = log.data[0]?.id ?? 0;
    const before = receiver.received.filter((r) => r.path === '/log').length;
    const again = await server.request(`/admin/api/webhooks/${id}/deliveries/${first}/redeliver`, { method: 'POST', token: admin });
    expect(again.status).toBe(202);
    for (let i = 0; i < 200 && receiver.received.filter((r) => r.path === '/log').length === before; i++) await new Promise((r) => setTimeout(r, 20));
    const logged = receiver.received.filter((r) => r.path === '/log');
    expect(logged).toHaveLength(before + 1);
    expect(JSON.parse(logged[before]?.body ?? '{}')).toMatchObject({ event: 'entry.create', model: 'category' });
    const unknown = await server.request(`/admin/api/webhooks/999999/deliveries`, { token: admin });
    expect(unknown.status).toBe(404);
  });
});
