import type { ApiClient } from '../../api/client';
import { array, bool, dataOf, nullable, num, object, oneOf, optional, record, str, type Decoder } from '../../api/decode';

/** A webhook as `/admin/api/webhooks` answers it (Strapi 5's shape; the secret is never sent back). */
export interface Webhook {
  readonly id: string;
  readonly name: string;
  readonly url: string;
  readonly headers: Record<string, unknown>;
  readonly events: readonly string[];
  readonly isEnabled: boolean;
}

/** The states of one delivery in a webhook's log. */
export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed', 'skipped'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** One line of a webhook's delivery log (`GET /admin/api/webhooks/:id/deliveries`). */
export interface Delivery {
  readonly id: number;
  readonly event: string;
  readonly status: DeliveryStatus;
  readonly attempts: number;
  /** The receiver's last HTTP status; null when no answer came (refused, timeout) or none was tried. */
  readonly responseStatus: number | null;
  readonly error: string | null;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly deliveredAt: string | null;
  readonly nextAttemptAt: string | null;
}

/** What "Send a test event" came to: Strapi's `{ statusCode[, message] }` (no answer at all is 500 with the error). */
export interface TriggerResult {
  readonly statusCode: number;
  readonly message: string | undefined;
}

const webhookShape = object<Webhook>({ id: (v, p) => String(num(v, p)), name: str, url: str, headers: record, events: array(str), isEnabled: bool });
export const webhookDecoder: Decoder<Webhook> = dataOf(webhookShape);
export const webhooksDecoder: Decoder<Webhook[]> = dataOf(array(webhookShape));
const deliveryShape = object<Delivery>({
  id: num,
  event: str,
  status: oneOf(DELIVERY_STATUSES),
  attempts: num,
  responseStatus: nullable(num),
  error: nullable(str),
  createdAt: str,
  updatedAt: str,
  deliveredAt: nullable(str),
  nextAttemptAt: nullable(str),
});
export const deliveriesDecoder: Decoder<Delivery[]> = dataOf(array(deliveryShape));
export const deliveryDecoder: Decoder<Delivery> = dataOf(deliveryShape);
export const triggerDecoder: Decoder<TriggerResult> = dataOf(object<TriggerResult>({ statusCode: num, message: optional(str) }));

/** The events a webhook may subscribe to, grouped as Strapi's admin shows them. */
export const EVENT_GROUPS: readonly { readonly name: string; readonly events: readonly { readonly value: string; readonly label: string }[] }[] = [
  {
    name: 'Entry',
    events: [
      { value: 'entry.create', label: 'Create' },
      { value: 'entry.update', label: 'Update' },
      { value: 'entry.delete', label: 'Delete' },
      { value: 'entry.publish', label: 'Publish' },
      { value: 'entry.unpublish', label: 'Unpublish' },
      { value: 'entry.draft-discard', label: 'Discard draft' },
    ],
  },
  {
    name: 'Media',
    events: [
      { value: 'media.create', label: 'Create' },
      { value: 'media.update', label: 'Update' },
      { value: 'media.delete', label: 'Delete' },
    ],
  },
];

/** One header row of the form (the name may be empty while typing). */
export interface HeaderRow {
  readonly key: string;
  readonly value: string;
}

/** What the create/edit form holds. */
export interface WebhookForm {
  readonly name: string;
  readonly url: string;
  readonly headers: readonly HeaderRow[];
  readonly events: ReadonlySet<string>;
  readonly isEnabled: boolean;
  /** A new secret ('' keeps the current one, or none on create). */
  readonly secret: string;
  /** Edit only: remove the current secret. */
  readonly removeSecret: boolean;
}

export const EMPTY_FORM: WebhookForm = { name: '', url: '', headers: [], events: new Set(), isEnabled: true, secret: '', removeSecret: false };

/** The form of an existing webhook. */
export function formOf(webhook: Webhook): WebhookForm {
  return {
    name: webhook.name,
    url: webhook.url,
    headers: Object.entries(webhook.headers).map(([key, value]) => ({ key, value: String(value) })),
    events: new Set(webhook.events),
    isEnabled: webhook.isEnabled,
    secret: '',
    removeSecret: false,
  };
}

/** Problems the form can see before sending, keyed as the server's field errors (`name`, `url`, `headers.<n>`). */
export function checkForm(form: WebhookForm): Map<string, string> {
  const problems = new Map<string, string>();
  if (form.name.trim() === '') problems.set('name', 'Give the webhook a name.');
  const url = form.url.trim();
  const protocol = URL.canParse(url) ? new URL(url).protocol : '';
  if (url === '') problems.set('url', 'Enter the URL that receives the events.');
  else if (protocol !== 'http:' && protocol !== 'https:') problems.set('url', 'Enter a URL starting with http:// or https://.');
  form.headers.forEach((h, i) => {
    if (h.key.trim() === '' && h.value.trim() !== '') problems.set(`headers.${i}`, 'Give this header a name.');
  });
  return problems;
}

/** The admin API body of a form (rows without a name are dropped). */
function bodyOf(form: WebhookForm, update: boolean): Record<string, unknown> {
  const headers: Record<string, string> = {};
  for (const h of form.headers) if (h.key.trim() !== '') headers[h.key.trim()] = h.value;
  const events = EVENT_GROUPS.flatMap((g) => g.events.map((e) => e.value)).filter((e) => form.events.has(e));
  const body: Record<string, unknown> = { name: form.name.trim(), url: form.url.trim(), headers, events };
  if (update) body.isEnabled = form.isEnabled;
  if (form.secret !== '') body.secret = form.secret;
  else if (update && form.removeSecret) body.secret = null;
  return body;
}

/** Creates a webhook; a webhook created disabled is created, then disabled (the create body has no isEnabled, as Strapi's). */
export async function createWebhook({ client, form }: { readonly client: ApiClient; readonly form: WebhookForm }): Promise<Webhook> {
  const created = webhookDecoder(await client.post('/admin/api/webhooks', bodyOf(form, false)));
  if (form.isEnabled) return created;
  return webhookDecoder(await client.put(`/admin/api/webhooks/${created.id}`, bodyOf(form, true)));
}

/** Saves an existing webhook's form. */
export async function updateWebhook({ client, id, form }: { readonly client: ApiClient; readonly id: string; readonly form: WebhookForm }): Promise<Webhook> {
  return webhookDecoder(await client.put(`/admin/api/webhooks/${id}`, bodyOf(form, true)));
}

/** Turns a webhook on or off, keeping everything else (the admin API's PUT takes the whole webhook). */
export async function setEnabled({
  client,
  webhook,
  isEnabled,
}: {
  readonly client: ApiClient;
  readonly webhook: Webhook;
  readonly isEnabled: boolean;
}): Promise<Webhook> {
  const { name, url, headers, events } = webhook;
  return webhookDecoder(await client.put(`/admin/api/webhooks/${webhook.id}`, { name, url, headers, events, isEnabled }));
}

/** Sends `trigger-test` to the webhook now and answers what the receiver said. */
export async function triggerWebhook({ client, id }: { readonly client: ApiClient; readonly id: string }): Promise<TriggerResult> {
  return triggerDecoder(await client.post(`/admin/api/webhooks/${id}/trigger`));
}

/** Deletes several webhooks in one call (Strapi's batch-delete); answers the ids sent. */
export async function deleteWebhooks({ client, ids }: { readonly client: ApiClient; readonly ids: readonly string[] }): Promise<string[]> {
  return dataOf(array((v, p) => String(num(v, p))))(await client.post('/admin/api/webhooks/batch-delete', { ids }));
}
