import { list, only, required, text, type Io, type Parsed } from '../cli-args.js';
import { dataDirOf, databaseUrlOf } from '../config.js';
import { openDataDir } from '../data-dir.js';
import { applicationError, usageError } from '../errors/app-error.js';
import { isWebhookEvent, WEBHOOK_EVENTS } from './events.js';
import { createWebhookStore, type WebhookStore } from './store.js';
import { checkUrl } from './validate.js';

/**
 * `hearth webhook add|list|remove`: writes hearth_webhooks directly, so it works while a server
 * runs on the data dir, and that server uses the change at once (it reads webhooks from the
 * database at each write and each delivery).
 */

async function withStore<T>(parsed: Parsed, fn: (store: WebhookStore) => Promise<T>): Promise<T> {
  const dir = await openDataDir(dataDirOf(text(parsed, 'data')), { databaseUrl: databaseUrlOf() });
  try {
    return await fn(createWebhookStore({ db: dir.database.db, now: () => new Date(), announce: dir.database.announceChange }));
  } finally {
    await dir.database.close();
  }
}

/** `--header "Key: Value"` (repeatable) as an object, in order. */
function headersOf(parsed: Parsed): Record<string, string> {
  const out: Record<string, string> = {};
  for (const header of parsed.repeated?.get('header') ?? []) {
    const colon = header.indexOf(':');
    const name = colon === -1 ? '' : header.slice(0, colon).trim();
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) throw usageError(`--header takes "Key: Value" ("${header}" is not)`);
    out[name] = header.slice(colon + 1).trim();
  }
  return out;
}

/** `hearth webhook add --url URL --events E1,E2 [--name NAME] [--header "K: V"]... [--secret S]`: prints the id alone. */
export async function webhookAdd(parsed: Parsed, io: Io): Promise<number> {
  only(parsed, ['url', 'events', 'name', 'header', 'secret', 'data']);
  const url = required(parsed, 'url');
  const problem = checkUrl(url);
  if (problem !== null) throw usageError(`--url: ${problem.replace(/^url /, '')} (${url})`);
  const events = list(required(parsed, 'events'));
  for (const event of events) if (!isWebhookEvent(event)) throw usageError(`--events: ${event} is not supported (one of ${WEBHOOK_EVENTS.join(', ')})`);
  const headers = headersOf(parsed);
  const secret = text(parsed, 'secret');
  if (secret !== undefined && secret === '') throw usageError('--secret needs a value');
  const webhook = await withStore(parsed, (store) => store.create({ name: text(parsed, 'name') ?? url, url, headers, events, secret: secret ?? null }));
  io.out(`${webhook.id}\n`);
  return 0;
}

/** `hearth webhook list`: one JSON object per line: id, name, url, events, enabled. */
export async function webhookList(parsed: Parsed, io: Io): Promise<number> {
  only(parsed, ['data']);
  const webhooks = await withStore(parsed, (store) => store.list());
  for (const w of webhooks) io.out(`${JSON.stringify({ id: w.id, name: w.name, url: w.url, events: w.events, enabled: w.isEnabled })}\n`);
  return 0;
}

/** `hearth webhook remove --id ID`. */
export async function webhookRemove(parsed: Parsed, _io: Io): Promise<number> {
  only(parsed, ['id', 'data']);
  const id = required(parsed, 'id');
  if (!/^\d{1,15}$/.test(id)) throw usageError(`--id takes a webhook id (a number; "${id}" is not)`);
  const removed = await withStore(parsed, (store) => store.remove(Number(id)));
  if (!removed) throw applicationError(`no webhook with id ${id}`);
  return 0;
}
