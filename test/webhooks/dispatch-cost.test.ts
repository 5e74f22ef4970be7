import { CompiledQuery, sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { WEBHOOK_BATCH_SIZE } from '../../server/limits.js';
import { queueHeadQuery } from '../../server/webhooks/queue.js';
import { onPostgres } from '../helpers/database.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { startReceiver, type Receiver } from './receiver.js';

/**
 * Issue 19: deliveries never slow the writes. The dispatcher's bookkeeping shares the database
 * with them (on SQLite its single writer), so it reads, claims and settles a webhook's queue a
 * batch at a time: a backlog costs a few statements per batch, not several per delivery.
 */

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const thing of open.splice(0).reverse()) await thing.close();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('webhook dispatch cost', () => {
  it('drains a backlog of 40 deliveries in order with about one statement per delivery (its settle; the queue read and claimed in batches)', async () => {
    const server: TestServer = await startTestServer({ webhookRetryBaseMs: 200 });
    open.push(server);
    const token = await server.token('full-access');
    const receiver: Receiver = await startReceiver();
    open.push(receiver);
    receiver.mode = { status: 500, body: 'down' };
    const { webhooks, database } = server.server.services;
    await webhooks.store.create({ name: 'w', headers: {}, url: `${receiver.url}/hook`, events: ['entry.create'] });
    const labels = Array.from({ length: 40 }, (_, i) => `t${i}`);
    for (const label of labels) {
      const res = await server.request('/api/tags', { method: 'POST', token, json: { data: { label } } });
      expect(res.status).toBe(201);
    }
    // The first delivery failed and waits to retry; the rest queue behind it.
    await receiver.waitFor(1);
    receiver.mode = { status: 204 };
    const failed = receiver.received.length;
    const before = database.queryCount();
    await receiver.waitFor(failed + labels.length);
    await sleep(300);
    const statements = database.queryCount() - before;
    const sent = receiver.received.slice(failed).map((r) => (JSON.parse(r.body) as { entry: { label: string } }).entry.label);
    expect(sent).toEqual(labels);
    expect((await webhooks.deliveries(1)).map((d) => d.status)).toEqual(labels.map(() => 'delivered'));
    // Before the batching: 4 per delivery (161). Each acknowledgement is recorded before the next send (kill -9 safety).
    expect(statements).toBeLessThan(labels.length * 1.5);
  });

  it('prunes beside 6,000 events and 24,000 deliveries within 3 s (the deliveries indexed by event, not scanned once per event)', async () => {
    const server: TestServer = await startTestServer();
    open.push(server);
    const { webhooks, database } = server.server.services;
    const { db } = database;
    const stamp = new Date().toISOString();
    const EVENTS = 6000;
    await db.transaction().execute(async (trx) => {
      for (let from = 0; from < EVENTS; from += 3000) {
        const rows = Array.from({ length: 3000 }, () => ({ event: 'entry.create', payload: '{}', created_at: stamp }));
        const ids = await trx.insertInto('hearth_webhook_events').values(rows).returning('id').execute();
        const deliveries = ids.flatMap(({ id }) =>
          [1, 2, 3, 4].map((webhook_id) => ({ event_id: Number(id), webhook_id, status: 'delivered', attempts: 1, next_at: stamp, created_at: stamp, updated_at: stamp })),
        );
        for (let i = 0; i < deliveries.length; i += 4000) await trx.insertInto('hearth_webhook_deliveries').values(deliveries.slice(i, i + 4000)).execute();
      }
    });
    const started = performance.now();
    // Nothing is old enough to go; the events all still have deliveries.
    expect(await webhooks.prune()).toBe(0);
    expect(performance.now() - started).toBeLessThan(3000);
  });
});

describe('webhook queue index', () => {
  it('reads a queue through the index of pending deliveries alone (migration 8), which a settle leaves instead of moving within it', async () => {
    const server: TestServer = await startTestServer();
    open.push(server);
    const { db } = server.server.services.database;
    const { sql: text, parameters } = queueHeadQuery(db, 1).compile();
    // The statement's parameters, as the dispatcher binds them.
    expect(parameters).toEqual([1, WEBHOOK_BATCH_SIZE]);
    if (onPostgres()) {
      // PostgreSQL plans a table this small with a scan whatever its indexes: check the index itself.
      const rows = await sql<{ indexdef: string }>`SELECT indexdef FROM pg_indexes WHERE indexname = 'hearth_webhook_deliveries_queue_idx'`.execute(db);
      expect(rows.rows.map((r) => r.indexdef)).toEqual([expect.stringMatching(/\(webhook_id, id\) WHERE \(status = 'pending'::text\)$/)]);
      return;
    }
    const plan = await db.executeQuery<{ detail: string }>(CompiledQuery.raw(`EXPLAIN QUERY PLAN ${text}`, [...parameters]));
    const details = plan.rows.map((r) => r.detail).join('; ');
    expect(details).toMatch(/hearth_webhook_deliveries USING INDEX hearth_webhook_deliveries_queue_idx \(webhook_id=\?\)/);
    expect(details).not.toMatch(/TEMP B-TREE/);
  });
});
