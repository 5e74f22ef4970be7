import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WEBHOOK_EVENTS } from '../../server/webhooks/events.js';
import type { TestServer } from '../helpers/server.js';

/** One request a receiver got: its path, headers as sent (rawHeaders: order and casing kept) and body. */
export interface Received {
  readonly path: string;
  readonly method: string;
  readonly headers: Record<string, string>;
  readonly body: string;
}

/** How the receiver answers the next requests: a status (with a body), or never (hang). */
export type Mode = { status: number; body?: string } | 'hang';

/** A real HTTP receiver on loopback, as the recording's (logs rawHeaders and the raw body). */
export interface Receiver {
  readonly url: string;
  readonly port: number;
  readonly received: Received[];
  mode: Mode;
  /** Waits until at least `n` requests arrived (or throws after `timeoutMs`). */
  waitFor(n: number, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

function headersOf(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < req.rawHeaders.length; i += 2) out[req.rawHeaders[i] ?? ''] = req.rawHeaders[i + 1] ?? '';
  return out;
}

export async function startReceiver(port = 0): Promise<Receiver> {
  const received: Received[] = [];
  const hung: IncomingMessage[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ path: req.url ?? '', method: req.method ?? '', headers: headersOf(req), body: Buffer.concat(chunks).toString('utf8') });
      const mode = receiver.mode;
      if (mode === 'hang') {
        hung.push(req);
        return;
      }
      res.writeHead(mode.status, { 'Content-Type': 'text/plain' });
      res.end(mode.body ?? '');
    });
  });
  const receiver: Receiver = {
    url: '',
    port: 0,
    received,
    mode: { status: 200, body: 'ok' },
    async waitFor(n, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      while (received.length < n) {
        if (Date.now() > deadline) throw new Error(`receiver: ${received.length} of ${n} requests before the deadline`);
        await new Promise((r) => setTimeout(r, 20));
      }
      return received;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const req of hung) req.socket.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const actual = (server.address() as AddressInfo).port;
  Object.assign(receiver, { url: `http://127.0.0.1:${actual}`, port: actual });
  return receiver;
}

/** Every entry event (Strapi's `entry.*`): what the content-manager tests subscribe to. */
export const ENTRY_EVENTS = WEBHOOK_EVENTS.filter((event) => event.startsWith('entry.'));

/** Subscribes a webhook at `<receiver>/all` to every entry event, through the server's store. */
export async function hookEntryEvents(server: TestServer, receiver: Receiver): Promise<void> {
  await server.server.services.webhooks.store.create({ name: 'all', url: `${receiver.url}/all`, headers: {}, events: [...ENTRY_EVENTS] });
}

/** The bodies received after the first `before` requests: waits for `count` of them, then a moment for any extra one. */
export async function bodiesAfter<T = Record<string, unknown>>(receiver: Receiver, before: number, count: number): Promise<T[]> {
  await receiver.waitFor(before + count);
  await new Promise((r) => setTimeout(r, 150));
  return receiver.received.slice(before).map((r) => JSON.parse(r.body) as T);
}
