import { afterEach, describe, expect, it } from 'vitest';
import { registerOwner } from '../admin/helpers.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { startReceiver, type Receiver } from './receiver.js';

/** Issue 19: redelivering a delivery that is still retrying sends it now, not a second copy behind it. */

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const thing of open.splice(0).reverse()) await thing.close();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function setUp(): Promise<{ server: TestServer; receiver: Receiver; admin: string; id: string }> {
  // The first retry waits a minute: only a redeliver can send it within the test.
  const server = await startTestServer({ webhookRetryBaseMs: 60_000 });
  open.push(server);
  const receiver = await startReceiver();
  open.push(receiver);
  const admin = await registerOwner(server);
  const create = await server.request('/admin/api/webhooks', {
    method: 'POST',
    token: admin,
    json: { name: 'retrying', url: `${receiver.url}/hook`, headers: {}, events: ['entry.create'] },
  });
  const { id } = ((await create.json()) as { data: { id: string } }).data;
  return { server, receiver, admin, id };
}

type Log = { data: { id: number; status: string; attempts: number; responseStatus: number | null; nextAttemptAt: string | null }[] };

describe('redeliver', () => {
  it('sends a delivery that waits to retry now, once, instead of queueing a copy behind it', async () => {
    const { server, receiver, admin, id } = await setUp();
    receiver.mode = { status: 500, body: 'down' };
    const token = await server.token('full-access');
    expect((await server.request('/api/tags', { method: 'POST', token, json: { data: { label: 'x' } } })).status).toBe(201);
    await receiver.waitFor(1);
    let log: Log = { data: [] };
    for (let i = 0; i < 100 && log.data[0]?.attempts !== 1; i++) {
      await sleep(20);
      log = (await (await server.request(`/admin/api/webhooks/${id}/deliveries`, { token: admin })).json()) as Log;
    }
    expect(log.data).toMatchObject([{ status: 'pending', attempts: 1, responseStatus: 500 }]);
    const delivery = log.data[0]?.id ?? 0;
    receiver.mode = { status: 204 };
    const again = await server.request(`/admin/api/webhooks/${id}/deliveries/${delivery}/redeliver`, { method: 'POST', token: admin });
    expect(again.status).toBe(202);
    expect(((await again.json()) as { data: { id: number; status: string } }).data).toMatchObject({ id: delivery, status: 'pending' });
    await receiver.waitFor(2, 5000);
    await sleep(300);
    expect(receiver.received).toHaveLength(2);
    log = (await (await server.request(`/admin/api/webhooks/${id}/deliveries`, { token: admin })).json()) as Log;
    expect(log.data).toMatchObject([{ id: delivery, status: 'delivered', attempts: 2, responseStatus: 204 }]);
  });

  it('queues a new attempt for a delivery already delivered', async () => {
    const { server, receiver, admin, id } = await setUp();
    receiver.mode = { status: 204 };
    const token = await server.token('full-access');
    expect((await server.request('/api/tags', { method: 'POST', token, json: { data: { label: 'y' } } })).status).toBe(201);
    await receiver.waitFor(1);
    let log: Log = { data: [] };
    for (let i = 0; i < 100 && log.data[0]?.status !== 'delivered'; i++) {
      await sleep(20);
      log = (await (await server.request(`/admin/api/webhooks/${id}/deliveries`, { token: admin })).json()) as Log;
    }
    const delivery = log.data[0]?.id ?? 0;
    const again = await server.request(`/admin/api/webhooks/${id}/deliveries/${delivery}/redeliver`, { method: 'POST', token: admin });
    expect(again.status).toBe(202);
    const line = ((await again.json()) as { data: { id: number } }).data;
    expect(line.id).not.toBe(delivery);
    await receiver.waitFor(2, 5000);
    log = { data: [] };
    for (let i = 0; i < 100 && log.data[0]?.status !== 'delivered'; i++) {
      await sleep(20);
      log = (await (await server.request(`/admin/api/webhooks/${id}/deliveries`, { token: admin })).json()) as Log;
    }
    expect(log.data.map((d) => [d.id, d.status])).toEqual([
      [line.id, 'delivered'],
      [delivery, 'delivered'],
    ]);
  });
});
