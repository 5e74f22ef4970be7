import type { NextFunction, Request, Response } from 'express';
import { notFound as notFoundError, validationError } from '../errors/app-error.js';
import { findMany, findOne } from '../documents/reader.js';
import { checkInput } from '../documents/input-check.js';
import { createDocument, deleteDocument, updateDocument } from '../documents/writer.js';
import { toV4Data } from '../documents/v4.js';
import { convertFields } from '../query/fields.js';
import { convertPopulate } from '../query/populate.js';
import { buildQuery, checkParams, readListQuery, readOneQuery, validateQuery, type QueryEnv } from '../query/read-query.js';
import type { DocumentQuery } from '../query/ast.js';
import { checkPopulateAccess } from '../query/check-populate.js';
import type { ContentTypeModel } from '../schema/types.js';
import { lookupField } from '../schema/fields.js';
import { documentDeps, type Services } from '../services.js';
import { readBody } from './body.js';
import { authenticate, authorize, type Caller } from './caller.js';
import { parseQueryString, rawQuery } from './query-string.js';
import { methodNotAllowed, sendJson, sendJsonText } from './respond.js';
import { cachedRead } from './cached-read.js';
import { routeQuery } from '../project-code/route-query.js';

const COLLECTION_METHODS = ['HEAD', 'GET', 'POST'];
const DOCUMENT_METHODS = ['HEAD', 'GET', 'PUT', 'DELETE'];
const isObjectLike = (v: unknown) => typeof v === 'object' && v !== null;

/** Strapi's check before any write: `data` must be an object (arrays pass, and fail validation later). */
async function bodyData(req: Request): Promise<unknown> {
  const body = await readBody(req);
  const data = isObjectLike(body) ? (body as Record<string, unknown>).data : undefined;
  if (!isObjectLike(data)) throw validationError('Missing "data" payload in the request body');
  return data;
}

/** The response-shaping part of a query that was not validated (single-type writes, as in Strapi). */
function lenientQuery(raw: Record<string, unknown>, model: ContentTypeModel, env: QueryEnv): DocumentQuery {
  const params = checkParams(raw, false);
  let fields: string[] | null = null;
  try {
    fields = convertFields(raw.fields, model);
  } catch {
    fields = null;
  }
  // Not validated, as in Strapi, but what the populate reaches is still the caller's to read.
  if (raw.populate !== undefined && raw.populate !== null && raw.populate !== '*') checkPopulateAccess(raw.populate, model, env.registry, env.canRead);
  return {
    fields: fields?.filter((f) => lookupField(model, f)?.kind === 'scalar') ?? null,
    filters: null,
    sort: [],
    populate: convertPopulate(raw.populate, model, env.registry),
    status: params.status,
    locale: params.locale,
    publicationFilter: null,
    search: null,
  };
}

function queryEnv(services: Services, caller: Caller): QueryEnv {
  const { config } = services;
  return {
    registry: services.registry(),
    limits: { defaultLimit: config.defaultLimit, maxLimit: config.maxLimit },
    canRead: (uid) => caller.allows(`${uid}.find`),
  };
}

/**
 * The generated content API: `/api/:pluralApiId[/:documentId]` for collection types and
 * `/api/:singularApiId` for single types, with Strapi's statuses, bodies and check order
 * (route, then authentication and permission, then query, then body).
 */
export function contentApi(services: Services) {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    const parts = req.path.split('/').filter((p) => p !== '');
    const model = parts[0] === undefined ? undefined : services.registry().routeModel(parts[0]);
    if (!model || model.builtIn || parts.length > 2 || (model.kind === 'singleType' && parts.length !== 1)) {
      next();
      return;
    }
    const single = model.kind === 'singleType';
    const documentId = single ? null : (parts[1] ?? null);
    const listRoute = !single && documentId === null;
    const allow = listRoute ? COLLECTION_METHODS : DOCUMENT_METHODS;
    const method = req.method === 'HEAD' ? 'GET' : req.method;
    if (req.method === 'OPTIONS') {
      res.status(200).set('Allow', allow.join(', ')).end();
      return;
    }
    if (!allow.includes(req.method)) {
      methodNotAllowed(res, allow);
      return;
    }
    const action =
      method === 'GET' ? (listRoute || single ? 'find' : 'findOne') : method === 'POST' ? 'create' : method === 'PUT' ? 'update' : 'delete';
    const caller = await authenticate(req, services);
    authorize(caller, `${model.uid}.${action}`);
    const deps = documentDeps(services);
    const v4 = req.headers['strapi-response-format'] === 'v4';
    // Looked up before the query string is even parsed: a hit costs authentication and a map lookup.
    const cached = method === 'GET' ? cachedRead({ responses: services.responses, caller, registry: deps.registry, v4, url: req.originalUrl }) : null;
    const hit = cached?.lookup();
    if (hit !== undefined) {
      sendJsonText(res, 200, hit);
      return;
    }
    // What the route's defaults and the project's route middlewares make of the client's query.
    const raw = routeQuery({ code: services.projectCode, model, action, query: parseQueryString(rawQuery(req.originalUrl)) });
    const env = queryEnv(services, caller);
    const access = { canRead: env.canRead };
    const shape = (data: unknown) => (v4 ? toV4Data(model, data, deps.registry) : data);

    if (cached) {
      let body: unknown;
      if (listRoute) {
        const { query, pagination } = readListQuery(raw, model, env);
        const result = await findMany(deps, model, query, pagination, access);
        body = { data: shape(result.data), meta: result.meta };
      } else {
        const query = readOneQuery(raw, model, env);
        const entry = await findOne(deps, model, documentId, query, access);
        if (!entry) throw notFoundError();
        body = { data: shape(entry), meta: {} };
      }
      sendJsonText(res, 200, cached.store(JSON.stringify(body)));
      return;
    }
    if (method === 'DELETE') {
      if (!single) validateQuery(raw, model, env);
      const query = single ? lenientQuery(raw, model, env) : buildQuery(raw, model, env, checkParams(raw, false));
      await deleteDocument(deps, model, documentId, query, raw.status !== undefined && raw.status !== null && raw.status !== '');
      res.status(204).end();
      return;
    }
    if (!single) validateQuery(raw, model, env);
    const data = await bodyData(req);
    checkInput(data, model, deps.registry, env.canRead);
    const query = single ? lenientQuery(raw, model, env) : buildQuery(raw, model, env, checkParams(raw, false));
    // Writes made with an admin session record who made them (createdBy/updatedBy), as Strapi's admin does.
    const author = caller.kind === 'admin' ? caller.id : null;
    if (method === 'POST') {
      sendJson(res, 201, { data: shape(await createDocument(deps, model, { data, query, access, author })), meta: {} });
      return;
    }
    const entry = await updateDocument(deps, model, documentId, { data, query, access, author });
    if (!entry) throw notFoundError();
    sendJson(res, 200, { data: shape(entry), meta: {} });
  };
}
