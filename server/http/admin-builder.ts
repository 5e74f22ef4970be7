import express, { type Request } from 'express';
import { notFound } from '../errors/app-error.js';
import { deleteComponent, deleteContentType, saveComponent, saveContentType } from '../schema/builder.js';
import { schemaWithBaseTypes } from '../schema/builder-custom-fields.js';
import type { Services } from '../services.js';
import { fieldError, objectBody, type Json } from './admin-input.js';
import { parseQueryString, rawQuery } from './query-string.js';
import { sendJson } from './respond.js';
import { AppError } from '../errors/app-error.js';
import type { BuilderChange } from '../schema/builder.js';
import { parsePopulate } from '../query/populate.js';
import { unwrap } from '../query/check.js';

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

/** A saved type's default populate must be one its own find would accept (else every read of it would be a 400). */
function checkDefaultPopulate(change: BuilderChange): BuilderChange {
  const model = change.registry.contentType(change.uid);
  if (model?.defaultPopulate === undefined) return change;
  try {
    unwrap(parsePopulate(model.defaultPopulate, { model, registry: change.registry }));
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    throw fieldError(['contentType', 'pluginOptions', 'hearth', 'defaultPopulate'], `Default populate: ${err.message}`);
  }
  return change;
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
    // What of the project's code touches this type (applied route middlewares, code Hearth does not run); absent when nothing does.
    const projectCode = services.projectCode.itemsFor(model.uid).map(({ file, status, message }) => ({ file, status, message }));
    return { uid: model.uid, apiID: model.singularName, schema: schemaWithBaseTypes(model), ...(projectCode.length > 0 ? { projectCode } : {}) };
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
    const uid = await schemas.apply((registry) => checkDefaultPopulate(saveContentType(registry, { uid: null, ...input })));
    sendJson(res, 201, { data: { uid } });
  });
  router.put('/content-types/:uid', async (req, res) => {
    const input = saveBody(await objectBody(req), 'contentType');
    const uid = await schemas.apply((registry) => checkDefaultPopulate(saveContentType(registry, { uid: uidParam(req), ...input })));
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
