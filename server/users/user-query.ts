import { validationError } from '../errors/app-error.js';
import type { DocumentQuery, FilterNode, Pagination } from '../query/ast.js';
import { parseFields } from '../query/fields.js';
import { parseFilters } from '../query/filters.js';
import { boundedPagination, pageWindow, toPagination, type PaginationLimits } from '../query/pagination.js';
import { parsePopulate } from '../query/populate.js';
import { parseSort } from '../query/sort.js';
import { unwrap, type CanRead } from '../query/check.js';
import type { Registry } from '../schema/registry.js';
import { userModel } from './models.js';

/**
 * Query strings of `/api/users*`, read as the users-permissions controllers do: the content API's
 * `validateQuery` (filters, sort, fields, populate; unknown root keys are ignored), then the
 * query-params transform. Without pagination Strapi's `fetchAll` returns every user.
 */

type Raw = Record<string, unknown>;
const isEmpty = (v: unknown) => v === undefined || v === null || v === '';

/** Validates and converts the response-shaping part of a users query. */
export function readUserQuery(raw: Raw, registry: Registry, canRead: CanRead): DocumentQuery {
  const model = userModel(registry);
  const filters = parseFilters(raw.filters, { model, registry, canRead });
  const sort = parseSort(raw.sort, { model, registry, canRead });
  const fields = parseFields(raw.fields, model);
  const populate = parsePopulate(raw.populate, { model, registry, canRead });
  return {
    fields: unwrap(fields),
    filters: unwrap(filters),
    sort: unwrap(sort),
    populate: unwrap(populate),
    status: 'published',
    locale: null,
    publicationFilter: null,
    search: null,
  };
}

function rootNumber(name: string, value: unknown, min: number): number | null {
  if (isEmpty(value)) return null;
  const n = Number(value);
  if (!Number.isInteger(n) || (n < min && !(name === 'limit' && n === -1))) {
    throw validationError(`convert${name === 'start' ? 'Start' : 'Limit'}QueryParams expected a positive integer got ${String(value)}`);
  }
  return n;
}

/** The window of `GET /api/users`: `pagination[...]` as the REST API reads it, else root start/limit, else every user. */
export function userWindow(raw: Raw, limits: PaginationLimits): Pagination {
  if (!isEmpty(raw.pagination)) return toPagination(pageWindow(raw.pagination, limits), false);
  const start = rootNumber('start', raw.start, 0) ?? 0;
  const limit = rootNumber('limit', raw.limit, 0);
  return boundedPagination({ mode: 'offset', start, limit: limit === null || limit === -1 ? null : limit, withCount: false });
}

/** A query narrowed to one user by numeric id. */
export function byUserId(query: DocumentQuery, id: number): DocumentQuery {
  const condition: FilterNode = { kind: 'compare', field: { name: 'id', type: 'integer' }, operator: '$eq', value: id };
  return { ...query, filters: query.filters ? { kind: 'and', children: [condition, query.filters] } : condition };
}

/** Strapi's default for auth answers: the user with no relation populated. */
export const PLAIN_USER_QUERY: DocumentQuery = {
  fields: null,
  filters: null,
  sort: [],
  populate: new Map(),
  status: 'published',
  locale: null,
  publicationFilter: null,
  search: null,
};
