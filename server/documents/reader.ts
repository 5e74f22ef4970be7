import type { Db, Row } from '../db/database.js';
import type { DocumentQuery, FilterNode, LocaleSelection, Pagination } from '../query/ast.js';
import { paginationMeta } from '../query/pagination.js';
import type { ContentTypeModel } from '../schema/types.js';
import { compileContext, type Access, type DocumentDeps } from './context.js';
import { populateItems, type Item } from './populate.js';
import { countRows, listRows } from '../compiler/list.js';
import type { ReadScope } from '../compiler/scope.js';
import { defaultFields, serializeRow } from './serialize.js';
import { MAX_POPULATED_ROWS, SLOW_LIST_MS } from '../limits.js';
import { fansOut } from '../compiler/populate-bound.js';
import { populateBudget } from './populate-budget.js';

/** The locale a read or write of a localized type uses when none is given: the default locale. */
export async function effectiveLocale(deps: DocumentDeps, model: ContentTypeModel, locale: LocaleSelection | null): Promise<LocaleSelection | null> {
  if (!model.localized) return null;
  return locale ?? { kind: 'one', code: await deps.locales.defaultCode() };
}

export const byDocument = (documentId: string, filters: FilterNode | null): FilterNode => {
  const condition: FilterNode = { kind: 'compare', field: { name: 'documentId', type: 'string' }, operator: '$eq', value: documentId };
  return filters ? { kind: 'and', children: [condition, filters] } : condition;
};

/** Serialises rows and populates them: the response entries of a read. */
export async function present(deps: DocumentDeps, db: Db, model: ContentTypeModel, rows: Row[], query: DocumentQuery, access: Access): Promise<Record<string, unknown>[]> {
  const fields = query.fields ?? defaultFields(model);
  const items: Item[] = rows.map((row) => ({ row, out: serializeRow(model, row, fields) }));
  // A populate with a list below a relation, media or localizations level is counted (MAX_POPULATED_ROWS); others print what is stored.
  const budget = fansOut(deps.registry, model, query.populate) ? populateBudget(MAX_POPULATED_ROWS) : undefined;
  await populateItems({ db, ctx: compileContext(deps), status: query.status, canRead: access.canRead, presentFiles: (f) => deps.files.present(f), budget }, model, items, query.populate);
  return items.map((i) => i.out);
}

export async function scopeOf(deps: DocumentDeps, model: ContentTypeModel, query: DocumentQuery, filters: FilterNode | null): Promise<ReadScope> {
  return {
    status: query.status,
    locale: query.localeFromFilters ? null : await effectiveLocale(deps, model, query.locale),
    publicationFilter: query.publicationFilter,
    search: query.search,
    filters,
  };
}

/** `GET /api/:plural`: one page of documents and its pagination meta. */
export async function findMany(deps: DocumentDeps, model: ContentTypeModel, query: DocumentQuery, pagination: Pagination, access: Access) {
  const db = deps.database.db;
  const scope = await scopeOf(deps, model, query, query.filters);
  const fields = query.fields ?? defaultFields(model);
  const started = performance.now();
  const rows = await listRows(db, compileContext(deps), model, { scope, fields, sort: query.sort, pagination });
  const total = pagination.withCount ? await countRows(db, compileContext(deps), model, scope) : undefined;
  const ms = performance.now() - started;
  if (ms >= SLOW_LIST_MS) deps.slowList?.(model, query, ms);
  const data = await present(deps, db, model, rows, query, access);
  return { data, meta: { pagination: paginationMeta(pagination, total) } };
}

/** `GET /api/:plural/:documentId` (and single types with `documentId` null): the matching version or null. */
export async function findOne(deps: DocumentDeps, model: ContentTypeModel, documentId: string | null, query: DocumentQuery, access: Access) {
  const db = deps.database.db;
  if (query.locale?.kind === 'all' || query.locale?.kind === 'list') return null;
  const filters = documentId === null ? query.filters : byDocument(documentId, query.filters);
  const scope = await scopeOf(deps, model, query, filters);
  const fields = query.fields ?? defaultFields(model);
  const rows = await listRows(db, compileContext(deps), model, { scope, fields, sort: query.sort, pagination: { mode: 'offset', start: 0, limit: 1, withCount: false } });
  if (rows.length === 0) return null;
  const [entry] = await present(deps, db, model, rows, query, access);
  return entry ?? null;
}
