import { AppError, validationError } from '../errors/app-error.js';
import { isRecord } from '../errors/is-record.js';
import { isWebhookEvent } from './events.js';

/**
 * The admin API's webhook bodies checked as Strapi 5 checks them (its yup schema with
 * `.noUnknown()`, messages as recorded), then the events (the store's "not supported" check).
 * Hearth only accepts http and https URLs (Strapi accepts any scheme).
 */

/** What a webhook is made of, checked. */
export interface WebhookInput {
  readonly name: string;
  readonly url: string;
  readonly headers: Record<string, unknown>;
  readonly events: string[];
  readonly isEnabled?: boolean;
  /** Hearth's: the HMAC key of X-Hearth-Signature (null removes it; absent keeps it). */
  readonly secret?: string | null;
}

interface FieldProblem {
  path: string[];
  message: string;
  name: 'ValidationError';
  value?: unknown;
}

const typeError = (key: string, type: string, value: unknown): FieldProblem => ({
  path: [key],
  message: `${key} must be a \`${type}\` type, but the final value was: \`${JSON.stringify(value)}\`.`,
  name: 'ValidationError',
  value,
});

const required = (key: string): FieldProblem => ({ path: [key], message: `${key} is a required field`, name: 'ValidationError' });

/** Whether a URL is well formed (a scheme, `://`, a host), as Strapi's regex asks. */
function wellFormed(url: string): boolean {
  if (!/^[a-z][a-z0-9+.-]*:\/\/\S+$/i.test(url)) return false;
  try {
    return new URL(url).host !== '';
  } catch {
    return false;
  }
}

/** An http or https URL, else the 400 naming `url` (Hearth's rule; the receiver may be on loopback). */
export function checkUrl(url: string): string | null {
  if (!wellFormed(url)) return 'url must be a valid URL';
  const { protocol } = new URL(url);
  if (protocol !== 'http:' && protocol !== 'https:') return 'url must use http or https';
  return null;
}

const KNOWN = ['name', 'url', 'headers', 'events'];

/** Checks a create (`update`: false) or update body; throws Strapi's 400s. */
export function checkWebhookBody(body: unknown, update: boolean): WebhookInput {
  if (!isRecord(body)) throw validationError('The request body must be a JSON object');
  const problems: FieldProblem[] = [];
  const { name, url, headers, events, isEnabled, secret } = body;
  if (name === undefined || name === null) problems.push(required('name'));
  else if (typeof name !== 'string') problems.push(typeError('name', 'string', name));
  if (url === undefined || url === null) problems.push(required('url'));
  else if (typeof url !== 'string') problems.push(typeError('url', 'string', url));
  else {
    const bad = checkUrl(url);
    if (bad !== null) problems.push({ path: ['url'], message: bad, name: 'ValidationError', value: url });
  }
  if (headers === undefined || headers === null) problems.push(required('headers'));
  else if (!isRecord(headers)) problems.push(typeError('headers', 'object', headers));
  if (events === undefined || events === null) problems.push(required('events'));
  else if (!Array.isArray(events)) problems.push(typeError('events', 'array', events));
  if (update && isEnabled !== undefined && typeof isEnabled !== 'boolean') problems.push(typeError('isEnabled', 'boolean', isEnabled));
  if (secret !== undefined && secret !== null && (typeof secret !== 'string' || secret === '')) problems.push(typeError('secret', 'string', secret));
  const allowed = new Set([...KNOWN, 'secret', ...(update ? ['isEnabled'] : [])]);
  const unknown = Object.keys(body).filter((k) => !allowed.has(k));
  if (unknown.length > 0) problems.push({ path: [], message: `this field has unspecified keys: ${unknown.join(', ')}`, name: 'ValidationError', value: body });
  if (problems.length > 0) {
    const message = problems.length === 1 ? (problems[0]?.message ?? '') : `${problems.length} errors occurred`;
    throw new AppError('ValidationError', message, { errors: problems });
  }
  const list = events as unknown[];
  const unsupported = list.find((e) => !isWebhookEvent(e));
  if (unsupported !== undefined) throw validationError(`Webhook event ${String(unsupported)} is not supported`);
  return {
    name: name as string,
    url: url as string,
    headers: headers as Record<string, unknown>,
    events: list as string[],
    ...(typeof isEnabled === 'boolean' ? { isEnabled } : {}),
    ...(secret !== undefined ? { secret: secret as string | null } : {}),
  };
}
