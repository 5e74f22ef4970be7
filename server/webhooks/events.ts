/** The events a webhook may subscribe to: Strapi 5's (webhook-store.js allowedEvents and the upload plugin's). */
export const WEBHOOK_EVENTS = [
  'entry.create',
  'entry.update',
  'entry.delete',
  'entry.publish',
  'entry.unpublish',
  'entry.draft-discard',
  'media.create',
  'media.update',
  'media.delete',
] as const;

export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

export const isWebhookEvent = (name: unknown): name is WebhookEvent => typeof name === 'string' && (WEBHOOK_EVENTS as readonly string[]).includes(name);

/** The event the trigger endpoint sends (never subscribed to). */
export const TRIGGER_EVENT = 'trigger-test';
