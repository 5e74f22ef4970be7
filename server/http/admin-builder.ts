import express, { type Request } from 'express';
import { notFound } from '../errors/app-error.js';
import { deleteComponent, deleteContentType, saveComponent, saveContentType } from '../schema/builder.js';
import { schemaWithBaseTypes } from '../schema/builder-custom-fields.js';
import type { Services } from '../services.js';
import { fieldError, objectBody, type Json } from './admin-input.js';
import { parseQueryString, rawQuery } from './query-string.js';
import { sendJson } from './respond.js';

/** `confirmDataLoss` of a body (a boolean) or a query string (`true`/`false`). */
function confirmOf(value: unknown, path: string[]): boolean {
  if (value === undefined || value === null || value === false || value === 'false') return false;
  if (value === true || value === 'true') return true;
  throw fieldError(path, 'confirmDataLoss must be a `boolean` type');
}

const queryConfirm = (req: Request) => confirmOf(parseQueryString(rawQuery(req.originalUrl)).confirmDataLoss, ['confirmDataLoss']);

/** The uid in a path (`api::article.article`, `shared.seo`). */
const uidParam = (req: Request): string => String(req.params.uid ?? '');

/** The builder's body: the schema under its key, the renames, the confirmation. */
function saveBody(body: Json, key: 'contentType' | 'component') {
  if (body[key] === undefined) throw fieldError([key], `${key} is a required field`);
  return { schema: body[key], renames: body.renames, confirmDataLoss: confirmOf(body.confirmDataLoss, ['confirmDataLoss']) };
}

/**
 * The content-type builder: reads of the running schemas, and edits that rewrite the schemas
 * folder and the database and apply at once (through the schema controller, one at a time).
 */
export function builderRoutes(services: Services): express.Router {
  const router = express.Router();
  const { schemas } = services;
  const contentTypeOf = (uid: string) => {
    const model = schemas.current().contentType(uid);
    if (!model || model.builtIn) throw notFound('Content type not found');
    return { uid: model.uid, apiID: model.singularName, schema: schemaWithBaseTypes(model) };
  };
  const componentOf = (uid: string) => {
    const model = schemas.current().component(uid);
    if (!model) throw notFound('Component not found');
    return { uid: model.uid, category: model.category, schema: schemaWithBaseTypes(model) };
  };

  router.get('/content-types', (_req, res) => {
    const types = schemas.current().contentTypes.filter((c) => !c.builtIn);
    sendJson(res, 200, { data: types.map((c) => contentTypeOf(c.uid)) });
  });
  router.get('/content-types/:uid', (req, res) => {
    sendJson(res, 200, { data: contentTypeOf(uidParam(req)) });
  });
  router.post('/content-types', async (req, res) => {
    const input = saveBody(await objectBody(req), 'contentType');
    const uid = await schemas.apply((registry) => saveContentType(registry, { uid: null, ...input }));
    sendJson(res, 201, { data: { uid } });
  });
  router.put('/content-types/:uid', async (req, res) => {
    const input = saveBody(await objectBody(req), 'contentType');
    const uid = await schemas.apply((registry) => saveContentType(registry, { uid: uidParam(req), ...input }));
    sendJson(res, 200, { data: { uid } });
  });
  router.delete('/content-types/:uid', async (req, res) => {
    const confirm = queryConfirm(req);
    const uid = await schemas.apply((registry) => deleteContentType(registry, uidParam(req), confirm));
    sendJson(res, 200, { data: { uid } });
  });

  router.get('/components', (_req, res) => {
    sendJson(res, 200, { data: schemas.current().components.map((c) => componentOf(c.uid)) });
  });
  router.get('/components/:uid', (req, res) => {
    sendJson(res, 200, { data: componentOf(uidParam(req)) });
  });
  router.post('/components', async (req, res) => {
    const input = saveBody(await objectBody(req), 'component');
    const uid = await schemas.apply((registry) => saveComponent(registry, { uid: null, ...input }));
    sendJson(res, 201, { data: { uid } });
  });
  router.put('/components/:uid', async (req, res) => {
    const input = saveBody(await objectBody(req), 'component');
    const uid = await schemas.apply((registry) => saveComponent(registry, { uid: uidParam(req), ...input }));
    sendJson(res, 200, { data: { uid } });
  });
  router.delete('/components/:uid', async (req, res) => {
    const confirm = queryConfirm(req);
    const uid = await schemas.apply((registry) => deleteComponent(registry, uidParam(req), confirm));
    sendJson(res, 200, { data: { uid } });
  });
  return router;
}
