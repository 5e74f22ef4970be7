import { jsonPage } from '../compiler/json-page.js';
import { rowJsonExpr } from '../compiler/json-select.js';
import type { ListArgs } from '../compiler/list.js';
import { countRows } from '../compiler/list.js';
import type { DocumentQuery, Pagination } from '../query/ast.js';
import { paginationMeta } from '../query/pagination.js';
import type { ContentTypeModel } from '../schema/types.js';
import { SLOW_LIST_MS } from '../limits.js';
import { compileContext, type Access, type DocumentDeps } from './context.js';
import { byDocument, scopeOf } from './reader.js';
import { defaultFields } from './serialize.js';

/**
 * Reads answered as JSON text that SQLite builds (compiler/json-select.ts): the same bytes as
 * JSON.stringify of the JS path's answer, without building the objects. undefined: this read's
 * shape is not printed this way (PostgreSQL, morphs, localizations, populate filters ...); the
 * caller takes the JS path.
 */

/** The SQL expression of one root row's JSON for a query, or null when not supported. */
function rowExpr(deps: DocumentDeps, model: ContentTypeModel, query: DocumentQuery, access: Access): string | null {
  if (deps.database.kind !== 'sqlite') return null;
  const env = { registry: deps.registry, status: query.status, canRead: access.canRead, filesAsStored: deps.files.asStored === true, defaultFields };
  return rowJsonExpr(env, model, query.fields ?? defaultFields(model), query.populate);
}

/** The rows of a page as JSON texts, or null when not read this way (an error in SQLite is left to the JS path). */
async function pageTexts(deps: DocumentDeps, model: ContentTypeModel, args: ListArgs, expr: string, strict: boolean): Promise<string[] | null> {
  try {
    return await jsonPage(deps.database.db, compileContext(deps), model, args, expr);
  } catch (err) {
    if (strict) throw err;
    return null;
  }
}

/** `GET /api/:plural` as the answer's JSON text (`{"data":[...],"meta":{...}}`), or undefined. */
export async function findManyText(deps: DocumentDeps, model: ContentTypeModel, query: DocumentQuery, pagination: Pagination, access: Access, strict: boolean): Promise<string | undefined> {
  const expr = rowExpr(deps, model, query, access);
  if (expr === null) return undefined;
  const scope = await scopeOf(deps, model, query, query.filters);
  const fields = query.fields ?? defaultFields(model);
  const started = performance.now();
  const texts = await pageTexts(deps, model, { scope, fields, sort: query.sort, pagination }, expr, strict);
  if (texts === null) return undefined;
  const total = pagination.withCount ? await countRows(deps.database.db, compileContext(deps), model, scope) : undefined;
  const ms = performance.now() - started;
  if (ms >= SLOW_LIST_MS) deps.slowList?.(model, query, ms);
  return `{"data":[${texts.join(',')}],"meta":${JSON.stringify({ pagination: paginationMeta(pagination, total) })}}`;
}

/** `GET /api/:plural/:documentId` (single types: `documentId` null) as its JSON text; null when there is no such document, undefined when not read this way. */
export async function findOneText(deps: DocumentDeps, model: ContentTypeModel, documentId: string | null, query: DocumentQuery, access: Access, strict: boolean): Promise<string | null | undefined> {
  if (query.locale?.kind === 'all' || query.locale?.kind === 'list') return null;
  const expr = rowExpr(deps, model, query, access);
  if (expr === null) return undefined;
  const filters = documentId === null ? query.filters : byDocument(documentId, query.filters);
  const scope = await scopeOf(deps, model, query, filters);
  const fields = query.fields ?? defaultFields(model);
  const texts = await pageTexts(deps, model, { scope, fields, sort: query.sort, pagination: { mode: 'offset', start: 0, limit: 1, withCount: false } }, expr, strict);
  if (texts === null) return undefined;
  const [entry] = texts;
  return entry === undefined ? null : `{"data":${entry},"meta":{}}`;
}
