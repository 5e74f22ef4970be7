import type { Database, Db } from '../db/database.js';
import { WEBHOOK_DELIVERIES_TABLE, WEBHOOK_EVENTS_TABLE, WEBHOOKS_TABLE } from '../db/system-tables.js';
import type { EventSink } from '../documents/index.js';
import { webhookOf, type Webhook } from './store.js';

/**
 * The outbox: an event is recorded in the transaction of the write that raised it (the event and
 * one pending delivery per enabled webhook subscribed to it), so a write that commits always has
 * its deliveries and one that rolls back never does.
 *
 * Which webhooks are enabled is kept in memory, so a write costs no statement while nothing
 * subscribes: dropped when this process changes a webhook, and read again when another process
 * (`hearth webhook add`) has committed (Database.othersStamp: SQLite's data_version, PostgreSQL's
 * LISTEN), so the next write sees the change. When that stamp is unknown, every write reads them.
 */

/** Records an event (its payload's JSON text) in `db` (a transaction) with one pending delivery per webhook; returns their count. */
export async function recordEvent(db: Db, now: Date, event: string, payload: string, webhookIds: readonly number[]): Promise<number> {
  if (webhookIds.length === 0) return 0;
  const stamp = now.toISOString();
  const row = await db
    .insertInto(WEBHOOK_EVENTS_TABLE)
    .values({ event, payload, created_at: stamp })
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

/** The document and upload services' event sink: records into the outbox; `committed` wakes the dispatcher's workers of the webhooks recorded for. */
export function createOutbox(args: { database: Database; now: () => Date; wake: (webhookIds: readonly number[] | undefined) => void }) {
  const { database } = args;
  let cached: { stamp: string | null; webhooks: Webhook[] } | null = null;
  /** The webhooks each open transaction gave deliveries to: the ones to wake once it commits. */
  const recorded = new WeakMap<Db, Set<number>>();

  /** Enabled webhooks in id order (the order Strapi calls them), read in `db` when not known. */
  async function enabled(db: Db): Promise<Webhook[]> {
    const stamp = database.othersStamp?.() ?? null;
    if (stamp !== null && cached && cached.stamp === stamp) return cached.webhooks;
    const rows = await db.selectFrom(WEBHOOKS_TABLE).selectAll().where('enabled', '=', 1).orderBy('id').execute();
    const webhooks = rows.map(webhookOf);
    cached = { stamp, webhooks };
    return webhooks;
  }
  const subscribers = async (db: Db, event: string): Promise<number[]> => (await enabled(db)).filter((w) => w.events.includes(event)).map((w) => Number(w.id));

  const sink: EventSink = {
    wants: async (db, event) => (await subscribers(db, event)).length > 0,
    async record(db, event, payload) {
      const ids = await subscribers(db, event);
      await recordEvent(db, args.now(), event, payload, ids);
      if (ids.length === 0) return;
      const set = recorded.get(db) ?? new Set<number>();
      for (const id of ids) set.add(id);
      recorded.set(db, set);
    },
    committed: (db) => {
      const set = db ? recorded.get(db) : undefined;
      if (db) recorded.delete(db);
      if (!db) args.wake(undefined);
      else if (set) args.wake([...set]);
    },
  };
  return {
    sink,
    /** A webhook changed in this process: read them again at the next write. */
    changed: (): void => {
      cached = null;
    },
  };
}
