import { AsyncResource } from 'node:async_hooks';
import type { Database } from '../db/database.js';
import { WEBHOOK_DELIVERIES_TABLE, WEBHOOK_EVENTS_TABLE } from '../db/system-tables.js';
import type { EventSink } from '../documents/index.js';
import { notFound } from '../errors/app-error.js';
import { WEBHOOK_DELIVERY_LOG_LIMIT, WEBHOOK_DELIVERY_RETENTION_MS, WEBHOOK_PRUNE_INTERVAL_MS } from '../limits.js';
import { createDispatcher } from './dispatcher.js';
import { TRIGGER_EVENT } from './events.js';
import { createOutbox } from './outbox.js';
import { bodyOf, sendEvent } from './send.js';
import { createWebhookStore, type WebhookStore } from './store.js';

/**
 * Webhooks: the store (hearth_webhooks), the outbox the document and upload services record
 * events into, the dispatcher that delivers them, and what the admin API adds (trigger, the
 * delivery log, redeliver).
 */

/** One line of a webhook's delivery log. */
export interface DeliveryJson {
  readonly id: number;
  readonly event: string;
  /** `pending`, `delivered`, `failed` or `skipped`. */
  readonly status: string;
  readonly attempts: number;
  /** The receiver's last HTTP status (null: no answer: refused, timeout). */
  readonly responseStatus: number | null;
  readonly error: string | null;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly deliveredAt: string | null;
  readonly nextAttemptAt: string | null;
}

export interface WebhooksArgs {
  readonly database: Database;
  readonly now: () => Date;
  readonly log: (message: string) => void;
  /** Tests: a shorter first retry wait than WEBHOOK_RETRY_BASE_MS. */
  readonly retryBaseMs?: number;
}

export function createWebhooks(args: WebhooksArgs) {
  const { now } = args;
  const { db } = args.database;
  // Woken by a request's commit or call, the workers run in the context this module was created in (the server's),
  // not the request's: no registry pin or write tally of it (admin/registry-pins.ts) reaches the sending loop.
  const wake = AsyncResource.bind((ids?: readonly number[]): void => dispatcher.wake(ids));
  const outbox = createOutbox({ database: args.database, now, wake });
  const store: WebhookStore = createWebhookStore({ db, now, changed: outbox.changed, announce: args.database.announceChange });
  const dispatcher = createDispatcher({ db, store, now, log: args.log, retryBaseMs: args.retryBaseMs });
  const events: EventSink = outbox.sink;

  const known = async (id: number) => {
    const webhook = await store.get(id);
    if (!webhook) throw notFound('webhook.notFound');
    return webhook;
  };

  /** The newest deliveries of a webhook (404 when there is no such webhook). */
  async function deliveries(id: number): Promise<DeliveryJson[]> {
    await known(id);
    const rows = await db
      .selectFrom(WEBHOOK_DELIVERIES_TABLE)
      .innerJoin(WEBHOOK_EVENTS_TABLE, `${WEBHOOK_EVENTS_TABLE}.id`, `${WEBHOOK_DELIVERIES_TABLE}.event_id`)
      .select([
        `${WEBHOOK_DELIVERIES_TABLE}.id as id`,
        'event',
        'status',
        'attempts',
        'response_status',
        'error',
        `${WEBHOOK_DELIVERIES_TABLE}.created_at as created_at`,
        'updated_at',
        'delivered_at',
        'next_at',
      ])
      .where('webhook_id', '=', id)
      .orderBy(`${WEBHOOK_DELIVERIES_TABLE}.id`, 'desc')
      .limit(WEBHOOK_DELIVERY_LOG_LIMIT)
      .execute();
    return rows.map((r) => ({
      id: Number(r.id),
      event: r.event,
      status: r.status,
      attempts: Number(r.attempts),
      responseStatus: r.response_status === null ? null : Number(r.response_status),
      error: r.error,
      createdAt: r.created_at,
      updatedAt: r.updated_at,
      deliveredAt: r.delivered_at,
      nextAttemptAt: r.status === 'pending' ? r.next_at : null,
    }));
  }

  /** Deletes settled deliveries older than WEBHOOK_DELIVERY_RETENTION_MS, then events no delivery refers to; returns how many deliveries. */
  async function prune(): Promise<number> {
    const before = new Date(now().getTime() - WEBHOOK_DELIVERY_RETENTION_MS).toISOString();
    const gone = await db.deleteFrom(WEBHOOK_DELIVERIES_TABLE).where('status', '<>', 'pending').where('updated_at', '<', before).executeTakeFirst();
    await db
      .deleteFrom(WEBHOOK_EVENTS_TABLE)
      .where(({ not, exists, selectFrom }) =>
        not(exists(selectFrom(WEBHOOK_DELIVERIES_TABLE).select('id').whereRef(`${WEBHOOK_DELIVERIES_TABLE}.event_id`, '=', `${WEBHOOK_EVENTS_TABLE}.id`))),
      )
      .execute();
    return Number(gone.numDeletedRows);
  }
  let pruner: NodeJS.Timeout | null = null;
  let pruning: Promise<unknown> = Promise.resolve();
  const pruneQuietly = (): void => {
    pruning = prune().catch((err: unknown) => args.log(`webhooks: pruning old deliveries failed: ${err instanceof Error ? err.message : String(err)}`));
  };

  return {
    store,
    prune,
    /** The sink the document and upload services record events into. */
    events,
    /** Starts delivering what is pending (at start: what a previous run left). */
    start: (): void => {
      wake();
      pruneQuietly();
      pruner = setInterval(pruneQuietly, WEBHOOK_PRUNE_INTERVAL_MS);
      pruner.unref();
    },
    close: async (): Promise<void> => {
      if (pruner) clearInterval(pruner);
      await pruning;
      await dispatcher.close();
    },

    /** `POST .../:id/trigger`: sends `trigger-test` now, whatever the webhook's events and state, and answers how it went. */
    async trigger(id: number): Promise<{ statusCode: number; message?: string }> {
      const webhook = await known(id);
      const at = now();
      const result = await sendEvent({ webhook, event: TRIGGER_EVENT, body: bodyOf(TRIGGER_EVENT, at, {}), now: at });
      return result.message === undefined ? { statusCode: result.statusCode } : { statusCode: result.statusCode, message: result.message };
    },

    deliveries,

    /**
     * Sends a delivery's event again. A delivery still pending (waiting to retry) is made due now,
     * so it goes at once and the receiver gets it once; a settled one (delivered, failed, skipped)
     * gets a new pending delivery to the same webhook, after what is queued.
     */
    async redeliver(id: number, deliveryId: number): Promise<DeliveryJson> {
      await known(id);
      const old = await db.selectFrom(WEBHOOK_DELIVERIES_TABLE).select(['event_id', 'status']).where('id', '=', deliveryId).where('webhook_id', '=', id).executeTakeFirst();
      if (!old) throw notFound('delivery.notFound');
      const stamp = now().toISOString();
      const reset =
        old.status === 'pending'
          ? await db.updateTable(WEBHOOK_DELIVERIES_TABLE).set({ next_at: stamp, updated_at: stamp }).where('id', '=', deliveryId).where('status', '=', 'pending').executeTakeFirst()
          : null;
      let lineId = deliveryId;
      if (!reset || Number(reset.numUpdatedRows) !== 1) {
        const row = await db
          .insertInto(WEBHOOK_DELIVERIES_TABLE)
          .values({ event_id: Number(old.event_id), webhook_id: id, status: 'pending', attempts: 0, next_at: stamp, created_at: stamp, updated_at: stamp })
          .returning('id')
          .executeTakeFirstOrThrow();
        lineId = Number(row.id);
      }
      wake();
      const [line] = (await deliveries(id)).filter((d) => d.id === lineId);
      if (!line) throw notFound('delivery.notFound');
      return line;
    },
  };
}

export type Webhooks = ReturnType<typeof createWebhooks>;
export { checkWebhookBody, checkUrl, type WebhookInput } from './validate.js';
export { webhookJson, type WebhookJson, type Webhook } from './store.js';
export { WEBHOOK_EVENTS, isWebhookEvent } from './events.js';
export { signature } from './send.js';
