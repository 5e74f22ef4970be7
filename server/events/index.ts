import { AsyncResource } from 'node:async_hooks';
import type { ServerResponse } from 'node:http';
import type { Database } from '../db/database.js';
import type { EventSink } from '../documents/index.js';
import { AppError } from '../errors/app-error.js';
import {
  EVENT_STREAM_HEARTBEAT_MS,
  EVENT_STREAM_MAX_BUFFERED_BYTES,
  EVENT_STREAM_MAX_CONNECTIONS,
  EVENT_STREAM_MAX_EVENTS,
  EVENT_STREAM_PAGE_SIZE,
  EVENT_STREAM_POLL_MS,
  EVENT_STREAM_PRUNE_INTERVAL_MS,
  EVENT_STREAM_RETENTION_MS,
  EVENT_STREAM_STALL_MS,
} from '../limits.js';
import { openConnection, type Connection, type StreamLimits } from './connection.js';
import { createStreamSink } from './sink.js';
import { armRecording, lastEventId, pruneEvents, resumeFloor, type StoredEvent } from './store.js';

/**
 * The live change stream (`GET /hearth/events`): the events the document and upload services
 * raise, recorded in the write's transaction beside the webhooks' outbox while someone listens,
 * sent to each open stream the caller may see, resumable by Last-Event-ID within the retention.
 * Open streams poll the table every pollMs (events another process committed) and are woken at
 * once by this process's commits.
 */

export type { StreamLimits, StoredEvent };

export const DEFAULT_STREAM_LIMITS: StreamLimits = {
  retentionMs: EVENT_STREAM_RETENTION_MS,
  maxEvents: EVENT_STREAM_MAX_EVENTS,
  heartbeatMs: EVENT_STREAM_HEARTBEAT_MS,
  pollMs: EVENT_STREAM_POLL_MS,
  pageSize: EVENT_STREAM_PAGE_SIZE,
  maxBufferedBytes: EVENT_STREAM_MAX_BUFFERED_BYTES,
  stallMs: EVENT_STREAM_STALL_MS,
  maxConnections: EVENT_STREAM_MAX_CONNECTIONS,
  pruneIntervalMs: EVENT_STREAM_PRUNE_INTERVAL_MS,
};

export interface EventStreamArgs {
  readonly database: Database;
  readonly now: () => Date;
  readonly log: (message: string) => void;
  /** The webhooks' sink: every event still goes there first. */
  readonly outbox: EventSink;
  /** Tests: smaller limits. */
  readonly limits?: Partial<StreamLimits>;
}

export function createEventStream(args: EventStreamArgs) {
  const { database, now, log } = args;
  const { db } = database;
  const limits: StreamLimits = { ...DEFAULT_STREAM_LIMITS, ...args.limits };
  const open = new Set<Connection>();
  // Woken by a writer's commit: the streams are pumped in this module's context, not the writer's request (its registry pin).
  const wakeAll = AsyncResource.bind((): void => {
    for (const c of open) c.wake();
  });
  const recorder = createStreamSink({ database, now, inner: args.outbox, committed: wakeAll });
  let poller: NodeJS.Timeout | null = null;
  let polling = false;

  async function arm(): Promise<void> {
    const at = now().getTime();
    // Moved a retention ahead when half of it has passed: one write per half retention, not per stream.
    if (recorder.knownUntil() - at > limits.retentionMs / 2) return;
    const until = at + limits.retentionMs;
    await armRecording(db, at, until);
    recorder.armed(until);
    await database.announceChange?.();
  }

  const prune = (): Promise<number> => pruneEvents(db, new Date(now().getTime() - limits.retentionMs).toISOString(), limits.maxEvents);
  const pruner = setInterval(() => {
    prune().catch((err: unknown) => log(`events: pruning old stream events failed: ${err instanceof Error ? err.message : String(err)}`));
  }, limits.pruneIntervalMs);
  pruner.unref();

  /** One look at the table for every open stream: what another process committed reaches them within pollMs. */
  async function poll(): Promise<void> {
    if (polling) return;
    polling = true;
    try {
      await arm();
      const newest = await lastEventId(db);
      for (const c of open) if (c.cursor() < newest) c.wake();
    } catch (err) {
      log(`events: reading the stream events failed: ${err instanceof Error ? err.message : String(err)}`);
    } finally {
      polling = false;
    }
  }

  return {
    /** The sink to give the document and upload services. */
    sink: recorder.sink,
    /** Open streams (tests). */
    openCount: (): number => open.size,
    /** Output written to open streams and not yet taken by their sockets (tests). */
    bufferedBytes: (): number => [...open].reduce((sum, c) => sum + c.buffered(), 0),
    prune,

    /**
     * Starts a stream on `res` (its headers not yet sent): after `lastEventId` when it is still
     * held, else a `reset` event then from now on. 429 past maxConnections.
     */
    async open(stream: { res: ServerResponse; lastEventId: number | null; allowed: () => Promise<(e: StoredEvent) => boolean> }): Promise<void> {
      if (open.size >= limits.maxConnections) throw new AppError('RateLimitError', 'Too many open event streams', {});
      await arm();
      const last = stream.lastEventId;
      let cursor = await lastEventId(db);
      let reset = false;
      if (last !== null) {
        await prune();
        // Resumable only from an id this table still holds everything after (ids never go back).
        if (last >= (await resumeFloor(db)) && last <= cursor) cursor = last;
        else reset = true;
      }
      const { res } = stream;
      // The client left while the stream was being set up: nothing to open (no 'close' would come again).
      if (res.destroyed || res.socket === null || res.socket.destroyed) return;
      res.writeHead(200, {
        'Content-Type': 'text/event-stream; charset=utf-8',
        'Cache-Control': 'no-cache, no-transform',
        Connection: 'keep-alive',
        'X-Accel-Buffering': 'no',
      });
      // The reset's id moves the client's Last-Event-ID past the gap, so a reconnect resumes.
      res.write(reset ? `id: ${cursor}\nevent: reset\ndata: ${JSON.stringify({ lastEventId: cursor })}\n\n` : ': connected\n\n');
      const connection: Connection = openConnection({
        db,
        res,
        cursor,
        limits,
        allowed: stream.allowed,
        log,
        closed: () => {
          open.delete(connection);
          if (open.size === 0 && poller) {
            clearInterval(poller);
            poller = null;
          }
        },
      });
      open.add(connection);
      poller ??= setInterval(() => void poll(), limits.pollMs);
      poller.unref();
      connection.wake();
    },

    /** Ends every open stream (before the HTTP server closes, so they do not hold its grace period). */
    close(): void {
      clearInterval(pruner);
      if (poller) clearInterval(poller);
      poller = null;
      for (const c of [...open]) c.end();
    },
  };
}

export type EventStream = ReturnType<typeof createEventStream>;
