import { request as httpRequest, Agent as HttpAgent, type IncomingMessage } from 'node:http';
import { request as httpsRequest, Agent as HttpsAgent } from 'node:https';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { WEBHOOK_MESSAGE_MAX_CHARS, WEBHOOK_TIMEOUT_MS } from '../limits.js';
import { bodyOf, eventHeaders, networkFailure, sendEvent, type SendResult } from './send.js';
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

/** The dispatcher's sender; `close` ends its idle keep-alive connections. */
export function createSender() {
  const http = new HttpAgent({ keepAlive: true });
  const https = new HttpsAgent({ keepAlive: true });

  function post(url: URL, raw: string[], body: string, signal: AbortSignal): Promise<{ res: IncomingMessage } | { error: Error }> {
    return new Promise((resolve) => {
      const secure = url.protocol === 'https:';
      const options = { method: 'POST', agent: secure ? https : http, headers: raw, signal };
      const req = secure ? httpsRequest(url, options) : httpRequest(url, options);
      req.on('response', (res) => resolve({ res }));
      req.on('error', (error) => resolve({ error }));
      req.end(body);
    });
  }

  return {
    /** POSTs one event (what sendEvent sends); never throws. */
    async send(args: { webhook: Webhook; event: string; payload: Record<string, unknown>; now: Date; stop?: AbortSignal }): Promise<SendResult> {
      const body = bodyOf(args.event, args.now, args.payload);
      const headers = eventHeaders(args.webhook, args.event, args.now, body);
      const timeout = AbortSignal.timeout(WEBHOOK_TIMEOUT_MS);
      const signal = args.stop ? AbortSignal.any([timeout, args.stop]) : timeout;
      const failed = (err: unknown): SendResult => networkFailure(err, args.stop);
      let url: URL;
      try {
        url = new URL(args.webhook.url);
      } catch (err) {
        return failed(err);
      }
      const sent = await post(url, rawHeaders(url, headers, body), body, signal);
      if ('error' in sent) return failed(sent.error);
      const { res } = sent;
      const status = res.statusCode ?? 500;
      if (REDIRECTS.has(status) && res.headers.location) {
        res.resume();
        return sendEvent({ ...args, url: new URL(res.headers.location, url).href, redirected: status });
      }
      try {
        if (status >= 200 && status < 300) {
          res.resume();
          return { statusCode: status, network: false, aborted: false };
        }
        const text = await textOf(res);
        return { statusCode: status, message: text.slice(0, WEBHOOK_MESSAGE_MAX_CHARS), network: false, aborted: false };
      } catch (err) {
        return failed(err);
      }
    },
    close(): void {
      http.destroy();
      https.destroy();
    },
  };
}

