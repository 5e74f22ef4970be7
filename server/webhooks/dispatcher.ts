import type { Db } from '../db/database.js';
import { WEBHOOK_DELIVERIES_TABLE, WEBHOOK_EVENTS_TABLE } from '../db/system-tables.js';
import { WEBHOOK_LEASE_MS, WEBHOOK_MAX_ATTEMPTS, WEBHOOK_RETRY_BASE_MS, WEBHOOK_RETRY_MAX_MS } from '../limits.js';
import { sendEvent } from './send.js';
import type { WebhookStore } from './store.js';

/**
 * Delivers the outbox after each commit, outside any request: one worker per webhook sends its
 * pending deliveries one at a time in the order they were recorded. A network error, a timeout or
 * a non-2xx answer is retried with exponential backoff (WEBHOOK_RETRY_BASE_MS doubling, at most
 * WEBHOOK_RETRY_MAX_MS) until WEBHOOK_MAX_ATTEMPTS, then the delivery is marked failed and the
 * next one goes. A 2xx marks it delivered, never to be sent again. What is pending when the server
 * stops is sent when it starts again.
 *
 * Several servers may share one database (PostgreSQL instances, or two processes on one SQLite
 * file): before sending, a worker claims the delivery by moving its next attempt WEBHOOK_LEASE_MS
 * ahead in one conditional UPDATE, so only one of them sends it, and a server that dies while
 * sending leaves it to be retried once the lease ends.
 */

/** Wait before attempt `attempts + 1`. */
export const backoffMs = (attempts: number, baseMs = WEBHOOK_RETRY_BASE_MS): number => Math.min(WEBHOOK_RETRY_MAX_MS, baseMs * 2 ** Math.max(0, attempts - 1));

export interface DispatcherArgs {
  readonly db: Db;
  readonly store: WebhookStore;
  readonly now: () => Date;
  readonly log: (message: string) => void;
  /** Tests: a shorter first retry wait than WEBHOOK_RETRY_BASE_MS. */
  readonly retryBaseMs?: number;
}

export function createDispatcher(args: DispatcherArgs) {
  const { db, store, now, log } = args;
  const workers = new Map<number, Promise<void>>();
  const timers = new Map<number, NodeJS.Timeout>();
  const stop = new AbortController();
  let generation = 0;
  let scanning: Promise<void> | null = null;
  let rescan = false;

  async function head(webhookId: number) {
    return db
      .selectFrom(WEBHOOK_DELIVERIES_TABLE)
      .innerJoin(WEBHOOK_EVENTS_TABLE, `${WEBHOOK_EVENTS_TABLE}.id`, `${WEBHOOK_DELIVERIES_TABLE}.event_id`)
      .select([`${WEBHOOK_DELIVERIES_TABLE}.id as id`, 'attempts', 'next_at', 'event', 'payload'])
      .where('webhook_id', '=', webhookId)
      .where('status', '=', 'pending')
      .orderBy(`${WEBHOOK_DELIVERIES_TABLE}.id`)
      .executeTakeFirst();
  }

  async function settle(
    id: number,
    set: { status: string; attempts: number; next_at?: string; response_status: number | null; error: string | null; delivered_at?: string },
  ) {
    await db
      .updateTable(WEBHOOK_DELIVERIES_TABLE)
      .set({ ...set, updated_at: now().toISOString() })
      .where('id', '=', id)
      .execute();
  }

  /** Sends one webhook's deliveries in order until none is due. */
  async function work(webhookId: number): Promise<void> {
    for (;;) {
      if (stop.signal.aborted) return;
      const seen = generation;
      const next = await head(webhookId);
      if (!next) {
        if (seen === generation) return;
        continue;
      }
      const due = Date.parse(next.next_at) - now().getTime();
      if (due > 0) {
        clearTimeout(timers.get(webhookId));
        const timer = setTimeout(() => {
          timers.delete(webhookId);
          start(webhookId);
        }, due);
        timer.unref();
        timers.set(webhookId, timer);
        return;
      }
      const webhook = await store.get(webhookId);
      const attempts = Number(next.attempts);
      if (!webhook || !webhook.isEnabled) {
        await settle(Number(next.id), { status: 'skipped', attempts, response_status: null, error: webhook ? 'webhook disabled' : 'webhook removed' });
        continue;
      }
      const lease = new Date(now().getTime() + WEBHOOK_LEASE_MS).toISOString();
      const claimed = await db
        .updateTable(WEBHOOK_DELIVERIES_TABLE)
        .set({ next_at: lease })
        .where('id', '=', Number(next.id))
        .where('status', '=', 'pending')
        .where('next_at', '=', next.next_at)
        .executeTakeFirst();
      // Another server claimed it first: the head now waits for its lease.
      if (Number(claimed.numUpdatedRows) !== 1) continue;
      const payload = JSON.parse(next.payload) as Record<string, unknown>;
      const result = await sendEvent({ webhook, event: next.event, payload, now: now(), stop: stop.signal });
      if (result.aborted) {
        // Stopped mid-send: the next start sends it at once.
        await db.updateTable(WEBHOOK_DELIVERIES_TABLE).set({ next_at: next.next_at }).where('id', '=', Number(next.id)).execute();
        return;
      }
      const tried = attempts + 1;
      const at = now();
      if (result.statusCode >= 200 && result.statusCode < 300 && !result.network) {
        await settle(Number(next.id), {
          status: 'delivered',
          attempts: tried,
          response_status: result.statusCode,
          error: null,
          delivered_at: at.toISOString(),
        });
        continue;
      }
      const error = result.message ?? `HTTP ${result.statusCode}`;
      const failed = tried >= WEBHOOK_MAX_ATTEMPTS;
      await settle(Number(next.id), {
        status: failed ? 'failed' : 'pending',
        attempts: tried,
        next_at: new Date(at.getTime() + backoffMs(tried, args.retryBaseMs)).toISOString(),
        response_status: result.network ? null : result.statusCode,
        error,
      });
      if (failed) log(`webhook ${webhookId}: ${next.event} not delivered after ${tried} attempts (${error})`);
    }
  }

  function start(webhookId: number): void {
    if (stop.signal.aborted || workers.has(webhookId)) return;
    const running = work(webhookId)
      .catch((err: unknown) => log(`webhook ${webhookId}: delivery failed: ${err instanceof Error ? err.message : String(err)}`))
      .finally(() => {
        workers.delete(webhookId);
      });
    workers.set(webhookId, running);
  }

  /** Starts a worker for every webhook with pending deliveries. */
  async function scan(): Promise<void> {
    do {
      rescan = false;
      const rows = await db.selectFrom(WEBHOOK_DELIVERIES_TABLE).select('webhook_id').distinct().where('status', '=', 'pending').execute();
      for (const row of rows) start(Number(row.webhook_id));
    } while (rescan && !stop.signal.aborted);
  }

  return {
    /** New deliveries were committed (or the server started): send them. */
    wake(): void {
      generation++;
      if (stop.signal.aborted) return;
      if (scanning) {
        rescan = true;
        return;
      }
      scanning = scan()
        .catch((err: unknown) => log(`webhooks: reading the outbox failed: ${err instanceof Error ? err.message : String(err)}`))
        .finally(() => {
          scanning = null;
        });
    },
    /** Stops sending (a request in flight is aborted and stays pending), before the database closes. */
    async close(): Promise<void> {
      stop.abort();
      for (const timer of timers.values()) clearTimeout(timer);
      timers.clear();
      await scanning;
      await Promise.all([...workers.values()]);
    },
  };
}

export type Dispatcher = ReturnType<typeof createDispatcher>;
