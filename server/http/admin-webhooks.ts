import express from 'express';
import { AppError, notFound } from '../errors/app-error.js';
import type { Services } from '../services.js';
import { checkWebhookBody, webhookJson } from '../webhooks/index.js';
import { readBody } from './body.js';
import { sendJson } from './respond.js';

/** A webhook id of a path: digits, else no such webhook (Strapi's 404 `webhook.notFound`). */
function webhookId(value: unknown, what = 'webhook.notFound'): number {
  if (typeof value !== 'string' || !/^\d{1,15}$/.test(value)) throw notFound(what);
  return Number(value);
}

/**
 * `/admin/api/webhooks`: Strapi 5's admin webhook API (`/admin/webhooks`) with its bodies and
 * messages, plus Hearth's delivery log and redeliver. An unknown id on trigger is a 404 (Strapi: 500).
 */
export function webhookRoutes(services: Services): express.Router {
  const router = express.Router();
  const { webhooks } = services;
  const { store } = webhooks;

  router.get('/webhooks', async (_req, res) => {
    sendJson(res, 200, { data: (await store.list()).map(webhookJson) });
  });

  router.post('/webhooks', async (req, res) => {
    const input = checkWebhookBody((await readBody(req)) ?? {}, false);
    sendJson(res, 201, { data: webhookJson(await store.create(input)) });
  });

  router.post('/webhooks/batch-delete', async (req, res) => {
    const body = await readBody(req);
    const ids = typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>).ids : undefined;
    if (!Array.isArray(ids) || ids.length === 0) throw new AppError('BadRequestError', 'ids must be an array of id', {});
    for (const id of ids) {
      const text = String(id);
      if (/^\d{1,15}$/.test(text)) await store.remove(Number(text));
    }
    sendJson(res, 200, { data: ids });
  });

  router.get('/webhooks/:id', async (req, res) => {
    const webhook = await store.get(webhookId(req.params.id));
    if (!webhook) throw notFound('webhook.notFound');
    sendJson(res, 200, { data: webhookJson(webhook) });
  });

  router.put('/webhooks/:id', async (req, res) => {
    const id = webhookId(req.params.id);
    const input = checkWebhookBody((await readBody(req)) ?? {}, true);
    const webhook = await store.update(id, input);
    if (!webhook) throw notFound('webhook.notFound');
    sendJson(res, 200, { data: webhookJson(webhook) });
  });

  router.delete('/webhooks/:id', async (req, res) => {
    const webhook = await store.remove(webhookId(req.params.id));
    if (!webhook) throw notFound('webhook.notFound');
    sendJson(res, 200, { data: webhookJson(webhook) });
  });

  router.post('/webhooks/:id/trigger', async (req, res) => {
    sendJson(res, 200, { data: await webhooks.trigger(webhookId(req.params.id)) });
  });

  router.get('/webhooks/:id/deliveries', async (req, res) => {
    sendJson(res, 200, { data: await webhooks.deliveries(webhookId(req.params.id)) });
  });

  router.post('/webhooks/:id/deliveries/:deliveryId/redeliver', async (req, res) => {
    const id = webhookId(req.params.id);
    sendJson(res, 202, { data: await webhooks.redeliver(id, webhookId(req.params.deliveryId, 'delivery.notFound')) });
  });

  return router;
}
