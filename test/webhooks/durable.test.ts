import { createHmac } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runHearth } from '../helpers/cli.js';
import { databaseEnvFor, dropDatabaseFor } from '../helpers/database.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { startReceiver, type Receiver } from './receiver.js';

/**
 * Durable delivery, beyond Strapi: an outbox written with the write, sent in order per webhook,
 * retried with backoff while the receiver is down or failing, resumed after a restart, never sent
 * again once a 2xx acknowledged it; optional HMAC signature; writes never wait for receivers.
 */

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const thing of open.splice(0).reverse()) await thing.close();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function serverOn(dataDir?: string): Promise<TestServer> {
  const server = await startTestServer({ webhookRetryBaseMs: 50, ...(dataDir ? { dataDir } : {}) });
  open.push(server);
  return server;
}

async function receiverOn(port = 0): Promise<Receiver> {
  const receiver = await startReceiver(port);
  open.push(receiver);
  return receiver;
}

/** A loopback port nothing listens on (a receiver started and closed again). */
async function closedPort(): Promise<number> {
  const r = await startReceiver();
  await r.close();
  return r.port;
}

async function addWebhook(server: TestServer, body: Record<string, unknown>): Promise<string> {
  const id = await server.server.services.webhooks.store.create({ name: 'w', headers: {}, ...body } as never);
  return id.id;
}

const createTag = async (server: TestServer, token: string, label: string) => {
  const res = await server.request('/api/tags', { method: 'POST', token, json: { data: { label } } });
  expect(res.status).toBe(201);
};

const events = (r: Receiver) => r.received.map((x) => JSON.parse(x.body) as { event: string; entry: { id: number; label: string } });

describe('durable webhook delivery', () => {
  it('a receiver down for a while receives everything, in order, once it is back', async () => {
    const server = await serverOn();
    const token = await server.token('full-access');
    const port = await closedPort();
    await addWebhook(server, { url: `http://127.0.0.1:${port}/hook`, events: ['entry.create', 'entry.publish'] });
    for (const label of ['a', 'b', 'c']) await createTag(server, token, label);
    await sleep(400);
    const receiver = await receiverOn(port);
    await receiver.waitFor(6);
    await sleep(300);
    expect(events(receiver).map((e) => `${e.event} ${e.entry.label} ${e.entry.id}`)).toEqual([
      'entry.create a 1',
      'entry.publish a 2',
      'entry.create b 3',
      'entry.publish b 4',
      'entry.create c 5',
      'entry.publish c 6',
    ]);
  });

  it('retries a non-2xx answer with backoff and logs the attempts', async () => {
    const server = await serverOn();
    const token = await server.token('full-access');
    const receiver = await receiverOn();
    receiver.mode = { status: 500, body: 'fail' };
    const id = await addWebhook(server, { url: `${receiver.url}/hook`, events: ['entry.create'] });
    await createTag(server, token, 'x');
    await receiver.waitFor(2);
    receiver.mode = { status: 204 };
    await receiver.waitFor(3);
    await sleep(300);
    expect(receiver.received).toHaveLength(3);
    const log = await server.server.services.webhooks.deliveries(Number(id));
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({ event: 'entry.create', status: 'delivered', attempts: 3, responseStatus: 204 });
  });

  it('removing a webhook skips its pending deliveries at once, in the same transaction', async () => {
    const server = await serverOn();
    const token = await server.token('full-access');
    const port = await closedPort();
    const id = await addWebhook(server, { url: `http://127.0.0.1:${port}/hook`, events: ['entry.create'] });
    for (const label of ['a', 'b', 'c']) await createTag(server, token, label);
    const { webhooks } = server.server.services;
    expect((await webhooks.deliveries(Number(id))).map((d) => d.status)).toEqual(['pending', 'pending', 'pending']);
    await webhooks.store.remove(Number(id));
    const rows = await server.server.services.database.db.selectFrom('hearth_webhook_deliveries').select(['status', 'error']).where('webhook_id', '=', Number(id)).execute();
    expect(rows).toEqual([
      { status: 'skipped', error: 'webhook removed' },
      { status: 'skipped', error: 'webhook removed' },
      { status: 'skipped', error: 'webhook removed' },
    ]);
  });

  it('a restart delivers what was pending once, and never resends what was acknowledged', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'hearth-webhooks-'));
    try {
      const port = (await closedPort()) as number;
      let receiver = await startReceiver(port);
      let server = await startTestServer({ dataDir, webhookRetryBaseMs: 50 });
      const token = await server.token('full-access');
      await addWebhook(server, { url: `http://127.0.0.1:${port}/hook`, events: ['entry.create'] });
      await createTag(server, token, 'before');
      await receiver.waitFor(1);
      await receiver.close();
      await createTag(server, token, 'pending');
      await sleep(200);
      await server.close();
      receiver = await startReceiver(port);
      open.push(receiver);
      server = await startTestServer({ dataDir, webhookRetryBaseMs: 50 });
      open.push(server);
      await receiver.waitFor(1);
      await sleep(400);
      expect(events(receiver).map((e) => e.entry.label)).toEqual(['pending']);
    } finally {
      for (const thing of open.splice(0).reverse()) await thing.close();
      await rm(dataDir, { recursive: true, force: true });
      await dropDatabaseFor(dataDir);
    }
  });

  it('signs each body with the webhook secret (X-Hearth-Signature over "<timestamp>.<body>")', async () => {
    const server = await serverOn();
    const token = await server.token('full-access');
    const receiver = await receiverOn();
    await addWebhook(server, { url: `${receiver.url}/hook`, events: ['entry.create'], secret: 's3cret' });
    await createTag(server, token, 'signed');
    const [got] = await receiver.waitFor(1);
    if (!got) throw new Error('no delivery');
    const timestamp = got.headers['X-Hearth-Timestamp'] ?? '';
    expect(Math.abs(Number(timestamp) - Date.now() / 1000)).toBeLessThan(30);
    const expected = `sha256=${createHmac('sha256', 's3cret').update(`${timestamp}.${got.body}`).digest('hex')}`;
    expect(got.headers['X-Hearth-Signature']).toBe(expected);
    expect(Object.keys(got.headers).slice(2, 6)).toEqual(['X-Strapi-Event', 'Content-Type', 'X-Hearth-Timestamp', 'X-Hearth-Signature']);
  });

  it('a webhook another process adds (hearth webhook add, the bundle) is used by the very next write', async () => {
    const server = await serverOn();
    const token = await server.token('full-access');
    await createTag(server, token, 'before any webhook');
    const receiver = await receiverOn();
    const added = await runHearth(
      ['webhook', 'add', '--url', `${receiver.url}/cli`, '--events', 'entry.create', '--data', server.dataDir],
      await databaseEnvFor(server.dataDir),
    );
    expect(added.stderr).toBe('');
    expect(added.code).toBe(0);
    await createTag(server, token, 'after');
    await receiver.waitFor(1);
    expect(events(receiver).map((e) => e.entry.label)).toEqual(['after']);
    const removed = await runHearth(['webhook', 'remove', '--id', added.stdout.trim(), '--data', server.dataDir], await databaseEnvFor(server.dataDir));
    expect(removed.code).toBe(0);
    await createTag(server, token, 'after removal');
    await sleep(300);
    expect(receiver.received).toHaveLength(1);
  });

  it('deletes settled deliveries past the retention, keeping pending ones and their events', async () => {
    let offset = 0;
    const server = await startTestServer({ webhookRetryBaseMs: 60_000, now: () => new Date(Date.now() + offset) });
    open.push(server);
    const token = await server.token('full-access');
    const receiver = await receiverOn();
    const id = Number(await addWebhook(server, { url: `${receiver.url}/hook`, events: ['entry.create'] }));
    await createTag(server, token, 'old');
    await receiver.waitFor(1);
    const { webhooks } = server.server.services;
    for (let i = 0; i < 100 && (await webhooks.deliveries(id))[0]?.status !== 'delivered'; i++) await sleep(20);
    receiver.mode = { status: 500 };
    await createTag(server, token, 'failing');
    await receiver.waitFor(2);
    // The failed attempt recorded (its retry a minute away) before the clock jumps.
    for (let i = 0; i < 100 && (await webhooks.deliveries(id))[0]?.attempts !== 1; i++) await sleep(20);
    offset = 8 * 24 * 60 * 60 * 1000;
    expect(await webhooks.prune()).toBe(1);
    const left = await webhooks.deliveries(id);
    expect(left.map((d) => [d.status, d.attempts])).toEqual([['pending', 1]]);
    const events = await server.server.services.database.db.selectFrom('hearth_webhook_events').select('payload').execute();
    expect(events.map((e) => (JSON.parse(e.payload) as { entry: { label: string } }).entry.label)).toEqual(['failing']);
  });

  it('two servers on one database send each delivery once, in order', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'hearth-webhooks-two-'));
    try {
      const first = await startTestServer({ dataDir, webhookRetryBaseMs: 50 });
      open.push(first);
      const second = await startTestServer({ dataDir, webhookRetryBaseMs: 50 });
      open.push(second);
      const receiver = await receiverOn();
      await addWebhook(first, { url: `${receiver.url}/hook`, events: ['entry.create'] });
      const tokens = [await first.token('full-access'), await second.token('full-access')];
      const labels = Array.from({ length: 12 }, (_, i) => `t${i}`);
      for (const [i, label] of labels.entries()) await createTag(i % 2 ? second : first, tokens[i % 2] ?? '', label);
      await receiver.waitFor(labels.length);
      await sleep(500);
      expect(events(receiver).map((e) => e.entry.label)).toEqual(labels);
    } finally {
      for (const thing of open.splice(0).reverse()) await thing.close();
      await rm(dataDir, { recursive: true, force: true });
      await dropDatabaseFor(dataDir);
    }
  });

  it('a write answers at once while the receiver hangs', async () => {
    const server = await serverOn();
    const token = await server.token('full-access');
    const receiver = await receiverOn();
    receiver.mode = 'hang';
    await addWebhook(server, { url: `${receiver.url}/hook`, events: ['entry.create', 'entry.publish'] });
    await createTag(server, token, 'one');
    await receiver.waitFor(1);
    const started = performance.now();
    await createTag(server, token, 'two');
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
