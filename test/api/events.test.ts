import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventSource } from 'eventsource';
import { STREAM_EVENTS_TABLE } from '../../server/db/system-tables.js';
import { dataOf } from '../helpers/project.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { fixturePart, postUpload } from '../uploads/helpers.js';
import { openSse, type SseEvent, type SseStream } from './sse-client.js';

/**
 * `GET /hearth/events`: the live change stream (Server-Sent Events). Each event is a webhook
 * event (`id`, `event`, `data` = the webhook body); a caller only receives what it may `find`;
 * Last-Event-ID resumes within the retention, past it a `reset`; heartbeats; a reader that never
 * reads is dropped without the server buffering for it.
 */

type Body = { event: string; createdAt: string; model?: string; uid?: string; entry?: Record<string, unknown>; media?: Record<string, unknown> };
const bodyOf = (e: SseEvent): Body => JSON.parse(e.data) as Body;
const settle = () => new Promise((r) => setTimeout(r, 300));

let server: TestServer;
let full: string;
const streams: SseStream[] = [];

async function stream(path = '/hearth/events', headers: Record<string, string> = {}, on: TestServer = server): Promise<SseStream> {
  const s = await openSse(`${on.url}${path}`, headers);
  streams.push(s);
  return s;
}
const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
const createTag = async (label: string, on: TestServer = server) => dataOf(await on.request('/api/tags?status=draft', { method: 'POST', token: full, json: { data: { label } } }), 201);

beforeAll(async () => {
  server = await startTestServer();
  full = await server.token('full-access');
});

afterAll(async () => {
  for (const s of streams) s.close();
  await server?.close();
});

describe('GET /hearth/events', () => {
  it('answers text/event-stream; a bad credential is a 401 envelope, a bad Last-Event-ID a 400', async () => {
    const s = await stream('/hearth/events', bearer(full));
    expect(s.status).toBe(200);
    expect(s.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(s.headers.get('cache-control')).toBe('no-cache, no-transform');
    s.close();
    // A dev server on another origin may listen (the content API's CORS policy).
    const cross = await stream('/hearth/events', { Origin: 'http://localhost:3000' });
    expect(cross.headers.get('access-control-allow-origin')).toBe('http://localhost:3000');
    cross.close();

    const bad = await stream('/hearth/events', bearer('not-a-token'));
    expect(bad.status).toBe(401);
    expect(JSON.parse(bad.text ?? '')).toEqual({ data: null, error: { status: 401, name: 'UnauthorizedError', message: 'Missing or invalid credentials', details: {} } });

    const badId = await stream('/hearth/events?lastEventId=abc', bearer(full));
    expect(badId.status).toBe(400);
    expect(JSON.parse(badId.text ?? '')).toMatchObject({ data: null, error: { status: 400, name: 'ValidationError' } });
  });

  it('refuses a Host that is not this server, as every route does', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(`${server.url}/hearth/events`, { headers: { Host: 'evil.example:80' } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end();
    });
    expect(status).not.toBe(200);
  });

  it('sends each caller only the events of the types it may find, and media events only with the upload find', async () => {
    await server.server.services.permissions.grant('public', ['api::tag.tag.find']);
    const publicStream = await stream();
    const articles = await stream('/hearth/events', bearer(await server.token('custom', ['api::article.article.find'])));
    const media = await stream('/hearth/events', bearer(await server.token('custom', ['plugin::upload.content-api.find'])));
    const nothing = await stream('/hearth/events', bearer(await server.token('custom', ['api::category.category.find'])));
    const all = await stream('/hearth/events', bearer(full));

    const article = await dataOf(await server.request('/api/articles?status=draft', { method: 'POST', token: full, json: { data: { title: 'Streamed' } } }), 201);
    const tag = await createTag('streamed');
    expect((await postUpload(server, full, [fixturePart('notes.txt')])).status).toBe(201);

    const every = (await all.waitFor(3)).map(bodyOf);
    expect(every.map((b) => [b.event, b.uid ?? 'media'])).toEqual([
      ['entry.create', 'api::article.article'],
      ['entry.create', 'api::tag.tag'],
      ['media.create', 'media'],
    ]);
    await publicStream.waitFor(1);
    await articles.waitFor(1);
    await media.waitFor(1);
    await settle();
    expect(publicStream.events.map((e) => [e.event, bodyOf(e).entry?.documentId])).toEqual([['entry.create', tag.documentId]]);
    expect(articles.events.map((e) => [e.event, bodyOf(e).entry?.documentId])).toEqual([['entry.create', article.documentId]]);
    expect(media.events.map((e) => [e.event, bodyOf(e).media?.name])).toEqual([['media.create', 'notes.txt']]);
    expect(nothing.status).toBe(200);
    expect(nothing.events).toEqual([]);
    expect(all.events.length).toBe(3);

    // The data is the webhook body: its keys in Strapi's order; the id is the event's.
    const [first] = all.events;
    expect(Object.keys(bodyOf(first as SseEvent))).toEqual(['event', 'createdAt', 'model', 'uid', 'entry']);
    expect(bodyOf(first as SseEvent)).toMatchObject({ event: 'entry.create', model: 'article', uid: 'api::article.article', entry: { documentId: article.documentId, title: 'Streamed' } });
    expect(publicStream.events[0]?.id).toBe(all.events[1]?.id);
    const ids = all.events.map((e) => Number(e.id));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(new Set(ids).size).toBe(3);
  });

  it('a revoked role stops its events at once', async () => {
    await server.server.services.permissions.grant('public', ['api::tag.tag.find']);
    const publicStream = await stream();
    expect(publicStream.status).toBe(200);
    // Granted, the public stream receives the tag's event; revoked, the next one is not sent.
    await createTag('seen');
    await publicStream.waitFor(1);
    await server.server.services.permissions.revoke('public', ['api::tag.tag.find']);
    const all = await stream('/hearth/events', bearer(full));
    await createTag('unseen');
    await all.waitFor(1);
    await settle();
    expect(publicStream.events.map((e) => bodyOf(e).entry?.label)).toEqual(['seen']);
  });

  it('resumes after a disconnect from Last-Event-ID (header or lastEventId parameter) with exactly the missed events, in order', async () => {
    const first = await stream('/hearth/events', bearer(full));
    await createTag('one');
    await createTag('two');
    const seen = await first.waitFor(2);
    first.close();
    const last = String(seen[1]?.id);

    const three = await createTag('three');
    await server.request(`/api/tags/${three.documentId}?status=draft`, { method: 'PUT', token: full, json: { data: { label: 'three!' } } });
    const four = await createTag('four');
    const missed = [
      ['entry.create', three.documentId],
      ['entry.update', three.documentId],
      ['entry.create', four.documentId],
    ];
    const summary = (events: readonly SseEvent[]) => events.map((e) => [e.event, bodyOf(e).entry?.documentId]);

    const byHeader = await stream('/hearth/events', { ...bearer(full), 'Last-Event-ID': last });
    const byQuery = await stream(`/hearth/events?lastEventId=${last}`, bearer(full));
    // EventSource reconnects to the same URL with the header: the header wins over a stale parameter.
    const both = await stream('/hearth/events?lastEventId=0', { ...bearer(full), 'Last-Event-ID': last });
    for (const s of [byHeader, byQuery, both]) expect(summary(await s.waitFor(3))).toEqual(missed);
    await settle();
    for (const s of [byHeader, byQuery, both]) expect(s.events.length).toBe(3);
    expect(byQuery.events.map((e) => e.id)).toEqual(byHeader.events.map((e) => e.id));
    expect(Number(byHeader.events[0]?.id)).toBeGreaterThan(Number(last));
  });

  it('reaches a real EventSource client, which sends its token through fetch', async () => {
    const source = new EventSource(`${server.url}/hearth/events`, {
      fetch: (input, init) => fetch(input, { ...init, headers: { ...init.headers, Authorization: `Bearer ${full}` } }),
    });
    try {
      await new Promise<void>((resolve, reject) => {
        source.onopen = () => resolve();
        source.onerror = (e) => reject(new Error(e.message ?? 'EventSource error'));
      });
      const received = new Promise<MessageEvent>((resolve) => source.addEventListener('entry.create', resolve));
      const tag = await createTag('for EventSource');
      const event = await received;
      expect(JSON.parse(String(event.data))).toMatchObject({ event: 'entry.create', uid: 'api::tag.tag', entry: { documentId: tag.documentId } });
      expect(Number(event.lastEventId)).toBeGreaterThan(0);
    } finally {
      source.close();
    }
  });

  it('delivers an event another instance on the same database commits', async () => {
    const other = await startTestServer({ dataDir: server.dataDir });
    try {
      const s = await stream('/hearth/events', bearer(full));
      const tag = await createTag('from the other instance', other);
      const [event] = await s.waitFor(1);
      expect(bodyOf(event as SseEvent)).toMatchObject({ event: 'entry.create', entry: { documentId: tag.documentId } });
    } finally {
      await other.close();
    }
  });
});

describe('recording', () => {
  it('records nothing while nobody has listened, and every event once a stream has opened', async () => {
    const fresh = await startTestServer();
    try {
      const token = await fresh.token('full-access');
      const { db } = fresh.server.services.database;
      const recorded = async () => (await db.selectFrom(STREAM_EVENTS_TABLE).select('event').execute()).map((r) => r.event);
      const tag = async (label: string) => dataOf(await fresh.request('/api/tags', { method: 'POST', token, json: { data: { label } } }), 201);
      await tag('unheard');
      expect(await recorded()).toEqual([]);
      const s = await stream('/hearth/events', bearer(token), fresh);
      s.close();
      await tag('heard');
      expect(await recorded()).toEqual(['entry.create', 'entry.publish']);
    } finally {
      await fresh.close();
    }
  });
});

describe('retention', () => {
  it('past the retention a resume gets a reset event (and what comes next), never a silent gap', async () => {
    let at = Date.parse('2026-01-01T00:00:00.000Z');
    const clocked = await startTestServer({ now: () => new Date(at) });
    try {
      const token = await clocked.token('full-access');
      const tag = async (label: string) => dataOf(await clocked.request('/api/tags?status=draft', { method: 'POST', token, json: { data: { label } } }), 201);
      const first = await stream('/hearth/events', bearer(token), clocked);
      await tag('old one');
      await tag('old two');
      const [one] = await first.waitFor(2);
      first.close();

      at += 25 * 60 * 60 * 1000;
      await tag('while nobody listened');
      const resumed = await stream('/hearth/events', { ...bearer(token), 'Last-Event-ID': String(one?.id) }, clocked);
      const [reset] = await resumed.waitFor(1);
      expect(reset?.event).toBe('reset');
      expect(JSON.parse(reset?.data ?? '')).toEqual({ lastEventId: Number(reset?.id) });
      const next = await tag('after the reset');
      const [, after] = await resumed.waitFor(2);
      expect([after?.event, bodyOf(after as SseEvent).entry?.documentId]).toEqual(['entry.create', next.documentId]);
    } finally {
      await clocked.close();
    }
  });

  it('keeps at most maxEvents: a Last-Event-ID before them gets a reset, one within them resumes', async () => {
    const small = await startTestServer({ eventStream: { maxEvents: 3 } });
    try {
      const token = await small.token('full-access');
      const first = await stream('/hearth/events', bearer(token), small);
      for (const label of ['a', 'b', 'c', 'd', 'e']) await dataOf(await small.request('/api/tags?status=draft', { method: 'POST', token, json: { data: { label } } }), 201);
      const seen = await first.waitFor(5);
      first.close();
      const gone = await stream('/hearth/events', { ...bearer(token), 'Last-Event-ID': String(seen[0]?.id) }, small);
      expect((await gone.waitFor(1))[0]?.event).toBe('reset');
      const kept = await stream('/hearth/events', { ...bearer(token), 'Last-Event-ID': String(seen[1]?.id) }, small);
      expect((await kept.waitFor(3)).map((e) => e.id)).toEqual(seen.slice(2).map((e) => e.id));
    } finally {
      await small.close();
    }
  });
});

describe('a long-lived connection', () => {
  it('past maxConnections open streams, one more is a 429 envelope', async () => {
    const few = await startTestServer({ eventStream: { maxConnections: 1 } });
    try {
      const first = await stream('/hearth/events', {}, few);
      expect(first.status).toBe(200);
      const second = await stream('/hearth/events', {}, few);
      expect(second.status).toBe(429);
      expect(JSON.parse(second.text ?? '')).toEqual({ data: null, error: { status: 429, name: 'RateLimitError', message: 'Too many open event streams', details: {} } });
    } finally {
      await few.close();
    }
  });

  it('sends a heartbeat comment while idle', async () => {
    const beating = await startTestServer({ eventStream: { heartbeatMs: 50 } });
    try {
      const s = await stream('/hearth/events', {}, beating);
      await s.waitForComment('heartbeat', 2000);
    } finally {
      await beating.close();
    }
  });

  it('drops a reader that never reads: its unsent output stays under the buffered-bytes limit, then the server closes it', async () => {
    const limits = { maxBufferedBytes: 64 * 1024, stallMs: 500 };
    const slow = await startTestServer({ eventStream: limits });
    const token = await slow.token('full-access');
    const socket = connect(Number(new URL(slow.url).port), '127.0.0.1');
    try {
      await new Promise<void>((resolve) => socket.once('connect', resolve));
      socket.write(`GET /hearth/events HTTP/1.1\r\nHost: ${new URL(slow.url).host}\r\nAuthorization: Bearer ${token}\r\n\r\n`);
      // Never reads: what the server writes fills the kernel's buffers, then its own.
      socket.pause();
      const events = slow.server.services.events;
      while (events.openCount() === 0) await new Promise((r) => setTimeout(r, 20));

      const summary = 'x'.repeat(200 * 1024);
      let written = 0;
      let peak = 0;
      // Up to 24 MB of events, far more than the kernel's socket buffers hold, until the server drops the reader.
      for (let i = 0; i < 120 && events.openCount() > 0; i++) {
        const res = await slow.request('/api/articles?status=draft', { method: 'POST', token, json: { data: { title: `big ${i}`, summary } } });
        expect(res.status).toBe(201);
        written += summary.length;
        peak = Math.max(peak, events.bufferedBytes());
      }
      const deadline = Date.now() + 10_000;
      while (events.openCount() > 0 && Date.now() < deadline) {
        peak = Math.max(peak, events.bufferedBytes());
        await new Promise((r) => setTimeout(r, 20));
      }
      expect(events.openCount()).toBe(0);
      // At most the limit plus the one event that crossed it.
      expect(peak).toBeLessThan(limits.maxBufferedBytes + summary.length + 16 * 1024);
      // What the reader missed stays in the table (it resumes with Last-Event-ID), not in the server's memory.
      expect(written).toBeGreaterThan(10 * peak);
    } finally {
      socket.destroy();
      await slow.close();
    }
  });
});
