import { invalidKey, validationError } from '../errors/app-error.js';
import type { Registry } from '../schema/registry.js';
import type { ContentTypeModel } from '../schema/types.js';
import type { DocumentQuery, FilterNode, Pagination, PopulateMap, SortTerm } from './ast.js';
import { parseFields } from './fields.js';
import { parseFilters } from './filters.js';
import { checkWindow, pageWindow, toPagination, withCount, type PaginationLimits } from './pagination.js';
import { ALLOWED_QUERY_KEYS, parseLocale, parsePublicationFilter, parseStatus } from './params.js';
import { parsePopulate } from './populate.js';
import { parseSort } from './sort.js';
import { unwrap, type CanRead, type Parsed } from './check.js';
import { numberOf, textOf } from './coerce.js';

/** What turning a query string into a DocumentQuery needs. */
export interface QueryEnv {
  readonly registry: Registry;
  readonly limits: PaginationLimits;
  readonly canRead: CanRead;
}

type Raw = Record<string, unknown>;
const isEmpty = (v: unknown) => v === undefined || v === null || v === '';

/** What validating a query parsed already (hand it to buildQuery): each tree, or the error its conversion met. */
export interface ParsedParts {
  readonly filters: Parsed<FilterNode | null>;
  readonly sort: Parsed<SortTerm[]>;
  readonly fields: Parsed<string[] | null>;
  readonly populate: Parsed<PopulateMap>;
}

/**
 * Strapi's controller-level query validation (`validateQuery`): unknown root keys first
 * (`strictParams`), then filters, sort, fields, populate, then publicationFilter. Each is
 * converted in the walk that validates it; a conversion error waits in the result for
 * buildQuery, which throws it where Strapi converts (after the strict parameter checks).
 */
export function validateQuery(raw: Raw, model: ContentTypeModel, env: QueryEnv): ParsedParts {
  for (const key of Object.keys(raw)) {
    if (!ALLOWED_QUERY_KEYS.has(key)) throw invalidKey({ key, path: null, source: 'query', param: key });
  }
  const scope = { model, registry: env.registry, canRead: env.canRead };
  const filters = parseFilters(raw.filters, scope);
  const sort = parseSort(raw.sort, scope);
  const fields = parseFields(raw.fields, model);
  const populate = parsePopulate(raw.populate, scope);
  parsePublicationFilter(raw.publicationFilter, raw.hasPublishedVersion);
  return { filters, sort, fields, populate };
}

/** Root `page`/`pageSize`/`start`/`limit` as the document service's strict check sees them. */
function checkRootPagination(raw: Raw, listWindow: boolean): void {
  const hasPage = !isEmpty(raw.page) || !isEmpty(raw.pageSize);
  const hasOffset = listWindow || !isEmpty(raw.start) || !isEmpty(raw.limit);
  if (hasPage && hasOffset) {
    throw validationError(
      'Invalid pagination parameters. Cannot use both page-based (page, pageSize) and offset-based (start, limit) pagination in the same query.',
    );
  }
  const check = (name: string, value: unknown, min: number, minusOne: boolean) => {
    if (isEmpty(value)) return;
    const n = numberOf(value);
    if (!(Number.isInteger(n) && (n >= min || (minusOne && n === -1)))) {
      throw validationError(`Invalid parameter at '${name}'. Expected ${minusOne ? `integer >= ${min} or -1` : `integer >= ${min}`}, received: ${textOf(value)}`);
    }
  };
  check('page', raw.page, 1, false);
  check('pageSize', raw.pageSize, 1, false);
  if (!listWindow) {
    check('start', raw.start, 0, false);
    check('limit', raw.limit, 1, true);
  }
}

/** Strapi's strict parameter checks of the document service: status, locale, pagination. */
export function checkParams(raw: Raw, listWindow: boolean): { status: 'draft' | 'published'; locale: ReturnType<typeof parseLocale> } {
  const status = parseStatus(raw.status);
  const locale = parseLocale(raw.locale);
  checkRootPagination(raw, listWindow);
  return { status, locale };
}

/** Whether the root of the filters has a `locale` key (with any operators; `$and`/`$or` members do not count, as in Strapi). */
const namesLocale = (filters: unknown): boolean =>
  typeof filters === 'object' && filters !== null && !Array.isArray(filters) && (filters as Raw).locale !== undefined;

/** The rest of a validated query: the conversions of sort, filters, fields, populate (`parts` from validateQuery). */
export function buildQuery(
  raw: Raw,
  model: ContentTypeModel,
  env: QueryEnv,
  params: ReturnType<typeof checkParams>,
  parts: ParsedParts,
): DocumentQuery {
  const sort = unwrap(parts.sort);
  const filters = unwrap(parts.filters);
  const fields = unwrap(parts.fields);
  const populate = unwrap(parts.populate);
  return {
    fields,
    filters,
    sort,
    populate,
    status: params.status,
    locale: params.locale,
    localeFromFilters: model.localized && namesLocale(raw.filters),
    publicationFilter: parsePublicationFilter(raw.publicationFilter, raw.hasPublishedVersion),
    search: typeof raw._q === 'string' ? raw._q : null,
  };
}

/** A list read: validation, window, strict checks, conversions, in Strapi's order. */
export function readListQuery(raw: Raw, model: ContentTypeModel, env: QueryEnv): { query: DocumentQuery; pagination: Pagination } {
  const parts = validateQuery(raw, model, env);
  const window = pageWindow(raw.pagination, env.limits);
  const params = checkParams(raw, true);
  checkWindow(window);
  const query = buildQuery(raw, model, env, params, parts);
  return { query, pagination: toPagination(window, withCount(raw.pagination)) };
}

/** A single-document read (findOne, single types). */
export function readOneQuery(raw: Raw, model: ContentTypeModel, env: QueryEnv): DocumentQuery {
  const parts = validateQuery(raw, model, env);
  const params = checkParams(raw, false);
  return buildQuery(raw, model, env, params, parts);
}
