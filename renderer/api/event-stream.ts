import { isRecord } from './decode';
import { ApiError } from './errors';

/** One change the server's stream (`GET /hearth/events`) sent: `entry.create`, `media.delete`, ... with its webhook body. */
export interface LiveEvent {
  readonly id: number | null;
  readonly event: string;
  readonly data: Readonly<Record<string, unknown>>;
}

/** What the stream needs: a way to open it with the session, and where its events go. */
export interface EventStreamDeps {
  /** Opens `GET /hearth/events` with the session's credential (and Last-Event-ID when given); a refused answer throws ApiError. */
  readonly open: (headers: Headers, signal: AbortSignal) => Promise<Response>;
  readonly onEvent: (event: LiveEvent) => void;
  /** Events may have been missed (a `reset`, or a reconnect with nothing to resume from): refresh everything open. */
  readonly onReset: () => void;
  /** First wait before reconnecting after a drop, doubled after each failed try up to maxRetryMs. */
  readonly retryMs?: number;
  readonly maxRetryMs?: number;
}

/** First wait before reconnecting after the stream dropped. */
const RETRY_MS = 1000;
/** Longest wait between reconnects (the server down for a while). */
const MAX_RETRY_MS = 15_000;

/** One Server-Sent Events frame's fields, as the spec reads them (comments and unknown fields ignored). */
function parseFrame(text: string): { id: string | null; event: string; data: string } | null {
  let id: string | null = null;
  let event = 'message';
  const data: string[] = [];
  for (const line of text.split(/\r\n|\r|\n/)) {
    if (line === '' || line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'id') id = value;
    else if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
  }
  if (id === null && data.length === 0) return null;
  return { id, event, data: data.join('\n') };
}

function toEvent(frame: { id: string | null; event: string; data: string }): LiveEvent {
  let data: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(frame.data);
    if (isRecord(parsed)) data = parsed;
  } catch {
    // Not JSON: the event still counts, with no details.
  }
  const id = frame.id !== null && /^\d+$/.test(frame.id) ? Number(frame.id) : null;
  return { id, event: frame.event, data };
}

const sleep = (ms: number, signal: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });

/**
 * Follows the change stream with fetch() and a streaming body reader (EventSource cannot send
 * the session's Authorization header). After a drop it reconnects with Last-Event-ID, so nothing
 * committed meanwhile is missed; without an id to resume from, or on the server's `reset`, it asks
 * for a full refresh. A 401 or 403 stops it (the session ended; the client's own handling shows
 * the login). Returns a function that closes it.
 */
export function followEventStream(deps: EventStreamDeps): () => void {
  const stop = new AbortController();
  const { signal } = stop;
  const firstWait = deps.retryMs ?? RETRY_MS;
  let lastId: number | null = null;
  let connectedBefore = false;

  async function readOnce(): Promise<boolean> {
    const headers = new Headers({ Accept: 'text/event-stream' });
    if (lastId !== null) headers.set('Last-Event-ID', String(lastId));
    const response = await deps.open(headers, signal);
    const reader = response.body?.getReader();
    if (!reader) return false;
    // Reconnected without an id to resume from: what happened during the gap is unknown.
    if (connectedBefore && lastId === null) deps.onReset();
    connectedBefore = true;
    const decoder = new TextDecoder();
    let buffer = '';
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return true;
      buffer += decoder.decode(value, { stream: true });
      for (let end = buffer.search(/\r?\n\r?\n/); end !== -1; end = buffer.search(/\r?\n\r?\n/)) {
        const text = buffer.slice(0, end);
        buffer = buffer.slice(end).replace(/^\r?\n\r?\n/, '');
        const frame = parseFrame(text);
        if (!frame) continue;
        const event = toEvent(frame);
        if (event.id !== null) lastId = event.id;
        if (event.event === 'reset') deps.onReset();
        else deps.onEvent(event);
      }
    }
  }

  void (async () => {
    let wait = firstWait;
    while (!signal.aborted) {
      try {
        if (await readOnce()) wait = firstWait;
      } catch (error) {
        if (signal.aborted) return;
        if (error instanceof ApiError && (error.status === 401 || error.status === 403)) return;
      }
      if (signal.aborted) return;
      await sleep(wait, signal);
      wait = Math.min(wait * 2, deps.maxRetryMs ?? MAX_RETRY_MS);
    }
  })();

  return () => stop.abort();
}
