import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { WEBHOOK_THREAD_IDLE_MS } from '../limits.js';
import { startWorker, workerScript } from '../worker-script.js';
import { createSender } from './send-fast.js';
import type { SendResult } from './send.js';
import type { Webhook } from './store.js';

/**
 * The dispatcher's sender on a thread of its own. A POST costs the thread that sends it about as
 * much CPU as a small write request costs the server (building the request, writing the socket,
 * parsing the answer: 100-200 µs on loopback), and an update of a draft & publish entry with three
 * webhooks sends six: on the server's thread that is a third of the write path's time. With a
 * second core the sends run on a worker thread (send-worker.ts); the server's thread only hands it
 * the body and reads back the status (one message per turn each way, not per delivery). On one
 * core, or when the thread cannot start (no worker script), the sends run on the server's thread
 * (send-fast.ts) as before. The thread starts at the first send and ends after
 * WEBHOOK_THREAD_IDLE_MS without one (a desktop app idles most of the day).
 */

/** One POST handed to the send thread. */
export interface SendJob {
  readonly id: number;
  readonly webhook: Webhook;
  readonly event: string;
  readonly body: string;
  /** Epoch milliseconds: the signature's timestamp. */
  readonly now: number;
}

type Reply = { readonly results: readonly { readonly id: number; readonly result: SendResult }[] };

const ABORTED: SendResult = { statusCode: 500, message: 'This operation was aborted', network: true, aborted: true };
const threadLost = (reason: string): SendResult => ({ statusCode: 500, message: `webhook send thread ended: ${reason}`, network: true, aborted: false });

export interface Sender {
  send(args: { webhook: Webhook; event: string; body: string; now: Date }): Promise<SendResult>;
  /** Whether the send thread runs now. */
  running(): boolean;
  close(): void;
}

/** The send thread when the machine has a core to spare for it (and `thread` is not false), else the server thread's sender. */
export function createThreadSender(options: { thread?: boolean; log: (message: string) => void; idleMs?: number }): Sender {
  const local = createSender();
  /** How the thread starts; null once it could not, or ended by itself: the sends then stay on this thread. */
  let script = (options.thread ?? availableParallelism() > 1) ? workerScript(new URL('./send-worker.js', import.meta.url), new URL('./send-worker.ts', import.meta.url)) : null;
  let closed = false;
  let worker: Worker | null = null;
  let nextId = 0;
  const waiting = new Map<number, (result: SendResult) => void>();
  let queued: SendJob[] = [];
  let idle: NodeJS.Timeout | null = null;
  const idleMs = options.idleMs ?? WEBHOOK_THREAD_IDLE_MS;

  const answerAll = (result: SendResult): void => {
    for (const resolve of waiting.values()) resolve(result);
    waiting.clear();
  };

  function stopThread(): void {
    if (idle) clearTimeout(idle);
    idle = null;
    const w = worker;
    worker = null;
    if (w) {
      w.removeAllListeners('exit');
      w.postMessage({ close: true });
    }
  }

  function idleSoon(): void {
    if (idle) clearTimeout(idle);
    idle = setTimeout(() => {
      if (waiting.size === 0 && queued.length === 0) stopThread();
    }, idleMs);
    idle.unref();
  }

  function thread(): Worker | null {
    if (worker || script === null) return worker;
    try {
      const w = startWorker(script, null);
      w.on('message', (reply: Reply) => {
        for (const { id, result } of reply.results) {
          const resolve = waiting.get(id);
          waiting.delete(id);
          resolve?.(result);
        }
        if (waiting.size === 0) idleSoon();
      });
      const lost = (reason: string) => {
        if (worker !== w) return;
        worker = null;
        script = null;
        if (!closed) options.log(`webhooks: the send thread ended (${reason}); deliveries are sent from the server's thread`);
        answerAll(threadLost(reason));
      };
      w.on('error', (err) => lost(err.message));
      w.on('exit', (code) => lost(`exit ${code}`));
      w.unref();
      worker = w;
    } catch (err) {
      script = null;
      options.log(`webhooks: the send thread did not start (${err instanceof Error ? err.message : String(err)}); deliveries are sent from the server's thread`);
    }
    return worker;
  }

  const flush = (): void => {
    const sends = queued;
    queued = [];
    if (closed || sends.length === 0) return;
    const w = thread();
    if (w === null) {
      // The thread went away meanwhile: these go from here.
      for (const job of sends) {
        const resolve = waiting.get(job.id);
        waiting.delete(job.id);
        void local.send({ webhook: job.webhook, event: job.event, body: job.body, now: new Date(job.now) }).then((r) => resolve?.(r));
      }
      return;
    }
    w.postMessage({ sends });
  };

  return {
    send(args) {
      if (closed) return Promise.resolve(ABORTED);
      if (thread() === null) return local.send(args);
      const id = nextId++;
      return new Promise<SendResult>((resolve) => {
        waiting.set(id, resolve);
        // Posted once the current task's microtasks have run (the sends the webhooks' workers ask for together go in one
        // message), not a turn of the event loop later: under load a turn is long, and each delivery waits for one already.
        if (queued.length === 0) queueMicrotask(flush);
        queued.push({ id, webhook: args.webhook, event: args.event, body: args.body, now: args.now.getTime() });
      });
    },
    running: (): boolean => worker !== null,
    /** Aborts what is in flight (answered `aborted`: still pending, sent again at the next start) and ends the thread. */
    close(): void {
      closed = true;
      queued = [];
      answerAll(ABORTED);
      stopThread();
      local.close();
    },
  };
}
