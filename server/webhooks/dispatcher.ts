import type { Db } from '../db/database.js';
import { WEBHOOK_DELIVERIES_TABLE } from '../db/system-tables.js';
import { WEBHOOK_BATCH_SIZE, WEBHOOK_LEASE_MS, WEBHOOK_MAX_ATTEMPTS, WEBHOOK_RETRY_BASE_MS, WEBHOOK_RETRY_MAX_MS, WEBHOOK_TIMEOUT_MS } from '../limits.js';
import { PENDING, claim, queueHead, release, settleDelivered, settleOne, skipQueue, type QueuedDelivery } from './queue.js';
import { joined } from './joined.js';
import { createThreadSender } from './send-thread.js';
import { bodyText } from './send.js';
import type { Webhook, WebhookStore } from './store.js';

/**
 * Delivers the outbox after each commit, outside any request: one worker per webhook sends its
 * pending deliveries one at a time in the order they were recorded. A network error, a timeout or
 * a non-2xx answer is retried with exponential backoff (WEBHOOK_RETRY_BASE_MS doubling, at most
 * WEBHOOK_RETRY_MAX_MS) until WEBHOOK_MAX_ATTEMPTS, then the delivery is marked failed and the
 * next one goes. A 2xx marks it delivered, never to be sent again. What is pending when the server
 * stops is sent when it starts again.
 *
 * The queue is read and claimed per batch (queue.ts): a worker reads the head of its queue
 * (WEBHOOK_BATCH_SIZE), claims the due prefix, and sends it in order for at most
 * WEBHOOK_LEASE_MS - WEBHOOK_TIMEOUT_MS; a failure settles that one delivery and gives the rest
 * back. Each acknowledged delivery is settled before the next send, so a server killed mid-batch
 * sends again at most the one whose 2xx had just arrived. The claims and the settles the workers
 * ask for in one turn of the event loop run as one statement (`joined`): the webhooks an event went
 * to are claimed together, and their answers, which come back together, settled together. A worker
 * whose whole batch was delivered, with nothing recorded for it since it read its queue, stops
 * without reading the queue again.
 *
 * Several servers may share one database (PostgreSQL instances, or two processes on one SQLite
 * file): the claim moves the batch's next attempt WEBHOOK_LEASE_MS ahead in one conditional
 * UPDATE, so only one of them sends it, and a server that dies while sending leaves it to be
 * retried once the lease ends.
 */

/** Wait before attempt `attempts + 1`. */
export const backoffMs = (attempts: number, baseMs = WEBHOOK_RETRY_BASE_MS): number => Math.min(WEBHOOK_RETRY_MAX_MS, baseMs * 2 ** Math.max(0, attempts - 1));

/** How long after its claim a batch may start another send (the last one then ends within the lease). */
const BATCH_WINDOW_MS = WEBHOOK_LEASE_MS - WEBHOOK_TIMEOUT_MS;

/** The longest an acknowledgement waits for those of the other webhooks' sends in flight before it is recorded alone. */
const SETTLE_WAIT_MS = 2;

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
  /** Wakes per webhook (and `everyone`: wakes of all): a worker that saw no new one since it read its queue has nothing new to read. */
  const wakes = new Map<number, number>();
  let everyone = 0;
  const woken = (webhookId: number): number => (wakes.get(webhookId) ?? 0) + everyone;
  let scanning: Promise<void> | null = null;
  let rescan = false;
  const sender = createThreadSender({ log });

  /** Sends answered by no one yet (all webhooks): an acknowledgement waits for theirs, to be recorded with them. */
  let sending = 0;
  /** Claims the due heads of the queues asked for in this turn: one lease for all (answered with each prefix). */
  const claimDue = joined(async (queues: readonly (readonly QueuedDelivery[])[]) => {
    const at = now().getTime();
    const lease = new Date(at + WEBHOOK_LEASE_MS).toISOString();
    const batches = await claim(db, queues, new Date(at).toISOString(), lease);
    return batches.map((batch) => ({ batch, lease, claimedAt: at }));
  }).call;
  /**
   * Records acknowledged deliveries, one statement per HTTP status among them: those of a turn
   * with no other send in flight, else those that came while the others' answers come (at most
   * SETTLE_WAIT_MS), so that the webhooks an event went to are settled together.
   */
  const settleAcknowledged = joined(async (acks: readonly { id: number; status: number }[]) => {
    const stamp = now().toISOString();
    for (const status of new Set(acks.map((a) => a.status))) {
      await settleDelivered(
        db,
        acks.filter((a) => a.status === status).map((a) => a.id),
        status,
        stamp,
      );
    }
    return acks.map(() => undefined);
  }, () => sending > 0, SETTLE_WAIT_MS);

  function later(webhookId: number, ms: number): void {
    clearTimeout(timers.get(webhookId));
    const timer = setTimeout(() => {
      timers.delete(webhookId);
      start(webhookId);
    }, ms);
    timer.unref();
    timers.set(webhookId, timer);
  }

  /** Sends a claimed batch in order: `done` when all of it was delivered, `more` when the queue must be read again, `stopped` when the server stops meanwhile. */
  async function sendBatch(webhook: Webhook, batch: readonly QueuedDelivery[], lease: string, claimedAt: number): Promise<'done' | 'more' | 'stopped'> {
    for (const [i, d] of batch.entries()) {
      if (i > 0 && (stop.signal.aborted || now().getTime() - claimedAt > BATCH_WINDOW_MS)) {
        await release(db, batch.slice(i), lease);
        return stop.signal.aborted ? 'stopped' : 'more';
      }
      const sentAt = now();
      sending++;
      const result = await sender.send({ webhook, event: d.event, body: bodyText(d.event, sentAt, d.payload), now: sentAt }).finally(() => {
        sending--;
        settleAcknowledged.nudge();
      });
      if (result.aborted) {
        // Stopped mid-send: the next start sends it at once.
        await release(db, batch.slice(i), lease);
        return 'stopped';
      }
      if (result.statusCode >= 200 && result.statusCode < 300 && !result.network) {
        // Recorded before the next send: a kill -9 can then resend at most the one delivery whose
        // 2xx had just arrived, never a batch of acknowledged ones.
        await settleAcknowledged.call({ id: d.id, status: result.statusCode });
        continue;
      }
      const tried = d.attempts + 1;
      const at = now();
      const error = result.message ?? `HTTP ${result.statusCode}`;
      const failed = tried >= WEBHOOK_MAX_ATTEMPTS;
      const next_at = new Date(at.getTime() + backoffMs(tried, args.retryBaseMs)).toISOString();
      await settleOne(db, d.id, { status: failed ? 'failed' : 'pending', attempts: tried, next_at, response_status: result.network ? null : result.statusCode, error }, at.toISOString());
      if (failed) log(`webhook ${webhook.id}: ${d.event} not delivered after ${tried} attempts (${error})`);
      await release(db, batch.slice(i + 1), lease);
      return 'more';
    }
    return 'done';
  }

  /** Sends one webhook's deliveries in order until none is due. */
  async function work(webhookId: number): Promise<void> {
    for (;;) {
      if (stop.signal.aborted) return;
      const seen = woken(webhookId);
      const head = await queueHead(db, webhookId);
      const [first] = head;
      if (first === undefined) {
        if (seen === woken(webhookId)) return;
        continue;
      }
      const at = now().getTime();
      const wait = Date.parse(first.nextAt) - at;
      if (wait > 0) return later(webhookId, wait);
      const webhook = await store.get(webhookId);
      if (!webhook || !webhook.isEnabled) {
        await skipQueue(db, webhookId, webhook ? 'webhook disabled' : 'webhook removed', new Date(at).toISOString());
        continue;
      }
      const due: QueuedDelivery[] = [];
      for (const d of head) {
        if (Date.parse(d.nextAt) > at) break;
        due.push(d);
      }
      // Another server may claim first: then the head waits for its lease (the next turn's timer).
      const { batch, lease, claimedAt } = await claimDue(due);
      if (batch.length === 0) continue;
      const sent = await sendBatch(webhook, batch, lease, claimedAt);
      if (sent === 'stopped') return;
      // All of the head was due, claimed and delivered, and it was all the queue held: unless a
      // commit recorded more for this webhook since, there is nothing left to read.
      if (sent === 'done' && batch.length === head.length && head.length < WEBHOOK_BATCH_SIZE && seen === woken(webhookId)) return;
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
      const rows = await db.selectFrom(WEBHOOK_DELIVERIES_TABLE).select('webhook_id').distinct().where('status', '=', PENDING).execute();
      for (const row of rows) start(Number(row.webhook_id));
    } while (rescan && !stop.signal.aborted);
  }

  return {
    /**
     * New deliveries were committed (or the server started): send them. With `webhookIds` (the
     * webhooks the commit recorded deliveries for) no statement is needed to find whom to wake; a
     * webhook waiting to retry its head keeps waiting (what was added queues behind it).
     */
    wake(webhookIds?: readonly number[]): void {
      if (webhookIds) for (const id of webhookIds) wakes.set(id, (wakes.get(id) ?? 0) + 1);
      else everyone++;
      if (stop.signal.aborted) return;
      if (webhookIds) {
        for (const id of webhookIds) if (!timers.has(id)) start(id);
        return;
      }
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
      sender.close();
      for (const timer of timers.values()) clearTimeout(timer);
      timers.clear();
      await scanning;
      await Promise.all([...workers.values()]);
    },
  };
}

export type Dispatcher = ReturnType<typeof createDispatcher>;
