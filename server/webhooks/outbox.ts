import type { Db } from '../db/database.js';
import { WEBHOOK_DELIVERIES_TABLE, WEBHOOK_EVENTS_TABLE, WEBHOOKS_TABLE } from '../db/system-tables.js';
import type { EventSink } from '../documents/index.js';
import { webhookOf } from './store.js';

/**
 * The outbox: an event is recorded in the transaction of the write that raised it (the event and
 * one pending delivery per enabled webhook subscribed to it), so a write that commits always has
 * its deliveries and one that rolls back never does. Webhooks are read from the database in that
 * transaction, so a change made by `hearth webhook add` is seen by the next write.
 */

/** Enabled webhooks subscribed to `event`, in id order (the order Strapi calls them). */
async function subscribers(db: Db, event: string): Promise<number[]> {
  const rows = await db.selectFrom(WEBHOOKS_TABLE).selectAll().where('enabled', '=', 1).orderBy('id').execute();
  return rows
    .map(webhookOf)
    .filter((w) => w.events.includes(event))
    .map((w) => Number(w.id));
}

/** Records events in `db` (a transaction), each with its pending deliveries; returns their count. */
export async function recordEvent(db: Db, now: Date, event: string, payload: Record<string, unknown>, webhookIds: readonly number[]): Promise<number> {
  if (webhookIds.length === 0) return 0;
  const stamp = now.toISOString();
  const row = await db
    .insertInto(WEBHOOK_EVENTS_TABLE)
    .values({ event, payload: JSON.stringify(payload), created_at: stamp })
    .returning('id')
    .executeTakeFirstOrThrow();
  const eventId = Number(row.id);
  await db
    .insertInto(WEBHOOK_DELIVERIES_TABLE)
    .values(
      webhookIds.map((webhook_id) => ({ event_id: eventId, webhook_id, status: 'pending', attempts: 0, next_at: stamp, created_at: stamp, updated_at: stamp })),
    )
    .execute();
  return webhookIds.length;
}

/** The document and upload services' event sink: records into the outbox; `committed` wakes the dispatcher. */
export function createOutbox(args: { now: () => Date; wake: () => void }): EventSink {
  // Within one transaction, the subscribers of an event are read once.
  const seen = new WeakMap<Db, Map<string, number[]>>();
  const of = async (db: Db, event: string): Promise<number[]> => {
    let byEvent = seen.get(db);
    if (!byEvent) seen.set(db, (byEvent = new Map()));
    let ids = byEvent.get(event);
    if (!ids) byEvent.set(event, (ids = await subscribers(db, event)));
    return ids;
  };
  return {
    wants: async (db, event) => (await of(db, event)).length > 0,
    async record(db, event, payload) {
      await recordEvent(db, args.now(), event, payload, await of(db, event));
    },
    committed: () => args.wake(),
  };
}
