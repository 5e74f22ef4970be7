import { request as httpRequest, Agent as HttpAgent, type ClientRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest, Agent as HttpsAgent } from 'node:https';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { WEBHOOK_MESSAGE_MAX_CHARS, WEBHOOK_TIMEOUT_MS } from '../limits.js';
import { eventHeaders, networkFailure, sendEvent, type SendResult } from './send.js';
import type { Webhook } from './store.js';

/**
 * The dispatcher's HTTP client: the request Node's fetch sends (the same headers in the same order,
 * the same body) written with node:http over keep-alive agents, at a fraction of fetch's CPU per
 * request (fetch streams even a string body through WHATWG streams). A redirect is followed by
 * fetch from its Location, as fetch's `redirect: 'follow'` would.
 */

/** What fetch adds after the caller's headers (its defaults, in its order), unless the caller set them. */
const FETCH_DEFAULTS: readonly (readonly [string, string])[] = [
  ['accept', '*/*'],
  ['accept-language', '*'],
  ['sec-fetch-mode', 'cors'],
  ['user-agent', 'node'],
  ['accept-encoding', 'gzip, deflate'],
];
/** Headers the client itself writes (a webhook's own value for them is not sent, as fetch forbids them). */
const OWN = new Set(['host', 'connection', 'content-length', 'keep-alive', 'transfer-encoding', 'upgrade']);

function rawHeaders(url: URL, headers: Record<string, string>, body: string): string[] {
  const out = ['host', url.host, 'connection', 'keep-alive'];
  const seen = new Set<string>();
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    if (OWN.has(lower)) continue;
    seen.add(lower);
    out.push(name, value);
  }
  for (const [name, value] of FETCH_DEFAULTS) if (!seen.has(name)) out.push(name, value);
  out.push('content-length', String(Buffer.byteLength(body)));
  return out;
}

async function textOf(res: IncomingMessage): Promise<string> {
  const encoding = String(res.headers['content-encoding'] ?? '').toLowerCase();
  const stream =
    encoding === 'gzip' ? res.pipe(createGunzip()) : encoding === 'deflate' ? res.pipe(createInflate()) : encoding === 'br' ? res.pipe(createBrotliDecompress()) : res;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    if (size < WEBHOOK_MESSAGE_MAX_CHARS * 4) chunks.push(chunk);
    size += chunk.length;
  }
  return Buffer.concat(chunks).toString('utf8');
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** What a timed-out send records (the message fetch's AbortSignal.timeout gives). */
const TIMED_OUT = 'The operation was aborted due to timeout';
/** Parsed webhook URLs kept (a handful of webhooks; the map is emptied past this). */
const URLS_KEPT = 256;

/**
 * The dispatcher's sender. Each send has one timer (WEBHOOK_TIMEOUT_MS until its answer is read)
 * rather than AbortSignals, which cost more than the rest of a keep-alive POST; `close` aborts the
 * sends in flight (answered `aborted`) and ends the idle keep-alive connections.
 */
export function createSender() {
  const http = new HttpAgent({ keepAlive: true });
  const https = new HttpsAgent({ keepAlive: true });
  const inFlight = new Set<ClientRequest>();
  const stopping = new AbortController();
  const urls = new Map<string, URL>();

  function urlOf(text: string): URL {
    let url = urls.get(text);
    if (url === undefined) {
      url = new URL(text);
      if (urls.size >= URLS_KEPT) urls.clear();
      urls.set(text, url);
    }
    return url;
  }

  function post(url: URL, raw: string[], body: string): { req: ClientRequest; answer: Promise<{ res: IncomingMessage } | { error: Error }> } {
    const secure = url.protocol === 'https:';
    const options = { method: 'POST', agent: secure ? https : http, headers: raw };
    const req = secure ? httpsRequest(url, options) : httpRequest(url, options);
    const answer = new Promise<{ res: IncomingMessage } | { error: Error }>((resolve) => {
      req.on('response', (res) => resolve({ res }));
      req.on('error', (error) => resolve({ error }));
    });
    req.end(body);
    return { req, answer };
  }

  async function exchange(webhook: Webhook, url: URL, body: string, headers: Record<string, string>, args: { event: string; body: string; now: Date }): Promise<SendResult> {
    const failed = (err: unknown): SendResult => networkFailure(err, stopping.signal);
    const { req, answer } = post(url, rawHeaders(url, headers, body), body);
    inFlight.add(req);
    const timer = setTimeout(() => req.destroy(new Error(TIMED_OUT)), WEBHOOK_TIMEOUT_MS);
    try {
      const sent = await answer;
      if ('error' in sent) return failed(sent.error);
      const { res } = sent;
      const status = res.statusCode ?? 500;
      if (REDIRECTS.has(status) && res.headers.location) {
        res.resume();
        return await sendEvent({ webhook, ...args, stop: stopping.signal, url: new URL(res.headers.location, url).href, redirected: status });
      }
      if (status >= 200 && status < 300) {
        res.resume();
        return { statusCode: status, network: false, aborted: false };
      }
      const text = await textOf(res);
      return { statusCode: status, message: text.slice(0, WEBHOOK_MESSAGE_MAX_CHARS), network: false, aborted: false };
    } catch (err) {
      return failed(err);
    } finally {
      clearTimeout(timer);
      inFlight.delete(req);
    }
  }

  return {
    /** POSTs one event whose body is `body` (what sendEvent sends); never throws. */
    async send(args: { webhook: Webhook; event: string; body: string; now: Date }): Promise<SendResult> {
      if (stopping.signal.aborted) return networkFailure(new Error('This operation was aborted'), stopping.signal);
      const headers = eventHeaders(args.webhook, args.event, args.now, args.body);
      let url: URL;
      try {
        url = urlOf(args.webhook.url);
      } catch (err) {
        return networkFailure(err, stopping.signal);
      }
      return exchange(args.webhook, url, args.body, headers, args);
    },
    /** Aborts the sends in flight (their results say `aborted`) and ends the idle keep-alive connections. */
    close(): void {
      stopping.abort();
      for (const req of inFlight) req.destroy(new Error('This operation was aborted'));
      inFlight.clear();
      http.destroy();
      https.destroy();
    },
  };
}
