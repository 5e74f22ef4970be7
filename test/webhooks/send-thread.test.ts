import { afterEach, describe, expect, it } from 'vitest';
import { sendEvent } from '../../server/webhooks/send.js';
import { createThreadSender, type Sender } from '../../server/webhooks/send-thread.js';
import type { Webhook } from '../../server/webhooks/store.js';
import { startReceiver, type Receiver } from './receiver.js';

/**
 * The dispatcher's sender on its own thread (send-thread.ts, send-worker.ts), and on the server's
 * thread (one core, or no worker script): the same request reaches the receiver either way, the
 * one fetch sends (the trigger endpoint's sendEvent), and closing aborts what is in flight.
 */

const open: { close(): unknown }[] = [];
afterEach(async () => {
  for (const thing of open.splice(0).reverse()) await thing.close();
});

const webhookAt = (url: string, secret: string | null = null): Webhook => ({
  id: '7',
  name: 'w',
  url,
  headers: { Authorization: 'Bearer abc', 'X-Custom': 'yes' },
  events: ['entry.update'],
  isEnabled: true,
  secret,
});

const BODY = '{"event":"entry.update","createdAt":"2026-11-27T02:03:04.567Z","model":"tag","uid":"api::tag.tag","entry":{"id":1,"label":"é"}}';
const AT = new Date('2026-11-27T02:03:04.567Z');

async function receiverFor(): Promise<Receiver> {
  const receiver = await startReceiver();
  open.push(receiver);
  receiver.mode = { status: 204 };
  return receiver;
}

function sender(thread: boolean, idleMs?: number): { sender: Sender; logs: string[] } {
  const logs: string[] = [];
  const made = createThreadSender({ thread, log: (m) => logs.push(m), ...(idleMs === undefined ? {} : { idleMs }) });
  open.push(made);
  return { sender: made, logs };
}

describe('webhook send thread', () => {
  it('sends the request fetch sends, from its thread and from the server thread alike (headers in order, body, signature)', async () => {
    const receiver = await receiverFor();
    const webhook = webhookAt(`${receiver.url}/hook`, 's3cret');
    const viaFetch = await sendEvent({ webhook, event: 'entry.update', body: BODY, now: AT });
    const threaded = sender(true);
    const local = sender(false);
    const a = await threaded.sender.send({ webhook, event: 'entry.update', body: BODY, now: AT });
    const b = await local.sender.send({ webhook, event: 'entry.update', body: BODY, now: AT });
    for (const result of [viaFetch, a, b]) expect(result).toEqual({ statusCode: 204, network: false, aborted: false });
    const [fetched, fromThread, fromHere] = await receiver.waitFor(3);
    const shape = (r: typeof fetched) => ({ path: r?.path, method: r?.method, headers: r?.headers, body: r?.body });
    expect(shape(fromThread)).toEqual(shape(fetched));
    expect(shape(fromHere)).toEqual(shape(fetched));
    expect(Object.keys(fromThread?.headers ?? {})).toEqual(Object.keys(fetched?.headers ?? {}));
    expect(fromThread?.headers['X-Hearth-Signature']).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(threaded.logs).toEqual([]);
  });

  it('answers a non-2xx with its status and text, and a refused connection as a network failure, from the thread', async () => {
    const receiver = await receiverFor();
    receiver.mode = { status: 503, body: 'busy' };
    const { sender: s } = sender(true);
    expect(await s.send({ webhook: webhookAt(`${receiver.url}/hook`), event: 'entry.update', body: BODY, now: AT })).toEqual({ statusCode: 503, message: 'busy', network: false, aborted: false });
    await receiver.close();
    // A sender with no kept-alive connection to the closed port: its connection is refused.
    const refused = await sender(true).sender.send({ webhook: webhookAt(`${receiver.url}/hook`), event: 'entry.update', body: BODY, now: AT });
    expect(refused).toMatchObject({ statusCode: 500, network: true, aborted: false });
    expect(refused.message).toMatch(/ECONNREFUSED/);
  });

  it('keeps the order of the sends of one turn and answers each its own', async () => {
    const receiver = await receiverFor();
    const { sender: s } = sender(true);
    const bodies = Array.from({ length: 12 }, (_, i) => BODY.replace('"id":1', `"id":${i}`));
    const results = await Promise.all(bodies.map((body) => s.send({ webhook: webhookAt(`${receiver.url}/hook`), event: 'entry.update', body, now: AT })));
    expect(results.map((r) => r.statusCode)).toEqual(bodies.map(() => 204));
    expect(new Set((await receiver.waitFor(12)).map((r) => r.body))).toEqual(new Set(bodies));
  });

  it('aborts the sends in flight when closed: they answer aborted (still pending, sent again at the next start)', async () => {
    const receiver = await receiverFor();
    receiver.mode = 'hang';
    for (const thread of [true, false]) {
      const { sender: s } = sender(thread);
      const inFlight = s.send({ webhook: webhookAt(`${receiver.url}/hook`), event: 'entry.update', body: BODY, now: AT });
      await receiver.waitFor(thread ? 1 : 2);
      s.close();
      expect(await inFlight).toMatchObject({ statusCode: 500, network: true, aborted: true });
      expect(await s.send({ webhook: webhookAt(`${receiver.url}/hook`), event: 'entry.update', body: BODY, now: AT })).toMatchObject({ aborted: true });
    }
  });

  it('ends its thread when idle and starts it again at the next send', async () => {
    const receiver = await receiverFor();
    const { sender: s, logs } = sender(true, 50);
    const send = () => s.send({ webhook: webhookAt(`${receiver.url}/hook`), event: 'entry.update', body: BODY, now: AT });
    expect((await send()).statusCode).toBe(204);
    expect(s.running()).toBe(true);
    for (let i = 0; i < 100 && s.running(); i++) await new Promise((r) => setTimeout(r, 20));
    expect(s.running()).toBe(false);
    expect((await send()).statusCode).toBe(204);
    expect(s.running()).toBe(true);
    expect(await receiver.waitFor(2)).toHaveLength(2);
    expect(logs).toEqual([]);
  });
});
