import { validationError } from '../errors/app-error.js';
import { lookupField } from '../schema/fields.js';
import type { Registry } from '../schema/registry.js';
import type { Model } from '../schema/types.js';
import type { Direction, SortTerm } from './ast.js';
import { childPath, createFindings, isRecord, ROOT, targetModel, type CanRead, type Parsed, type Path, type Visit } from './check.js';
import { sortPasses, walkSort } from './check-sort.js';

/**
 * `sort` parsed in one walk: each key is checked by Strapi's validator passes (check-sort.ts) in
 * the order Strapi's traversal meets it, as the walk converts it into sort terms. Where Strapi's
 * traversal reads a key differently from the converter (a string's dotted path, an order under a
 * relation), the walk checks that part as the traversal does, then converts it.
 */

const INVALID_SORT = 'Invalid sort parameter. Expected a string, an array of strings, a sort object or an array of sort objects';

function direction(order: string): Direction {
  const lower = order.trim().toLowerCase();
  if (lower !== 'asc' && lower !== 'desc') throw validationError('Invalid order. order can only be one of asc|desc|ASC|DESC');
  return lower;
}

const emptySegment = (field: string) =>
  validationError(`Invalid key in sort: "${field}" has an empty path segment`, { key: field, path: field, source: 'query', param: 'sort' });

/** Where the walk reports the keys it checks (null when converting only). */
interface SortWalk {
  readonly registry: Registry;
  readonly visit: (v: Visit) => void;
}

/** One part of a sort string (`a.b:desc`), already trimmed and not empty. */
function sortTerm(segment: string): SortTerm {
  const [rawField = '', order = 'asc'] = segment.split(':');
  const field = rawField.trim();
  if (field === '') throw validationError('Field cannot be empty');
  const path = field.split('.');
  // `.title`, `title.` or `a..b` name no attribute; the validator skips empty segments, so refuse them here.
  if (path.includes('')) throw emptySegment(field);
  return { path, direction: direction(order) };
}

/** `a:desc,b`: each comma part checked (as Strapi tokenizes it) and converted. */
function fromString(text: string, model: Model | null, path: Path, w: SortWalk | null): SortTerm[] {
  const terms: SortTerm[] = [];
  for (const rawPart of text.split(',')) {
    const part = rawPart.trim();
    if (model && w) walkSort(part, model, path, w.registry, w.visit);
    if (part !== '') terms.push(sortTerm(part));
  }
  return terms;
}

/** `{ a: 'desc', b: { c: 'asc' } }`; `model` is null below a key Strapi's traversal does not enter. */
function fromObject(value: Record<string, unknown>, prefix: string[], model: Model | null, path: Path, w: SortWalk | null): SortTerm[] {
  const terms: SortTerm[] = [];
  for (const [key, order] of Object.entries(value)) {
    let target: Model | undefined;
    let next = path;
    if (model && w) {
      const field = lookupField(model, key);
      next = childPath(path, key, field);
      w.visit({ key, field, path: next, value: order, model });
      target = targetModel(field, w.registry);
    }
    if (key === '') throw emptySegment([...prefix, key].join('.'));
    if (isRecord(order)) {
      terms.push(...fromObject(order, [...prefix, key], target ?? null, next, w));
      continue;
    }
    if (target && w) walkSort(order, target, next, w.registry, w.visit);
    if (typeof order !== 'string') throw validationError(`Invalid sort type expected object or string got ${typeof order}`);
    if (order.trim() !== '') terms.push({ path: [...prefix, key], direction: direction(order) });
  }
  return terms;
}

/** `sort` in all four of Strapi's forms: `a:desc,b`, `[a:asc, b]`, `{a: 'desc'}`, `[{a: 'desc'}]`. */
function fromValue(raw: unknown, model: Model | null, w: SortWalk | null): SortTerm[] {
  if (raw === undefined || raw === null || raw === '') return [];
  if (typeof raw === 'string') return fromString(raw, model, ROOT, w);
  if (Array.isArray(raw)) {
    const strings = raw.every((v) => typeof v === 'string');
    return raw.flatMap((item: unknown) => {
      if (typeof item === 'string' && strings) return fromString(item, model, ROOT, w);
      if (!isRecord(item)) throw validationError(INVALID_SORT);
      return fromObject(item, [], model, ROOT, w);
    });
  }
  if (isRecord(raw)) return fromObject(raw, [], model, ROOT, w);
  throw validationError(INVALID_SORT);
}

/** What parsing a `sort` value needs: the model it sorts, the registry, and the caller's read check. */
export interface SortScope {
  readonly model: Model;
  readonly registry: Registry;
  readonly canRead?: CanRead;
}

/**
 * `sort` validated and converted in one walk: Strapi's `Invalid key` 400 is thrown at once; a
 * conversion error is returned, to be thrown once every parameter is validated. When conversion
 * stops early, the rest is walked checking only, so that Strapi's validator error still wins.
 */
export function parseSort(raw: unknown, scope: SortScope): Parsed<SortTerm[]> {
  const { model, registry } = scope;
  const checked = () => {
    const findings = createFindings(sortPasses(scope.canRead), 'sort');
    let seen = 0;
    return { findings, walk: { registry, visit: (v: Visit) => findings.visit(v, [seen++]) } };
  };
  const first = checked();
  let value: SortTerm[];
  try {
    value = fromValue(raw, model, first.walk);
  } catch (error) {
    const again = checked();
    walkSort(raw, model, ROOT, registry, again.walk.visit);
    again.findings.raise();
    return { ok: false, error };
  }
  first.findings.raise();
  return { ok: true, value };
}

/** `sort` converted without Strapi's validator passes (a populate's sort, which the populate's walk checked). */
export function convertSort(raw: unknown): SortTerm[] {
  return fromValue(raw, null, null);
}
