import type { NextFunction, Request, Response } from 'express';
import { notFound as notFoundError } from '../errors/app-error.js';
import type { DocumentService } from '../documents/index.js';
import type { QueryEnv } from '../query/read-query.js';
import type { Registry } from '../schema/registry.js';
import type { Services } from '../services.js';
import { authenticate, authorize, type Caller } from './caller.js';
import { parseContentCall, type ContentCall, type ContentTarget } from './content-request.js';
import { parseQueryString, rawQuery } from './query-string.js';
import { methodNotAllowed, sendJson, sendJsonText } from './respond.js';
import { routeQuery } from '../project-code/route-query.js';
import type { WriteTally } from '../admin/registry-pins.js';
import { rerunRegistry } from '../admin/schema-race.js';
import { pinRequest } from './schema-race.js';

const COLLECTION_METHODS = ['HEAD', 'GET', 'POST'];
const DOCUMENT_METHODS = ['HEAD', 'GET', 'PUT', 'DELETE'];

/** The content type and documentId a path names, or null when it is not a content-API route. */
function contentTarget(registry: Registry, path: string): ContentTarget | null {
  const parts = path.split('/').filter((p) => p !== '');
  const model = parts[0] === undefined ? undefined : registry.routeModel(parts[0]);
  if (!model || model.builtIn || parts.length > 2 || (model.kind === 'singleType' && parts.length !== 1)) return null;
  return { model, documentId: model.kind === 'singleType' ? null : (parts[1] ?? null) };
}

function queryEnv(services: Services, registry: Registry, caller: Caller): QueryEnv {
  const { config } = services;
  return {
    registry,
    limits: { defaultLimit: config.defaultLimit, maxLimit: config.maxLimit },
    canRead: (uid) => caller.allows(`${uid}.find`),
  };
}

/** The registry each content-API request started with (see holdRegistry). */
const heldRegistries = new WeakMap<Request, Registry>();

/**
 * Each request keeps the registry it started with, even if the content-type builder swaps it
 * meanwhile. A content-API request holds it itself: taken here as the request arrives, then passed
 * down (its document calls run `within` it, and the document service binds it per call), so this
 * path runs without AsyncLocalStorage, whose promise hooks, once used, cost every request of the
 * process about 5% of its CPU. Every other request is pinned (SchemaController.pinUntil) until its
 * answer is sent; with none pinned, the storage is disabled again.
 */
export function holdRegistry(services: Services) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const registry = services.registry();
    if (req.path.startsWith('/api/') && contentTarget(registry, req.path.slice('/api'.length)) !== null) {
      heldRegistries.set(req, registry);
      next();
      return;
    }
    // Released when the answer is sent (an aborted request stays pinned: the storage stays enabled).
    pinRequest(services, { req, res, next });
  };
}

/**
 * The generated content API: `/api/:pluralApiId[/:documentId]` for collection types and
 * `/api/:singularApiId` for single types, with Strapi's statuses, bodies and check order
 * (route, then authentication and permission, then query, then body).
 */
export function contentApi(services: Services) {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    // Held since the request arrived (a request that was not held is pinned: then this is the pinned one).
    let registry = heldRegistries.get(req) ?? services.registry();
    for (let run = 1; ; run++) {
      const tally: WriteTally = { writes: 0 };
      try {
        await contentCall(services, { req, res, next, registry, tally });
        return;
      } catch (err) {
        // Team mode: the schemas changed (on another instance, or the builder) while this ran, and nothing was written: run again under the new ones.
        const newer = res.headersSent ? null : await rerunRegistry(services.schemas, { registry, tally, run }, err);
        if (newer === null) throw err;
        registry = newer;
      }
    }
  };
}

/** One content-API call under the registry it was planned with. */
async function contentCall(
  services: Services,
  ctx: { req: Request; res: Response; next: NextFunction; registry: Registry; tally: WriteTally },
): Promise<void> {
  const { req, res, next, registry, tally } = ctx;
  const target = contentTarget(registry, req.path);
  if (!target) {
    next();
    return;
  }
  const { model, documentId } = target;
  const listRoute = model.kind !== 'singleType' && documentId === null;
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
    method === 'GET' ? (listRoute || model.kind === 'singleType' ? 'find' : 'findOne') : method === 'POST' ? 'create' : method === 'PUT' ? 'update' : 'delete';
  const caller = await authenticate(req, services);
  authorize(caller, `${model.uid}.${action}`);
  const { documents, schemas } = services;
  const v4 = req.headers['strapi-response-format'] === 'v4';
  // Looked up before the query string is even parsed: a hit costs authentication and a map lookup.
  const cached = method === 'GET' ? await services.responses.read({ request: req, callerKey: caller.cacheKey, registry, v4, url: req.originalUrl }) : null;
  const hit = cached?.hit;
  if (hit !== undefined) {
    sendJsonText(res, 200, hit);
    return;
  }
  // What the route's defaults and the project's route middlewares make of the client's query.
  const raw = routeQuery({ code: services.projectCode, model, action, query: parseQueryString(rawQuery(req.originalUrl)) });
  const call = await parseContentCall({ req, method, target, raw, env: queryEnv(services, registry, caller) });
  // A read SQLite answers as JSON text is sent (and cached) as it is.
  const text = v4 ? undefined : await schemas.within(registry, () => readText(documents, call, { model, caller }));
  if (text !== undefined) {
    sendJsonText(res, 200, cached ? cached.store(found(text)) : found(text));
    return;
  }
  // A write is pinned to its registry: its transaction is refused if the schemas changed before it began (SchemaController.forWrite).
  const run = () => perform(documents, call, { model, caller });
  const answer = await (call.kind === 'findMany' || call.kind === 'findOne' ? schemas.within(registry, run) : schemas.forWrite(registry, run, tally));
  if (answer === null) {
    res.status(204).end();
    return;
  }
  const body = { data: v4 ? schemas.within(registry, () => documents.toV4({ model, data: answer.data })) : answer.data, meta: answer.meta };
  if (cached) sendJsonText(res, 200, cached.store(JSON.stringify(body)));
  else sendJson(res, call.kind === 'create' ? 201 : 200, body);
}

/**
 * A read's answer as JSON text built by the database (null: no such document), or undefined when it is not answered that way.
 * Called `within` the request's registry: the document call must come before any await (so do `perform`'s).
 */
async function readText(
  documents: DocumentService,
  call: ContentCall,
  ctx: { model: ContentTarget['model']; caller: Caller },
): Promise<string | null | undefined> {
  const { model, caller } = ctx;
  const access = { canRead: (uid: string) => caller.allows(`${uid}.find`) };
  switch (call.kind) {
    case 'findMany':
      return documents.findManyText({ model, query: call.query, pagination: call.pagination, access });
    case 'findOne':
      return documents.findOneText({ model, documentId: call.documentId, query: call.query, access });
    default:
      return undefined;
  }
}

/** Runs a parsed call on the document service: its data and meta, or null for a delete (204). */
async function perform(
  documents: DocumentService,
  call: ContentCall,
  ctx: { model: ContentTarget['model']; caller: Caller },
): Promise<{ data: unknown; meta: unknown } | null> {
  const { model, caller } = ctx;
  const access = { canRead: (uid: string) => caller.allows(`${uid}.find`) };
  // Writes made with an admin session record who made them (createdBy/updatedBy), as Strapi's admin does.
  const author = caller.kind === 'admin' ? caller.id : null;
  switch (call.kind) {
    case 'findMany':
      return documents.findMany({ model, query: call.query, pagination: call.pagination, access });
    case 'findOne':
      return { data: found(await documents.findOne({ model, documentId: call.documentId, query: call.query, access })), meta: {} };
    case 'create':
      return { data: await documents.create({ model, data: call.data, query: call.query, access, author }), meta: {} };
    case 'update':
      return { data: found(await documents.update({ model, documentId: call.documentId, data: call.data, query: call.query, access, author })), meta: {} };
    case 'remove':
      await documents.remove({ model, documentId: call.documentId, query: call.query, statusGiven: call.statusGiven });
      return null;
  }
}

/** A document, or Strapi's 404 when there is none. */
function found<T>(entry: T | null): T {
  if (entry === null) throw notFoundError();
  return entry;
}
