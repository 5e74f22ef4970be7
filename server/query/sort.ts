import { validationError } from '../errors/app-error.js';
import type { Direction, SortTerm } from './ast.js';
import { isRecord } from '../errors/is-record.js';


function direction(order: string): Direction {
  const lower = order.trim().toLowerCase();
  if (lower !== 'asc' && lower !== 'desc') throw validationError('Invalid order. order can only be one of asc|desc|ASC|DESC');
  return lower;
}

const emptySegment = (field: string) =>
  validationError(`Invalid key in sort: "${field}" has an empty path segment`, { key: field, path: field, source: 'query', param: 'sort' });

function fromString(text: string): SortTerm[] {
  return text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '')
    .map((segment) => {
      const [rawField = '', order = 'asc'] = segment.split(':');
      const field = rawField.trim();
      if (field === '') throw validationError('Field cannot be empty');
      const path = field.split('.');
      // `.title`, `title.` or `a..b` name no attribute; the validator skips empty segments, so refuse them here.
      if (path.includes('')) throw emptySegment(field);
      return { path, direction: direction(order) };
    });
}

function fromObject(value: Record<string, unknown>, prefix: string[]): SortTerm[] {
  const terms: SortTerm[] = [];
  for (const [key, order] of Object.entries(value)) {
    if (key === '') throw emptySegment([...prefix, key].join('.'));
    if (isRecord(order)) terms.push(...fromObject(order, [...prefix, key]));
    else if (typeof order === 'string') {
      if (order.trim() !== '') terms.push({ path: [...prefix, key], direction: direction(order) });
    } else {
      throw validationError(`Invalid sort type expected object or string got ${typeof order}`);
    }
  }
  return terms;
}

/** `sort` in all four of Strapi's forms: `a:desc,b`, `[a:asc, b]`, `{a: 'desc'}`, `[{a: 'desc'}]`. */
export function convertSort(raw: unknown): SortTerm[] {
  if (raw === undefined || raw === null || raw === '') return [];
  if (typeof raw === 'string') return fromString(raw);
  if (Array.isArray(raw)) {
    if (raw.every((v) => typeof v === 'string')) return raw.flatMap((v: string) => fromString(v));
    return raw.flatMap((v) => {
      if (!isRecord(v)) throw validationError('Invalid sort parameter. Expected a string, an array of strings, a sort object or an array of sort objects');
      return fromObject(v, []);
    });
  }
  if (isRecord(raw)) return fromObject(raw, []);
  throw validationError('Invalid sort parameter. Expected a string, an array of strings, a sort object or an array of sort objects');
}
