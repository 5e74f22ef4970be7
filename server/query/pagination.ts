import { paginationError, validationError } from '../errors/app-error.js';
import { MAX_PAGINATION_VALUE } from '../limits.js';
import type { Pagination } from './ast.js';
import { numberOf } from './coerce.js';

/**
 * Strapi computes pagination on the raw query-string values (strings), so its arithmetic coerces:
 * `page=0` is page 1, `pageSize=0` is 1, `limit=-1` (the string) is 1, a non-numeric page gives a
 * NaN offset that the strict check rejects. These helpers reproduce that arithmetic exactly.
 */
const isNil = (v: unknown): v is null | undefined => v === null || v === undefined;
const num = (v: unknown): number => (typeof v === 'number' ? v : typeof v === 'string' ? Number(v.trim() === '' ? 0 : v) : numberOf(v));
const max = (a: unknown, b: unknown): number => Math.max(num(a), num(b));

export interface PaginationLimits {
  readonly defaultLimit: number;
  /** null: no cap. */
  readonly maxLimit: number | null;
}

/** The page window of a list, before Strapi's strict integer check. */
export interface PageWindow {
  readonly start: number;
  readonly limit: number;
  readonly paged: boolean;
}

const has = (obj: Record<string, unknown>, key: string) => Object.prototype.hasOwnProperty.call(obj, key);
const asRecord = (v: unknown): Record<string, unknown> => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {});

/** `pagination[...]` -> start/limit, as Strapi's core service computes them. */
export function pageWindow(rawPagination: unknown, limits: PaginationLimits): PageWindow {
  const p = asRecord(rawPagination);
  const usePage = !isNil(p.page) || !isNil(p.pageSize);
  const useOffset = !isNil(p.start) || !isNil(p.limit);
  const maxLimit = limits.maxLimit ?? -1;
  const capped = (limit: number) => (maxLimit === -1 || limit < maxLimit ? limit : maxLimit);
  const paged = has(p, 'page') || has(p, 'pageSize') || !(has(p, 'start') || has(p, 'limit'));
  if (usePage && useOffset) throw paginationError('Cannot use both page & offset pagination in the same query');
  let start: unknown = 0;
  let limit: unknown = limits.defaultLimit;
  if (useOffset) {
    start = p.start ?? 0;
    limit = p.limit ?? limits.defaultLimit;
  } else if (usePage) {
    const page = p.page ?? 1;
    const pageSize = isNil(p.pageSize) ? limits.defaultLimit : max(1, p.pageSize);
    start = (num(page) - 1) * pageSize;
    limit = pageSize;
  }
  if (limit === -1) limit = maxLimit;
  const finalLimit = limit === -1 ? -1 : max(limit, 1);
  return { start: max(start, 0), limit: capped(finalLimit), paged };
}

/** Strapi's strict check of the computed window (`api.documents.strictParams`). */
export function checkWindow(window: PageWindow): void {
  if (!Number.isInteger(window.start) || window.start < 0) {
    throw validationError(`Invalid parameter at 'start'. Expected integer >= 0, received: ${window.start}`);
  }
  if (!Number.isInteger(window.limit) || (window.limit < 1 && window.limit !== -1)) {
    throw validationError(`Invalid parameter at 'limit'. Expected integer >= 1 or -1, received: ${window.limit}`);
  }
}

/** `pagination[withCount]`: counting is on unless it says otherwise. */
export function withCount(rawPagination: unknown): boolean {
  const p = asRecord(rawPagination);
  if (!has(p, 'withCount')) return true;
  const value = p.withCount;
  if (typeof value === 'boolean') return value;
  if (value === undefined) return false;
  if (value === 'true' || value === 't' || value === '1' || value === 1) return true;
  if (value === 'false' || value === 'f' || value === '0' || value === 0) return false;
  throw validationError('Invalid withCount parameter. Expected "t","1","true","false","0","f"');
}

function checkBound(name: 'start' | 'limit', value: number | null): void {
  if (value !== null && Math.abs(value) > MAX_PAGINATION_VALUE) {
    throw validationError(`Invalid parameter at '${name}'. Expected integer <= ${MAX_PAGINATION_VALUE}, received: ${value}`);
  }
}

/**
 * Every list's window passes here (the REST parsers' `toPagination`, and the root `start`/`limit`
 * of /api/upload/files and /api/users): a start or limit past MAX_PAGINATION_VALUE (a huge
 * `page`, `start=1e20`) is a 400 ValidationError rather than a value the database refuses.
 */
export function boundedPagination(pagination: Pagination): Pagination {
  checkBound('start', pagination.start);
  checkBound('limit', pagination.limit);
  return pagination;
}

/** The window as the query runs it. */
export function toPagination(window: PageWindow, count: boolean): Pagination {
  return boundedPagination({ mode: window.paged ? 'page' : 'offset', start: window.start, limit: window.limit === -1 ? null : window.limit, withCount: count });
}

/** `meta.pagination` for a page of results. */
export function paginationMeta(pagination: Pagination, total: number | undefined): Record<string, number> {
  const limit = pagination.limit;
  if (pagination.mode === 'page') {
    const pageSize = limit ?? total ?? 0;
    const page = pageSize > 0 ? Math.floor(pagination.start / pageSize) + 1 : 1;
    if (total === undefined) return { page, pageSize };
    return { page, pageSize, pageCount: pageSize > 0 ? Math.ceil(total / pageSize) : 0, total };
  }
  const base = { start: pagination.start, limit: limit ?? total ?? 0 };
  return total === undefined ? base : { ...base, total };
}
