import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import { WEBHOOK_DELIVERIES_TABLE, WEBHOOK_EVENTS_TABLE } from '../db/system-tables.js';
import { WEBHOOK_BATCH_SIZE } from '../limits.js';

/**
 * The statements of the webhooks' delivery queues, each for a batch of deliveries rather than one:
 * read the head of a queue (at most WEBHOOK_BATCH_SIZE, in order), claim the heads of several
 * queues, and settle what was sent (for several queues at once: the dispatcher joins the calls its
 * workers make in one turn of the event loop). A few statements per batch instead of three per
 * delivery keep the dispatcher's bookkeeping off SQLite's single writer, which the writes need.
 */

/**
 * `'pending'` written into the statement: the queue index (migration 8) holds only pending
 * deliveries, and SQLite uses a partial index only for a WHERE that names its condition's literal,
 * never a bound parameter.
 */
export const PENDING = sql.lit('pending');

/** A pending delivery at the head of a webhook's queue, with its event. */
export interface QueuedDelivery {
  readonly id: number;
  readonly attempts: number;
  readonly nextAt: string;
  readonly event: string;
  readonly payload: string;
}

/** The statement of queueHead. */
export const queueHeadQuery = (db: Db, webhookId: number) =>
  db
    .selectFrom(WEBHOOK_DELIVERIES_TABLE)
    .innerJoin(WEBHOOK_EVENTS_TABLE, `${WEBHOOK_EVENTS_TABLE}.id`, `${WEBHOOK_DELIVERIES_TABLE}.event_id`)
    .select([`${WEBHOOK_DELIVERIES_TABLE}.id as id`, 'attempts', 'next_at', 'event', 'payload'])
    .where('webhook_id', '=', webhookId)
    .where('status', '=', PENDING)
    .orderBy(`${WEBHOOK_DELIVERIES_TABLE}.id`)
    .limit(WEBHOOK_BATCH_SIZE);

/** The first pending deliveries of a webhook in the order they were recorded (at most WEBHOOK_BATCH_SIZE). */
export async function queueHead(db: Db, webhookId: number): Promise<QueuedDelivery[]> {
  const rows = await queueHeadQuery(db, webhookId).execute();
  return rows.map((r) => ({ id: Number(r.id), attempts: Number(r.attempts), nextAt: r.next_at, event: r.event, payload: r.payload }));
}

/**
 * Claims the due deliveries of several queues (each the head of one webhook's queue, in order)
 * until `lease`, in one conditional UPDATE: only rows still pending and due at `stamp` move, so of
 * several servers sharing the database one claims each row. Answers each queue's claimed prefix:
 * when its first is not among the claimed (another server holds it), none; rows claimed after a
 * gap are released, so no queue is ever sent out of order.
 */
export async function claim(db: Db, queues: readonly (readonly QueuedDelivery[])[], stamp: string, lease: string): Promise<QueuedDelivery[][]> {
  const ids = queues.flatMap((due) => due.map((d) => d.id));
  if (ids.length === 0) return queues.map(() => []);
  const rows = await db
    .updateTable(WEBHOOK_DELIVERIES_TABLE)
    .set({ next_at: lease })
    .where('id', 'in', ids)
    .where('status', '=', 'pending')
    .where('next_at', '<=', stamp)
    .returning('id')
    .execute();
  const claimed = new Set(rows.map((r) => Number(r.id)));
  const gaps: QueuedDelivery[] = [];
  const prefixes = queues.map((due) => {
    const prefix: QueuedDelivery[] = [];
    for (const d of due) {
      if (!claimed.has(d.id)) break;
      prefix.push(d);
    }
    for (const d of due.slice(prefix.length)) if (claimed.has(d.id)) gaps.push(d);
    return prefix;
  });
  // Given back due at once (each was due at `stamp`).
  await release(db, gaps, lease);
  return prefixes;
}

/** Gives claimed deliveries back, due at once (only those still held under `lease`). */
export async function release(db: Db, deliveries: readonly QueuedDelivery[], lease: string): Promise<void> {
  const first = deliveries[0];
  if (first === undefined) return;
  await db
    .updateTable(WEBHOOK_DELIVERIES_TABLE)
    .set({ next_at: first.nextAt })
    .where(
      'id',
      'in',
      deliveries.map((d) => d.id),
    )
    .where('status', '=', 'pending')
    .where('next_at', '=', lease)
    .execute();
}

/** Marks deliveries acknowledged with HTTP `status`: delivered, one attempt more, in one statement. */
export async function settleDelivered(db: Db, ids: readonly number[], status: number, stamp: string): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable(WEBHOOK_DELIVERIES_TABLE)
    .set((eb) => ({ status: 'delivered', attempts: eb('attempts', '+', 1), response_status: status, error: null, delivered_at: stamp, updated_at: stamp }))
    .where('id', 'in', ids)
    .execute();
}

/** Records one failed attempt of one delivery still pending (one skipped meanwhile, its webhook removed, stays skipped). */
export async function settleOne(
  db: Db,
  id: number,
  set: { status: string; attempts: number; next_at?: string; response_status: number | null; error: string | null },
  stamp: string,
): Promise<void> {
  await db
    .updateTable(WEBHOOK_DELIVERIES_TABLE)
    .set({ ...set, updated_at: stamp })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .execute();
}

/** Marks every pending delivery of a webhook skipped (it was disabled or removed), in one statement. */
export async function skipQueue(db: Db, webhookId: number, error: string, stamp: string): Promise<void> {
  await db
    .updateTable(WEBHOOK_DELIVERIES_TABLE)
    .set({ status: 'skipped', error, updated_at: stamp })
    .where('webhook_id', '=', webhookId)
    .where('status', '=', PENDING)
    .execute();
}
