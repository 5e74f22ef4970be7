/**
 * A Server-Sent Events reader over fetch (the parsing rules of the HTML standard's event stream:
 * fields `id`, `event`, `data`, comment lines starting with `:`), for tests that need to set headers,
 * stop reading, or disconnect at a chosen point.
 */

export interface SseEvent {
  readonly id: string;
  readonly event: string;
  readonly data: string;
}

export interface SseStream {
  readonly status: number;
  readonly headers: Headers;
  /** Every event received so far, in order. */
  readonly events: SseEvent[];
  /** Comment lines received so far (heartbeats), without the colon. */
  readonly comments: string[];
  /** Resolves once `count` events (in all) have arrived; rejects after `timeoutMs`. */
  waitFor(count: number, timeoutMs?: number): Promise<SseEvent[]>;
  /** Resolves once a comment line equal to `text` has arrived. */
  waitForComment(text: string, timeoutMs?: number): Promise<void>;
  /** Disconnects. */
  close(): void;
  /** The body of a refused stream (non-2xx). */
  readonly text: string | null;
}

export async function openSse(url: string, headers: Record<string, string> = {}): Promise<SseStream> {
  const abort = new AbortController();
  const res = await fetch(url, { headers: { Accept: 'text/event-stream', ...headers }, signal: abort.signal });
  const events: SseEvent[] = [];
  const comments: string[] = [];
  const waiters = new Set<() => void>();
  const notify = () => {
    for (const w of [...waiters]) w();
  };
  if (!res.ok || !res.body) {
    const text = await res.text();
    const refused = (): Promise<never> => Promise.reject(new Error(`the stream was refused: ${res.status} ${text}`));
    return { status: res.status, headers: res.headers, events, comments, text, close: () => abort.abort(), waitFor: refused, waitForComment: refused };
  }
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  let id = '';
  let event = '';
  let data: string[] = [];
  const line = (l: string) => {
    if (l === '') {
      if (data.length > 0) events.push({ id, event: event || 'message', data: data.join('\n') });
      event = '';
      data = [];
      return;
    }
    if (l.startsWith(':')) {
      comments.push(l.slice(1).trim());
      return;
    }
    const colon = l.indexOf(':');
    const field = colon < 0 ? l : l.slice(0, colon);
    const value = colon < 0 ? '' : l.slice(colon + 1).replace(/^ /, '');
    if (field === 'id') id = value;
    else if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
  };
  void (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        buffer += value;
        const lines = buffer.split(/\r\n|\r|\n/);
        buffer = lines.pop() ?? '';
        for (const l of lines) line(l);
        notify();
      }
    } catch {
      // Aborted by close().
    }
  })();
  const until = (ok: () => boolean, timeoutMs: number, what: string) =>
    new Promise<void>((resolve, reject) => {
      if (ok()) return resolve();
      const check = () => {
        if (!ok()) return;
        clearTimeout(timer);
        waiters.delete(check);
        resolve();
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`timed out waiting for ${what}; got ${JSON.stringify(events.map((e) => [e.id, e.event]))}`));
      }, timeoutMs);
      waiters.add(check);
    });
  return {
    status: res.status,
    headers: res.headers,
    events,
    comments,
    text: null,
    async waitFor(count, timeoutMs = 5000) {
      await until(() => events.length >= count, timeoutMs, `${count} events`);
      return events.slice(0, count);
    },
    waitForComment: (text, timeoutMs = 5000) => until(() => comments.includes(text), timeoutMs, `the comment "${text}"`),
    close: () => abort.abort(),
  };
}
