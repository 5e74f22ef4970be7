import { invalidKey, paginationError, validationError } from '../errors/app-error.js';
import type { FilterNode, Pagination, SortTerm } from '../query/ast.js';
import { parseFields } from '../query/fields.js';
import { parseFilters } from '../query/filters.js';
import { boundedPagination, pageWindow, toPagination, withCount, type PaginationLimits } from '../query/pagination.js';
import { parseSort } from '../query/sort.js';
import { unwrap, type CanRead } from '../query/check.js';
import { defaultFields } from '../documents/index.js';
import type { Registry } from '../schema/registry.js';
import { FILE_MODEL, fileModel } from '../schema/file-model.js';
import { textOf } from '../query/coerce.js';
import { isRecord } from '../errors/is-record.js';

/**
 * Query strings of the file endpoints, read as Strapi's upload controller does: its
 * `validateQuery` (no strictParams: unknown keys such as `foo=bar` are ignored), then
 * `transformParamsToQuery`. The file model has one populatable attribute, the morph relation
 * `related` (the entries a file is linked to), which the document machinery does not model.
 */

type Raw = Record<string, unknown>;

/** A read of files: which rows, in which order, with which fields, and whether `related` is populated. */
export interface FileQuery {
  readonly filters: FilterNode | null;
  readonly sort: readonly SortTerm[];
  /** Fields to print (id and documentId first). */
  readonly fields: readonly string[];
  /** null: not populated; otherwise entries, or only their count (`populate[related][count]=true`). */
  readonly related: null | 'entries' | 'count';
}

const isNil = (v: unknown): v is null | undefined => v === null || v === undefined;
const isEmpty = (v: unknown) => isNil(v) || v === '';
const TRUE = new Set(['true', 't', '1']);
const FALSE = new Set(['false', 'f', '0']);

function relatedFromObject(sub: unknown): FileQuery['related'] {
  if (typeof sub === 'boolean') return sub ? 'entries' : null;
  if (typeof sub === 'string' && (TRUE.has(sub) || FALSE.has(sub))) return TRUE.has(sub) ? 'entries' : null;
  if (!isRecord(sub) || Object.keys(sub).some((k) => !['populate', 'on', 'count'].includes(k))) {
    throw validationError(
      `Invalid nested populate for file.related (${FILE_MODEL.uid}). Expected a fragment ("on") or "count" but found ${JSON.stringify(sub)}`,
    );
  }
  if (!isNil(sub.populate) && sub.populate !== '*') {
    throw validationError(
      "Invalid nested population query detected. When using 'populate' within polymorphic structures, its value must be '*' to indicate all second level links. Specific field targeting is not supported here. Consider using the fragment API for more granular population control.",
    );
  }
  if (!isNil(sub.on)) throw validationError('Populate fragments ("on") on file.related are not supported', { source: 'query', param: 'populate' });
  return sub.count === true || (typeof sub.count === 'string' && TRUE.has(sub.count)) ? 'count' : 'entries';
}

/** `populate` on files: `*`, `related` (string or list), or `{ related: ... }`; anything else is an invalid key. */
function readPopulate(raw: unknown): FileQuery['related'] {
  if (isEmpty(raw)) return null;
  if (raw === '*') return 'entries';
  if (typeof raw === 'string' || (Array.isArray(raw) && raw.every((v) => typeof v === 'string'))) {
    const paths = (Array.isArray(raw) ? raw : [raw]).flatMap((p: string) => p.split(',').map((s) => s.trim())).filter(Boolean);
    for (const path of paths) {
      const [head = '', next] = path.split('.').map((s) => s.trim());
      if (head !== 'related') throw invalidKey({ key: head, path: head, source: 'query', param: 'populate' });
      if (next !== undefined) throw invalidKey({ key: next, path, source: 'query', param: 'populate' });
    }
    return paths.length > 0 ? 'entries' : null;
  }
  if (!isRecord(raw)) throw validationError('Invalid populate parameter. Expected a string, an array of strings, a populate object');
  let related: FileQuery['related'] = null;
  for (const [key, sub] of Object.entries(raw)) {
    if (key !== 'related') throw invalidKey({ key, path: null, source: 'query', param: 'populate' });
    if (!isNil(sub)) related = relatedFromObject(sub);
  }
  return related;
}

/** Validates and converts filters, sort, fields and populate, in Strapi's order, against the project's file model. */
export function readFileQuery(raw: Raw, registry: Registry, canRead: CanRead): FileQuery {
  const model = fileModel(registry);
  const filters = parseFilters(raw.filters, { model, registry, canRead });
  const sort = parseSort(raw.sort, { model, registry, canRead });
  const fields = parseFields(raw.fields, model);
  const related = readPopulate(raw.populate);
  return {
    filters: unwrap(filters),
    sort: unwrap(sort),
    fields: unwrap(fields) ?? defaultFields(model),
    related,
  };
}

const toNumber = (v: unknown): number => (typeof v === 'number' ? v : typeof v === 'string' ? Number(v.trim() === '' ? 0 : v) : Number.NaN);

/** transformParamsToQuery's root pagination checks: page/pageSize are checked (then unused by the query), start/limit applied. */
function rootPagination(raw: Raw, forced?: { start: number; limit: number }): { start: number; limit: number | null } {
  const start = forced ? forced.start : raw.start;
  const limit = forced ? forced.limit : raw.limit;
  if ((!isNil(raw.page) || !isNil(raw.pageSize)) && (!isNil(start) || !isNil(limit))) {
    throw paginationError('Invalid pagination attributes. The page parameters are incorrect and must be in the pagination object');
  }
  for (const [name, value] of [['page', raw.page], ['pageSize', raw.pageSize]] as const) {
    const n = toNumber(value);
    if (!isNil(value) && !(Number.isInteger(n) && n > 0)) {
      throw paginationError(`Invalid '${name}' parameter. Expected an integer > 0, received: ${textOf(value)}`);
    }
  }
  const startValue = isNil(start) ? 0 : toNumber(start);
  if (!Number.isInteger(startValue) || startValue < 0) throw validationError(`convertStartQueryParams expected a positive integer got ${startValue}`);
  if (isNil(limit)) return { start: startValue, limit: null };
  const limitValue = toNumber(limit);
  if (!Number.isInteger(limitValue) || (limitValue !== -1 && limitValue < 0)) {
    throw validationError(`convertLimitQueryParams expected a positive integer got ${limitValue}`);
  }
  return { start: startValue, limit: limitValue === -1 ? null : limitValue };
}

/** `GET /api/upload/files`: every file, `pagination[...]` ignored, root `start`/`limit` honoured. */
export function listWindow(raw: Raw): Pagination {
  const { start, limit } = rootPagination(raw);
  return boundedPagination({ mode: 'offset', start, limit, withCount: false });
}

/**
 * `GET /api/upload/files/page` (findAndCountPage): `pagination[...]` in page or offset mode with
 * the REST defaults and cap; the resolved window overrides root `start`/`limit`.
 */
export function pageWindowOf(raw: Raw, limits: PaginationLimits): Pagination {
  const window = pageWindow(raw.pagination, limits);
  const { start, limit } = rootPagination(raw, { start: window.start, limit: window.limit });
  return toPagination({ start, limit: limit ?? -1, paged: window.paged }, withCount(raw.pagination));
}
