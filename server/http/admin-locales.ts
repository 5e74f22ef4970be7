import express from 'express';
import { isKnownLocale } from '../auth/locales.js';
import { removeLocale } from '../admin/locale-admin.js';
import { applicationError, notFound } from '../errors/app-error.js';
import type { Services } from '../services.js';
import { fieldError, idParam, objectBody, optionalBoolean, optionalString, requiredString } from './admin-input.js';
import { sendJson } from './respond.js';

/** `/i18n/locales`: list, add, rename or make default, delete (with that locale's content). */
export function localeRoutes(services: Services): express.Router {
  const router = express.Router();
  const { locales } = services;

  router.get('/i18n/locales', async (_req, res) => {
    sendJson(res, 200, { data: await locales.list() });
  });

  router.post('/i18n/locales', async (req, res) => {
    const body = await objectBody(req);
    const code = requiredString(body, 'code').trim();
    if (!isKnownLocale(code)) throw fieldError(['code'], `"${code}" is not a known locale code (e.g. en, fr, pt-BR)`);
    if (await locales.exists(code)) throw fieldError(['code'], 'This locale already exists');
    const name = optionalString(body, 'name', { nullable: true }) ?? undefined;
    const locale = await locales.add({ code, ...(name !== undefined ? { name } : {}), isDefault: optionalBoolean(body, 'isDefault') === true });
    sendJson(res, 201, { data: locale });
  });

  router.put('/i18n/locales/:id', async (req, res) => {
    const id = idParam(req.params.id, 'Locale');
    const body = await objectBody(req);
    const name = optionalString(body, 'name');
    const isDefault = optionalBoolean(body, 'isDefault');
    const locale = await locales.update(id, { ...(typeof name === 'string' ? { name } : {}), ...(isDefault !== undefined ? { isDefault } : {}) });
    if (!locale) throw notFound('Locale not found');
    sendJson(res, 200, { data: locale });
  });

  router.delete('/i18n/locales/:id', async (req, res) => {
    const id = idParam(req.params.id, 'Locale');
    const result = await removeLocale({ database: services.database, locales, documents: services.documents }, id);
    if (!result.ok && result.reason === 'missing') throw notFound('Locale not found');
    if (!result.ok) throw applicationError('Cannot delete the default locale');
    sendJson(res, 200, { data: result.locale });
  });
  return router;
}
