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

const createTag = async (label: string, on: TestServer = server, token = admin) => {
  const res = await on.request('/api/tags', { method: 'POST', token, json: { data: { label } } });
  expect(res.status).toBe(201);
};

/** Follows `on`'s stream with `token` through the client; `drop()` ends the current connection as a network failure would. */
function follow(on: TestServer, token: string) {
  const events: LiveEvent[] = [];
  const sent: (string | null)[] = [];
  let resets = 0;
  let connection = null as AbortController | null;
  const stop = followEventStream({
    retryMs: 300,
    open: async (headers, signal) => {
      connection = new AbortController();
      headers.set('Authorization', `Bearer ${token}`);
      sent.push(headers.get('Last-Event-ID'));
      const res = await fetch(`${on.url}/hearth/events`, { headers, signal: AbortSignal.any([signal, connection.signal]) });
      expect(res.status).toBe(200);
      return res;
    },
    onEvent: (e) => events.push(e),
    onReset: () => resets++,
  });
  return { events, sent, resets: () => resets, drop: () => connection?.abort(), stop };
}

describe("the admin UI's change-stream client", () => {
  it('follows the stream with the admin session, and resumes with Last-Event-ID after a drop without a reset', async () => {
    const live = follow(server, admin);
    const creates = () => live.events.filter((e) => e.event === 'entry.create');
    try {
      await eventually(async () => live.sent.length === 1 && server.server.services.events.openCount() === 1);
      await createTag('soup');
      await eventually(async () => creates().length === 1);
      expect(creates()[0]?.data).toMatchObject({ uid: 'api::tag.tag', entry: { label: 'soup' } });
      expect(creates()[0]?.id).toEqual(expect.any(Number));

      // Whatever else the write raised (a publish) has arrived: the id the client holds.
      await new Promise((r) => setTimeout(r, 300));
      const held = live.events[live.events.length - 1]?.id;
      // The connection drops; two writes happen before the client is back.
      live.drop();
      await createTag('stew');
      await createTag('broth');
      await eventually(async () => creates().length === 3);
      expect(live.sent).toEqual([null, String(held)]);
      expect(creates().map((e) => (e.data.entry as { label?: string }).label)).toEqual(['soup', 'stew', 'broth']);
      expect(live.resets()).toBe(0);
    } finally {
      live.stop();
    }
  });

  it('on a reset (the id it held is past the retention) asks for a full refresh and follows on from the reset', async () => {
    const small = await startTestServer({ eventStream: { maxEvents: 3 } });
    const owner = await registerOwner(small);
    const live = follow(small, owner);
    try {
      await eventually(async () => live.sent.length === 1 && small.server.services.events.openCount() === 1);
      await createTag('first', small, owner);
      await eventually(async () => live.events.some((e) => e.event === 'entry.create'));
      await new Promise((r) => setTimeout(r, 300));
      live.drop();
      // More writes than the stream keeps: the held id can no longer be resumed from.
      for (const label of ['a', 'b', 'c', 'd']) await createTag(label, small, owner);
      await eventually(async () => live.resets() === 1);
      const seen = live.events.length;
      await createTag('after', small, owner);
      await eventually(async () => live.events.slice(seen).some((e) => (e.data.entry as { label?: string } | undefined)?.label === 'after'));
      expect(live.resets()).toBe(1);
      expect(live.sent).toHaveLength(2);
    } finally {
      live.stop();
      await small.close();
    }
  });
});
