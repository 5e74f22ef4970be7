import { invalidKey, paginationError, validationError } from '../errors/app-error.js';
import { MAX_POPULATE_DEPTH } from '../limits.js';
import { lookupField, targetUid } from '../schema/fields.js';
import type { Registry } from '../schema/registry.js';
import type { Model } from '../schema/types.js';
import type { PopulateMap, PopulateNode } from './ast.js';
import { convertFields } from './fields.js';
import { convertFilters } from './filters.js';
import { convertSort } from './sort.js';
import { numberOf, textOf } from './coerce.js';
import { attempt, POPULATABLE, unwrap, type CanRead, type Parsed } from './check.js';
import { parsedOption, validatePopulate, type NestedOptions } from './check-populate.js';
import { isRecord } from '../errors/is-record.js';

const TRUE = new Set(['true', 't', '1']);
const FALSE = new Set(['false', 'f', '0']);

/**
 * How a populate is converted: `strict` after the validator (a key it does not know is one the
 * validator refused already: meeting one is a bug, thrown as Strapi's `Invalid key`), or
 * `lenient` for what is not validated (single-type writes, as in Strapi): what does not apply is left out.
 */
type Mode = 'strict' | 'lenient';

/**
 * Keys Strapi's populate validator accepts where no attribute is named, and its converter then
 * ignores: `populate[true]` (boolean-like keys), `populate[count]`, `populate[on]` where fragments
 * do not apply, a nested `populate`, and `sort`/`filters`/`fields` at a level that names no
 * relation (the validator checks them against that level's model), and `''` (`populate[]=*`).
 */
const IGNORED_KEYS = new Set([...TRUE, ...FALSE, 'count', 'on', 'populate', 'sort', 'filters', 'fields', '']);

/** A key the converter does not know: left out when lenient, else the validator's `Invalid key` (unreachable after it). */
function unknownKey(key: string, mode: Mode): void {
  if (mode === 'lenient' || IGNORED_KEYS.has(key)) return;
  throw invalidKey({ key, path: null, source: 'query', param: 'populate' });
}

/** Options of one populated relation the converter reads (the others are unknown keys). */
const NODE_OPTIONS = new Set(['sort', 'filters', 'fields', 'populate', 'count', 'page', 'pageSize', 'start', 'limit']);

/** A populate entry with nothing but defaults (every scalar field, nothing nested). */
export const plainNode = (attribute: string): PopulateNode => ({
  attribute,
  fields: null,
  filters: null,
  sort: [],
  populate: new Map(),
  on: null,
  count: false,
  star: false,
  start: null,
  limit: null,
});

function checkDepth(depth: number): void {
  if (depth > MAX_POPULATE_DEPTH) {
    throw validationError(`Populate is nested too deeply: at most ${MAX_POPULATE_DEPTH} levels are accepted`, { source: 'query', param: 'populate' });
  }
}

/** The model a populatable attribute leads to (its own model for `localizations`). */
function targetOf(model: Model, name: string, registry: Registry): Model | undefined {
  const field = lookupField(model, name);
  if (!field) return undefined;
  if (field.kind === 'localizations') return model;
  const uid = targetUid(field);
  return uid === undefined ? undefined : registry.model(uid);
}

function merge(into: Map<string, PopulateNode>, node: PopulateNode): void {
  const existing = into.get(node.attribute);
  if (!existing) {
    into.set(node.attribute, node);
    return;
  }
  const populate = new Map(existing.populate);
  for (const child of node.populate.values()) merge(populate, child);
  let on = existing.on;
  if (node.on) {
    const fragments = new Map(existing.on ?? []);
    for (const fragment of node.on.values()) merge(fragments, fragment);
    on = fragments;
  }
  into.set(node.attribute, { ...existing, populate, on });
}

/** `populate=a,b.c` / `populate[0]=a.b`: dotted paths become nested populate entries. */
function fromPaths(paths: string[], model: Model, registry: Registry, depth: number, mode: Mode, afterComma: Mode = mode): PopulateMap {
  const out = new Map<string, PopulateNode>();
  const parts = paths.flatMap((p) => p.split(',').map((s, i) => [s.trim(), i === 0 ? mode : afterComma] as const)).filter(([s]) => s);
  for (const [path, m] of parts) {
    const [head, ...rest] = path.split('.').map((s) => s.trim());
    // An empty segment (`a..b`, `.a`) ends the path: the validator skips it, the converter stops there.
    if (!head) continue;
    const morph = model.morphs?.get(head);
    if (morph) {
      if (rest.length > 0) checkDepth(depth + 1);
      const target = morph.target === undefined ? undefined : registry.model(morph.target);
      const populate = rest.length > 0 && target ? fromPaths([rest.join('.')], target, registry, depth + 1, m) : new Map<string, PopulateNode>();
      merge(out, { ...plainNode(head), populate });
      continue;
    }
    const field = lookupField(model, head);
    if (!field || !POPULATABLE.has(field.kind)) {
      // `*` as a path below the root (`populate[a][populate][0]=*`, `a.*` there): the validator expands it, the converter leaves it out.
      if (head !== '*') unknownKey(head, m);
      continue;
    }
    let node = plainNode(head);
    if (rest.length > 0) {
      checkDepth(depth + 1);
      if (field.kind === 'dynamiczone' && field.attribute.kind === 'dynamiczone') {
        // `zone.attr` populates attr in the components that have it; the others come back plain (Strapi's morph populate).
        // The validator checks the path in the first component that has attr only: in the others it is read leniently.
        const on = new Map<string, PopulateNode>();
        let checked = false;
        for (const uid of field.attribute.components) {
          const component = registry.model(uid);
          if (!component) continue;
          const has = component.attributes.has(rest[0] ?? '');
          const populate = has ? fromPaths([rest.join('.')], component, registry, depth + 1, checked ? 'lenient' : m) : new Map<string, PopulateNode>();
          checked ||= has;
          on.set(uid, { ...plainNode(uid), populate });
        }
        node = { ...node, on };
      } else {
        const target = targetOf(model, head, registry);
        if (target) node = { ...node, populate: fromPaths([rest.join('.')], target, registry, depth + 1, m) };
      }
    }
    merge(out, node);
  }
  return out;
}

/** Every populatable attribute of a model, morph relations included, in schema order, one level (`populate=*`). */
export function populateAll(model: Model): PopulateMap {
  const out = new Map<string, PopulateNode>();
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

function toInteger(value: unknown, name: string, min: number): number {
  const n = numberOf(value);
  if (!Number.isInteger(n) || n < min) {
    throw paginationError(`Invalid '${name}' parameter. Expected an integer > ${min - 1}, received: ${textOf(value)}`);
  }
  return n;
}

/** A nested option the validator parsed already (its conversion error thrown here, where the converter meets it), else converted now. */
const parsedOr = <T>(parsed: Parsed<T> | undefined, convert: () => T): T => (parsed ? unwrap(parsed) : convert());

/** One attribute's populate options (`{ fields, filters, sort, populate, count, start, limit }`). */
function nestedNode(attribute: string, sub: unknown, target: Model, registry: Registry, depth: number, mode: Mode, options?: NestedOptions): PopulateNode | null {
  if (typeof sub === 'string') return TRUE.has(sub) || (!FALSE.has(sub) && Boolean(sub)) ? plainNode(attribute) : null;
  if (typeof sub === 'boolean') return sub ? plainNode(attribute) : null;
  if (!isRecord(sub)) throw validationError("Invalid nested populate. Expected '*' or an object");
  for (const key of Object.keys(sub)) if (!NODE_OPTIONS.has(key)) unknownKey(key, mode);
  const { sort, filters, fields, populate, count, page, pageSize, start, limit } = sub;
  const usePage = page !== undefined && page !== null ? true : pageSize !== undefined && pageSize !== null;
  const useOffset = (start !== undefined && start !== null) || (limit !== undefined && limit !== null);
  if (usePage && useOffset) {
    throw paginationError('Invalid pagination attributes. The page parameters are incorrect and must be in the pagination object');
  }
  let windowStart: number | null = null;
  let windowLimit: number | null = null;
  if (usePage) {
    const size = pageSize === undefined || pageSize === null ? 10 : toInteger(pageSize, 'pageSize', 1);
    const pageNumber = page === undefined || page === null ? 1 : toInteger(page, 'page', 1);
    windowStart = (pageNumber - 1) * size;
    windowLimit = size;
  } else if (useOffset) {
    if (start !== undefined && start !== null) windowStart = toInteger(start, 'start', 0);
    if (limit !== undefined && limit !== null && numberOf(limit) !== -1) windowLimit = toInteger(limit, 'limit', 0);
  }
  return {
    attribute,
    fields: fields === undefined ? null : parsedOr(parsedOption(options?.fields, target, fields), () => convertFields(fields, target)),
    filters: filters === undefined ? null : parsedOr(parsedOption(options?.filters, target, filters), () => convertFilters(filters, target, registry)),
    sort: parsedOr(parsedOption(options?.sort, target, sort), () => convertSort(sort)),
    populate: populate === undefined || populate === null ? new Map() : convertPopulate(populate, target, registry, depth + 1, mode, options),
    on: null,
    count: count !== undefined && TRUE.has(textOf(count)),
    star: false,
    start: windowStart,
    limit: windowLimit,
  };
}

function dynamicZoneNode(attribute: string, sub: unknown, model: Model, registry: Registry, depth: number, mode: Mode, options?: NestedOptions): PopulateNode | null {
  if (typeof sub === 'boolean') return sub ? plainNode(attribute) : null;
  if (typeof sub === 'string' && (TRUE.has(sub) || FALSE.has(sub))) return TRUE.has(sub) ? plainNode(attribute) : null;
  const keys = typeof sub === 'string' ? Object.keys(sub) : isRecord(sub) ? Object.keys(sub) : [];
  const singular = model.modelType === 'contentType' ? model.singularName : model.uid;
  if (keys.some((k) => !['populate', 'on', 'count'].includes(k)) || !isRecord(sub)) {
    throw validationError(
      `Invalid nested populate for ${singular}.${attribute} (${model.uid}). Expected a fragment ("on") or "count" but found ${JSON.stringify(sub)}`,
    );
  }
  if (sub.populate !== undefined && sub.populate !== null && sub.populate !== '*') {
    throw validationError(
      "Invalid nested population query detected. When using 'populate' within polymorphic structures, its value must be '*' to indicate all second level links. Specific field targeting is not supported here. Consider using the fragment API for more granular population control.",
    );
  }
  let on: Map<string, PopulateNode> | null = null;
  if (isRecord(sub.on)) {
    on = new Map();
    for (const [uid, fragment] of Object.entries(sub.on)) {
      const component = registry.model(uid);
      if (!component) {
        unknownKey(uid, mode);
        continue;
      }
      const node = nestedNode(uid, fragment, component, registry, depth + 1, mode, options);
      if (node) on.set(uid, node);
    }
  }
  return { ...plainNode(attribute), on, star: sub.populate === '*', count: sub.count === true || sub.count === 'true' };
}

/** Builds the populate tree for `model`, in all of Strapi's forms (strict: already validated). */
function convertPopulate(raw: unknown, model: Model, registry: Registry, depth: number, mode: Mode, options?: NestedOptions): PopulateMap {
  checkDepth(depth);
  if (raw === undefined || raw === null || raw === '') return new Map();
  if (raw === '*') return populateAll(model);
  // Strapi's validator reads a populate string below the root as one dotted path (`a.true,b` is `a`, then `true,b` below it, which it
  // accepts without reading further): what follows a comma there was never validated, and is read leniently.
  const afterComma = depth === 0 ? mode : 'lenient';
  if (typeof raw === 'string') return fromPaths([raw], model, registry, depth, mode, afterComma);
  if (Array.isArray(raw)) {
    if (!raw.every((v) => typeof v === 'string')) {
      throw validationError('Invalid populate parameter. Expected a string, an array of strings, a populate object');
    }
    return fromPaths(raw as string[], model, registry, depth, mode, afterComma);
  }
  if (!isRecord(raw)) throw validationError('Invalid populate parameter. Expected a string, an array of strings, a populate object');
  const out = new Map<string, PopulateNode>();
  for (const [key, sub] of Object.entries(raw)) {
    if (sub === null || sub === undefined) continue;
    const morph = model.morphs?.get(key);
    const field = lookupField(model, key);
    if (!morph && (!field || !POPULATABLE.has(field.kind))) {
      unknownKey(key, mode);
      continue;
    }
    if (typeof sub === 'string' && (TRUE.has(sub) || FALSE.has(sub))) {
      if (TRUE.has(sub)) out.set(key, plainNode(key));
      continue;
    }
    if (typeof sub === 'boolean') {
      if (sub) out.set(key, plainNode(key));
      continue;
    }
    if (field?.kind === 'dynamiczone' || (morph !== undefined && morph.target === undefined)) {
      // Dynamic zones and morph-to relations take `on` fragments per component or target type.
      const node = dynamicZoneNode(key, sub, model, registry, depth + 1, mode, options);
      if (node) out.set(key, node);
      continue;
    }
    if (isRecord(sub) && sub.on !== undefined && sub.on !== null) {
      throw validationError(`Using fragments is not permitted to populate "${key}" in "${model.uid}"`);
    }
    const target = morph?.target !== undefined ? registry.model(morph.target) : targetOf(model, key, registry);
    if (!target) continue;
    const node = nestedNode(key, sub, target, registry, depth + 1, mode, options);
    if (node) out.set(key, node);
  }
  return out;
}

/** What parsing a populate needs: the model it starts at, the registry, and (for the caller's pass) what the caller may find. */
export interface PopulateScope {
  readonly model: Model;
  readonly registry: Registry;
  readonly canRead?: CanRead;
}

/**
 * `populate` parsed: validated as Strapi's passes do (a failure is thrown now: Strapi validates
 * before it converts), then converted strictly; a conversion error (nesting depth, pagination,
 * fragments) is returned, to be thrown once every parameter is validated.
 */
export function parsePopulate(raw: unknown, scope: PopulateScope): Parsed<PopulateMap> {
  const { model, registry } = scope;
  const options = raw !== undefined && raw !== null && raw !== '' && raw !== '*' ? validatePopulate(raw, model, registry, scope.canRead) : undefined;
  return attempt(() => convertPopulate(raw, model, registry, 0, 'strict', options));
}

/** The populate of a query Strapi does not validate (single-type writes): converted leniently, what does not apply left out. */
export function convertPopulateLenient(raw: unknown, model: Model, registry: Registry): PopulateMap {
  return convertPopulate(raw, model, registry, 0, 'lenient');
}
