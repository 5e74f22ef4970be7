import { paginationError, validationError } from '../errors/app-error.js';
import type { Registry } from '../schema/registry.js';
import type { Model } from '../schema/types.js';
import type { FilterNode, PopulateMap, PopulateNode, SortTerm } from './ast.js';
import { isNil, isRecord, POPULATABLE, type Parsed, type Visit } from './check.js';
import { validateFields } from './check-sort.js';
import { numberOf, textOf } from './coerce.js';
import { convertFields, parseFields } from './fields.js';
import { convertFilters, parseFilters } from './filters.js';
import { checkDepth, fromPaths, linkedModel, plainNode, unknownKey } from './populate-paths.js';
import { convertSort, parseSort } from './sort.js';

/**
 * What the populate walk (populate-walk.ts) builds as it goes: the typed populate entries each
 * value reads into, in the order Strapi's converter reads them. A key that names nothing to
 * populate is left out: the walk's checks have named it already, or nothing checks it (a
 * single-type write), or, where Strapi's converter reads what no pass checked (`strict`), it is
 * the converter's `Invalid key`.
 */

const TRUE = new Set(['true', 't', '1']);
const FALSE = new Set(['false', 'f', '0']);
const INVALID_POPULATE = 'Invalid populate parameter. Expected a string, an array of strings, a populate object';

/** One populate being read: the registry, and the first conversion error met (thrown once every parameter is validated: Strapi converts after it validates). */
export interface Reading {
  readonly registry: Registry;
  failed?: { readonly error: unknown };
}

/** What the walk builds from the value it goes into next (null: that value is checked only). */
export type Build =
  /** The entries of a populate object, added to `into`; `depth` is the nesting depth of the populate value. */
  | { readonly kind: 'map'; readonly into: Map<string, PopulateNode>; readonly depth: number; readonly strict: boolean }
  /**
   * The options of one populated relation: its `populate` is read into `populate`. `checked` holds,
   * for the nested `sort`/`filters`/`fields` parsed here, the 400 owed to that key's visit (undefined: none).
   */
  | {
      readonly kind: 'node';
      readonly populate: Map<string, PopulateNode>;
      readonly depth: number;
      readonly checked: ReadonlyMap<string, unknown>;
      readonly strict: boolean;
    }
  /** A dynamic zone or morph-to relation: the fragments of its `on` key are read into `on`. */
  | { readonly kind: 'zone'; readonly on: Map<string, PopulateNode>; readonly depth: number; readonly strict: boolean }
  /** The fragments of an `on` key (by component or type uid). */
  | { readonly kind: 'fragments'; readonly on: Map<string, PopulateNode>; readonly depth: number; readonly strict: boolean }
  | null;

/**
 * Where a node is read: the entries it is added to, its nesting depth, whether the structure pass
 * checks its options, and whether a key Strapi's converter does not know is its 400 (`strict`:
 * where the converter reads what no validator pass checked, see populate-walk.ts readShadowed).
 */
export interface At {
  readonly into: Map<string, PopulateNode>;
  readonly depth: number;
  readonly checked: boolean;
  readonly strict: boolean;
}

/** Options of one populated relation Strapi's converter reads (with IGNORED_KEYS, what it knows there). */
const NODE_OPTIONS = new Set(['sort', 'filters', 'fields', 'populate', 'count', 'page', 'pageSize', 'start', 'limit']);

/** A key Strapi's converter does not know: its 400 kept where the reading is strict; null. */
export function unknown(reading: Reading, key: string, strict: boolean): null {
  const error = strict ? unknownKey(key) : null;
  return error ? failed(reading, error) : null;
}

/** Keeps `error` if it is the first conversion error of the reading. */
function failed(reading: Reading, error: unknown): null {
  reading.failed ??= { error };
  return null;
}

/** One conversion step: its value, or undefined with its error kept (if first). */
function step<T>(reading: Reading, run: () => T): T | undefined {
  try {
    return run();
  } catch (error) {
    failed(reading, error);
    return undefined;
  }
}

/** Every populatable attribute of a model, morph relations included, in schema order, one level (`populate=*`), added to `out`. */
export function populateAll(model: Model, out = new Map<string, PopulateNode>()): PopulateMap {
  // Schema order (morph relations live outside `attributes`), then what Hearth adds (`localizations`).
  const names = new Set([...(isRecord(model.raw.attributes) ? Object.keys(model.raw.attributes) : []), ...model.attributes.keys()]);
  for (const name of names) {
    const attr = model.attributes.get(name);
    if (attr ? POPULATABLE.has(attr.kind) && !attr.private : isPublicMorph(model, name)) out.set(name, plainNode(name));
  }
  return out;
}

/** A morph relation of the model that is not private. */
const isPublicMorph = (model: Model, name: string): boolean => {
  const morph = model.morphs?.get(name);
  return morph !== undefined && morph.raw.private !== true;
};

/** A populate value at `depth` (the root, or a relation's `populate`) read into `into`: a string form at once, an object entry by entry as the walk visits them. */
export function openMap(reading: Reading, raw: unknown, model: Model, depth: number, into: Map<string, PopulateNode>, strict: boolean): Build {
  if (reading.failed) return null;
  try {
    checkDepth(depth);
  } catch (error) {
    return failed(reading, error);
  }
  if (raw === undefined || raw === null || raw === '') return null;
  if (raw === '*') {
    populateAll(model, into);
    return null;
  }
  if (typeof raw === 'string' || (Array.isArray(raw) && raw.every((v) => typeof v === 'string'))) {
    const paths = step(reading, () => fromPaths(typeof raw === 'string' ? [raw] : (raw as string[]), model, reading.registry, depth, strict));
    for (const [name, node] of paths ?? []) into.set(name, node);
    return null;
  }
  if (!isRecord(raw)) return failed(reading, validationError(INVALID_POPULATE));
  return { kind: 'map', into, depth, strict };
}

/** One key of a populate object (`at.depth` is the object's): the node it adds, and what is built from its value. */
function readEntry(reading: Reading, v: Visit, at: At): Build {
  const { key, value: sub, model, field, morph } = v;
  if (reading.failed || isNil(sub)) return null;
  if (!morph && (!field || !POPULATABLE.has(field.kind))) return unknown(reading, key, at.strict);
  if (typeof sub === 'boolean' || (typeof sub === 'string' && (TRUE.has(sub) || FALSE.has(sub)))) {
    if (sub === true || (typeof sub === 'string' && TRUE.has(sub))) at.into.set(key, plainNode(key));
    return null;
  }
  const below = { ...at, depth: at.depth + 1 };
  // Dynamic zones and morph-to relations take `on` fragments per component or target type.
  if (field?.kind === 'dynamiczone' || (morph !== undefined && morph.target === undefined)) return readZone(reading, key, sub, model, below);
  if (isRecord(sub) && !isNil(sub.on)) return failed(reading, validationError(`Using fragments is not permitted to populate "${key}" in "${model.uid}"`));
  const target = morph?.target !== undefined ? reading.registry.model(morph.target) : field && linkedModel(field, model, reading.registry);
  return target ? readNode(reading, key, sub, target, below) : null;
}

function toInteger(value: unknown, name: string, min: number): number {
  const n = numberOf(value);
  if (!Number.isInteger(n) || n < min) {
    throw paginationError(`Invalid '${name}' parameter. Expected an integer > ${min - 1}, received: ${textOf(value)}`);
  }
  return n;
}

/** A populated relation's window over its entries (`page`/`pageSize` or `start`/`limit`). */
function windowOf(sub: Record<string, unknown>): { start: number | null; limit: number | null } {
  const { page, pageSize, start, limit } = sub;
  const usePage = !isNil(page) || !isNil(pageSize);
  const useOffset = !isNil(start) || !isNil(limit);
  if (usePage && useOffset) {
    throw paginationError('Invalid pagination attributes. The page parameters are incorrect and must be in the pagination object');
  }
  if (usePage) {
    const size = isNil(pageSize) ? 10 : toInteger(pageSize, 'pageSize', 1);
    const pageNumber = isNil(page) ? 1 : toInteger(page, 'page', 1);
    return { start: (pageNumber - 1) * size, limit: size };
  }
  if (!useOffset) return { start: null, limit: null };
  return { start: isNil(start) ? null : toInteger(start, 'start', 0), limit: isNil(limit) || numberOf(limit) === -1 ? null : toInteger(limit, 'limit', 0) };
}

/** Where a nested option is read: the model of its relation, and the registry. */
interface Scope {
  readonly model: Model;
  readonly registry: Registry;
}

/** How a nested option is read: parsed (validated and converted) where the structure pass checks it, else converted; `absent` when not given. */
interface Nested<T> {
  readonly key: 'fields' | 'filters' | 'sort';
  readonly parse: (raw: unknown, scope: Scope) => Parsed<T>;
  readonly convert: (raw: unknown, scope: Scope) => T;
  readonly absent: T;
}

const FIELDS: Nested<string[] | null> = {
  key: 'fields',
  parse: (raw, { model }) => parseNestedFields(raw, model),
  convert: (raw, { model }) => convertFields(raw, model),
  absent: null,
};
const FILTERS: Nested<FilterNode | null> = {
  key: 'filters',
  parse: (raw, scope) => parseFilters(raw, scope),
  convert: (raw, { model, registry }) => convertFilters(raw, model, registry),
  absent: null,
};
const SORT: Nested<readonly SortTerm[]> = { key: 'sort', parse: (raw, scope) => parseSort(raw, scope), convert: (raw) => convertSort(raw), absent: [] };

/**
 * A node's nested `sort`, `filters` or `fields`: parsed when the walk's structure pass checks its
 * key (the validator's 400 is kept in `owed` for that key's visit, the conversion error as the
 * reading's), else converted. Undefined when it fails.
 */
function option<T>(reading: Reading, sub: Record<string, unknown>, how: Nested<T>, scope: Scope, owed: Map<string, unknown> | null): T | undefined {
  const raw = sub[how.key];
  if (raw === undefined) return how.absent;
  if (owed === null) return step(reading, () => how.convert(raw, scope));
  let parsed: Parsed<T>;
  try {
    parsed = how.parse(raw, scope);
  } catch (invalid) {
    owed.set(how.key, invalid);
    return undefined;
  }
  owed.set(how.key, undefined);
  if (parsed.ok) return parsed.value;
  failed(reading, parsed.error);
  return undefined;
}

/** A node's options the structure pass does not check: no 400 is owed to their visits. */
const NONE_OWED: ReadonlyMap<string, unknown> = new Map();

/** A nested `fields` as the structure pass parses it: an empty one is validated (a root one is skipped, as Strapi skips empty parameters). */
export function parseNestedFields(raw: unknown, model: Model): Parsed<string[] | null> {
  if (raw === '') validateFields(raw, model);
  return parseFields(raw, model);
}

/** One populated relation or fragment (`{ fields, filters, sort, populate, count, start, limit }`), added to `at.into`. */
export function readNode(reading: Reading, attribute: string, sub: unknown, target: Model, at: At): Build {
  if (reading.failed) return null;
  if (typeof sub === 'string' || typeof sub === 'boolean') {
    if (typeof sub === 'string' ? TRUE.has(sub) || (!FALSE.has(sub) && sub !== '') : sub) at.into.set(attribute, plainNode(attribute));
    return null;
  }
  if (!isRecord(sub)) return failed(reading, validationError("Invalid nested populate. Expected '*' or an object"));
  const unread = at.strict ? Object.keys(sub).find((key) => !NODE_OPTIONS.has(key) && unknownKey(key) !== null) : undefined;
  if (unread !== undefined) return unknown(reading, unread, true);
  const window = step(reading, () => windowOf(sub));
  if (!window) return null;
  const owed = at.checked ? new Map<string, unknown>() : null;
  const scope = { model: target, registry: reading.registry };
  const fields = option(reading, sub, FIELDS, scope, owed);
  const filters = option(reading, sub, FILTERS, scope, owed);
  const sort = option(reading, sub, SORT, scope, owed);
  if (reading.failed || fields === undefined || filters === undefined || sort === undefined) return null;
  const populate = new Map<string, PopulateNode>();
  const count = sub.count !== undefined && TRUE.has(textOf(sub.count));
  at.into.set(attribute, { attribute, fields, filters, sort, populate, on: null, count, star: false, start: window.start, limit: window.limit });
  return { kind: 'node', populate, depth: at.depth, checked: owed ?? NONE_OWED, strict: at.strict };
}

/** A dynamic zone or morph-to relation (`{ on, populate: '*', count }`), added to `at.into`. */
function readZone(reading: Reading, attribute: string, sub: unknown, model: Model, at: At): Build {
  const keys = typeof sub === 'string' ? Object.keys(sub) : isRecord(sub) ? Object.keys(sub) : [];
  const singular = model.modelType === 'contentType' ? model.singularName : model.uid;
  if (keys.some((k) => !['populate', 'on', 'count'].includes(k)) || !isRecord(sub)) {
    return failed(
      reading,
      validationError(
        `Invalid nested populate for ${singular}.${attribute} (${model.uid}). Expected a fragment ("on") or "count" but found ${JSON.stringify(sub)}`,
      ),
    );
  }
  if (!isNil(sub.populate) && sub.populate !== '*') {
    return failed(
      reading,
      validationError(
        "Invalid nested population query detected. When using 'populate' within polymorphic structures, its value must be '*' to indicate all second level links. Specific field targeting is not supported here. Consider using the fragment API for more granular population control.",
      ),
    );
  }
  const on = isRecord(sub.on) ? new Map<string, PopulateNode>() : null;
  at.into.set(attribute, { ...plainNode(attribute), on, star: sub.populate === '*', count: sub.count === true || sub.count === 'true' });
  return on ? { kind: 'zone', on, depth: at.depth, strict: at.strict } : null;
}

/** What is built from the value of the key the walk visits (`v`), given what its level builds; `checked`: the structure pass goes below the key. */
export function readBelow(reading: Reading, build: Build, v: Visit, checked: boolean): Build {
  if (build === null) return null;
  switch (build.kind) {
    case 'map':
      return readEntry(reading, v, { into: build.into, depth: build.depth, checked, strict: build.strict });
    case 'node':
      return v.key === 'populate' && !isNil(v.value) ? openMap(reading, v.value, v.model, build.depth + 1, build.populate, build.strict) : null;
    case 'zone':
      return v.key === 'on' ? { kind: 'fragments', on: build.on, depth: build.depth, strict: build.strict } : null;
    default:
      return null;
  }
}
