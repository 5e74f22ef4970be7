import type { ServerResponse } from 'node:http';
import type { Db } from '../db/database.js';
import { eventsAfter, type StoredEvent } from './store.js';

/** The limits one stream works within (limits.ts; tests pass smaller ones). */
export interface StreamLimits {
  readonly retentionMs: number;
  readonly maxEvents: number;
  readonly heartbeatMs: number;
  readonly pollMs: number;
  readonly pageSize: number;
  readonly maxBufferedBytes: number;
  readonly stallMs: number;
  readonly maxConnections: number;
  readonly pruneIntervalMs: number;
}

/** One open `GET /hearth/events`. */
export interface Connection {
  /** New events may have been committed: send what the caller may see. */
  wake(): void;
  /** The last event id read (sent or not). */
  readonly cursor: () => number;
  /** Output written and not yet taken by the socket. */
  readonly buffered: () => number;
  end(): void;
}

/** One Server-Sent Events frame: `id`, `event` and one `data` line (JSON has no line breaks). */
export const frame = (id: number, event: string, data: string): string => `id: ${id}\nevent: ${event}\ndata: ${data}\n\n`;

/** The event's data: the webhook body, `{ event, createdAt, ...payload }`, with the time it was recorded. */
export const dataOf = (e: StoredEvent): string => JSON.stringify({ event: e.event, createdAt: e.createdAt, ...e.payload });

/**
 * Sends events after `cursor` to `res` as they are committed. Output is written while less than
 * maxBufferedBytes waits unsent; past that the stream waits for the reader to drain it and is
 * dropped when it has not after stallMs, so a reader that never reads costs a bounded buffer (the
 * events stay in the table: it resumes with Last-Event-ID).
 */
export function openConnection(args: {
  db: Db;
  res: ServerResponse;
  cursor: number;
  limits: StreamLimits;
  /** Whether the caller may receive this event now; false ends nothing, an error ends the stream. */
  allowed: () => Promise<(e: StoredEvent) => boolean>;
  log: (message: string) => void;
  closed: () => void;
}): Connection {
  const { res, limits } = args;
  let cursor = args.cursor;
  let running = false;
  let again = false;
  let ended = false;

  const end = (): void => {
    if (ended) return;
    ended = true;
    clearInterval(heartbeat);
    args.closed();
    res.destroy();
  };
  res.on('close', end);
  const heartbeat = setInterval(() => {
    if (res.writableLength < limits.maxBufferedBytes) res.write(': heartbeat\n\n');
  }, limits.heartbeatMs);
  heartbeat.unref();

  /** Resolves true once the unsent output has drained, false when the reader stalls past stallMs (or the stream ended). */
  const drained = (): Promise<boolean> =>
    new Promise((resolve) => {
      const done = (ok: boolean) => {
        clearTimeout(timer);
        res.off('drain', onDrain);
        res.off('close', onClose);
        resolve(ok);
      };
      const onDrain = () => done(true);
      const onClose = () => done(false);
      const timer = setTimeout(() => done(false), limits.stallMs);
      res.on('drain', onDrain);
      res.on('close', onClose);
    });

  async function pump(): Promise<void> {
    for (;;) {
      if (ended) return;
      if (res.writableLength >= limits.maxBufferedBytes && !(await drained())) return end();
      const page = await eventsAfter(args.db, cursor, limits.pageSize);
      if (page.length === 0 || ended) return;
      const may = await args.allowed();
      for (const e of page) {
        if (ended) return;
        cursor = e.id;
        if (may(e)) res.write(frame(e.id, e.event, dataOf(e)));
        if (res.writableLength >= limits.maxBufferedBytes) break;
      }
    }
  }

  function wake(): void {
    if (ended) return;
    if (running) {
      again = true;
      return;
    }
    running = true;
    again = false;
    pump()
      .catch((err: unknown) => {
        args.log(`events: a stream ended: ${err instanceof Error ? err.message : String(err)}`);
        end();
      })
      .finally(() => {
        running = false;
        if (again) wake();
      });
  }

  return { wake, cursor: () => cursor, buffered: () => res.writableLength, end };
}
