import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, registerOwner } from '../admin/helpers.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

/**
 * The admin UI's change-stream client (renderer/api/event-stream.ts), run in Node against the
 * real server with an admin session: the stream accepts the session as a bearer credential and
 * sends every type's events (the public role here may find none); after a dropped connection the
 * client reconnects with Last-Event-ID and receives what was committed meanwhile, with no reset.
 */

interface LiveEvent {
  readonly id: number | null;
  readonly event: string;
  readonly data: Readonly<Record<string, unknown>>;
}
interface EventStreamModule {
  followEventStream(deps: {
    open: (headers: Headers, signal: AbortSignal) => Promise<Response>;
    onEvent: (event: LiveEvent) => void;
    onReset: () => void;
    retryMs?: number;
    maxRetryMs?: number;
  }): () => void;
}
// The renderer's module is loaded as it is (the server's tsconfig does not compile renderer files).
const { followEventStream } = (await import(resolve(import.meta.dirname, '../../renderer/api/event-stream.ts'))) as EventStreamModule;

let server: TestServer;
let admin: string;

beforeAll(async () => {
  server = await startTestServer();
  admin = await registerOwner(server);
});
afterAll(() => server.close());

const createTag = async (label: string) => {
  const res = await server.request('/api/tags', { method: 'POST', token: admin, json: { data: { label } } });
  expect(res.status).toBe(201);
};

describe("the admin UI's change-stream client", () => {
  it('follows the stream with the admin session, and resumes with Last-Event-ID after a drop without a reset', async () => {
    const events: LiveEvent[] = [];
    let resets = 0;
    const sent: (string | null)[] = [];
    let connection = null as AbortController | null;
    const stop = followEventStream({
      retryMs: 300,
      open: async (headers, signal) => {
        connection = new AbortController();
        headers.set('Authorization', `Bearer ${admin}`);
        sent.push(headers.get('Last-Event-ID'));
        const res = await fetch(`${server.url}/hearth/events`, { headers, signal: AbortSignal.any([signal, connection.signal]) });
        expect(res.status).toBe(200);
        return res;
      },
      onEvent: (e) => events.push(e),
      onReset: () => resets++,
    });
    try {
      await eventually(async () => sent.length === 1 && (await server.server.services.events.openCount()) === 1);
      await createTag('soup');
      await eventually(async () => events.some((e) => e.event === 'entry.create'));
      const first = events.find((e) => e.event === 'entry.create');
      expect(first?.data).toMatchObject({ uid: 'api::tag.tag', entry: { label: 'soup' } });
      expect(first?.id).toEqual(expect.any(Number));

      // Whatever else the write raised (a publish) has arrived: the id the client holds.
      await new Promise((r) => setTimeout(r, 300));
      const held = events[events.length - 1]?.id;
      // The connection drops; two writes happen before the client is back.
      connection?.abort();
      await createTag('stew');
      await createTag('broth');
      await eventually(async () => events.filter((e) => e.event === 'entry.create').length === 3);
      expect(sent).toEqual([null, String(held)]);
      expect(events.filter((e) => e.event === 'entry.create').map((e) => (e.data.entry as { label?: string }).label)).toEqual(['soup', 'stew', 'broth']);
      expect(resets).toBe(0);
    } finally {
      stop();
    }
  });
});
