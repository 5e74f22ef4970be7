import { createHmac } from 'node:crypto';
import { WEBHOOK_MESSAGE_MAX_CHARS, WEBHOOK_TIMEOUT_MS } from '../limits.js';
import type { Webhook } from './store.js';

/** What one POST to a webhook came to: Strapi's `{ statusCode[, message] }` (a network error or timeout is 500 with its message). */
export interface SendResult {
  readonly statusCode: number;
  readonly message?: string;
  /** No HTTP answer arrived (refused, reset, timeout); false when it was aborted because the server closes. */
  readonly network: boolean;
  readonly aborted: boolean;
}

/** `sha256=<hex HMAC-SHA256 of "<timestamp>.<body>">` keyed by the webhook's secret. */
export const signature = (secret: string, timestamp: string, body: string): string =>
  `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;

/**
 * The body as Strapi sends it: `JSON.stringify({ event, createdAt, ...payload })`, compact, with
 * `createdAt` taken now (when the request is built), as Strapi's webhook runner does.
 */
export const bodyOf = (event: string, createdAt: Date, payload: Record<string, unknown>): string =>
  JSON.stringify({ event, createdAt: createdAt.toISOString(), ...payload });

/**
 * `bodyOf(event, createdAt, JSON.parse(payloadText))` without parsing: the outbox stores the
 * payload as `JSON.stringify(payload)` (an object whose keys are never `event` or `createdAt`), so
 * the body is the two leading keys followed by the stored text's members.
 */
export function bodyText(event: string, createdAt: Date, payloadText: string): string {
  const head = `{"event":${JSON.stringify(event)},"createdAt":"${createdAt.toISOString()}"`;
  return payloadText === '{}' ? `${head}}` : `${head},${payloadText.slice(1)}`;
}

/** The headers of one event's POST, in fetch's order: the webhook's, `X-Strapi-Event`, `Content-Type`, then the signature's. */
export function eventHeaders(webhook: Webhook, event: string, now: Date, body: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(webhook.headers)) headers[name] = String(value);
  headers['X-Strapi-Event'] = event;
  headers['Content-Type'] = 'application/json';
  if (webhook.secret !== null) {
    const timestamp = String(Math.floor(now.getTime() / 1000));
    headers['X-Hearth-Timestamp'] = timestamp;
    headers['X-Hearth-Signature'] = signature(webhook.secret, timestamp, body);
  }
  return headers;
}

/**
 * POSTs one event as Strapi's webhook runner does (Node's fetch: same header order, redirects
 * followed, 10 s timeout): the webhook's headers, then `X-Strapi-Event` and `Content-Type`, and
 * with a secret `X-Hearth-Timestamp` (Unix seconds) and `X-Hearth-Signature`. `url` and
 * `redirected` continue a POST another client sent and was redirected (a 301, 302 or 303 turns it
 * into a GET without a body, as fetch does).
 */
export async function sendEvent(args: {
  webhook: Webhook;
  event: string;
  /** The event's body (bodyOf / bodyText). */
  body: string;
  now: Date;
  stop?: AbortSignal;
  url?: string;
  redirected?: number;
}): Promise<SendResult> {
  const { webhook, event, body } = args;
  const headers = eventHeaders(webhook, event, args.now, body);
  const timeout = AbortSignal.timeout(WEBHOOK_TIMEOUT_MS);
  const signal = args.stop ? AbortSignal.any([timeout, args.stop]) : timeout;
  const asGet = args.redirected !== undefined && args.redirected !== 307 && args.redirected !== 308;
  if (asGet) delete headers['Content-Type'];
  try {
    const res = await fetch(args.url ?? webhook.url, { method: asGet ? 'GET' : 'POST', ...(asGet ? {} : { body }), headers, signal, redirect: 'follow' });
    if (res.ok) {
      await res.body?.cancel().catch(() => undefined);
      return { statusCode: res.status, network: false, aborted: false };
    }
    const text = await res.text().catch(() => '');
    return { statusCode: res.status, message: text.slice(0, WEBHOOK_MESSAGE_MAX_CHARS), network: false, aborted: false };
  } catch (err) {
    return networkFailure(err, args.stop);
  }
}

/** A send that got no answer (refused, reset, timed out or stopped), as the log records it. */
export function networkFailure(err: unknown, stop?: AbortSignal): SendResult {
  const message = err instanceof Error ? err.message : String(err);
  return { statusCode: 500, message: message.slice(0, WEBHOOK_MESSAGE_MAX_CHARS), network: true, aborted: stop?.aborted === true };
}
