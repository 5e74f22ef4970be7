import { invalidKey } from '../errors/app-error.js';
import { lookupField } from '../schema/fields.js';
import type { MorphAttribute } from '../schema/morphs.js';
import type { Registry } from '../schema/registry.js';
import type { Model } from '../schema/types.js';
import type { FilterNode, SortTerm } from './ast.js';
import { childPath, fail, isNil, isRecord, POPULATABLE, restricted, ROOT, targetModel, type CanRead, type Param, type Parsed, type Path, type Visit } from './check.js';
import { walkFilters } from './check-filters.js';
import { validateFields, walkSort } from './check-sort.js';
import { parseFields } from './fields.js';
import { parseFilters } from './filters.js';
import { parseSort } from './sort.js';

const BOOLEAN_LIKE = new Set(['true', 't', '1', 'false', 'f', '0']);
const ROOT_ONLY = new Set(['status', 'publicationFilter', 'hasPublishedVersion']);
const isBooleanLike = (v: unknown) => typeof v === 'boolean' || ((typeof v === 'string' || typeof v === 'number') && BOOLEAN_LIKE.has(String(v)));

function validateDotPopulate(items: string[], model: Model, registry: Registry): void {
  for (const item of items.flatMap((i) => i.split(',').map((s) => s.trim()).filter(Boolean))) {
    let current: Model | undefined = model;
    let prefix = '';
    const segments = item.split('.').map((s) => s.trim()).filter(Boolean);
    for (let i = 0; i < segments.length && current; i++) {
      const head = segments[i] as string;
      const fullPath = prefix ? `${prefix}.${head}` : head;
      const field = lookupField(current, head);
      const bad = () => {
        throw invalidKey({ key: head, path: fullPath, source: 'query', param: 'populate' });
      };
      const last = i === segments.length - 1;
      const morph: MorphAttribute | undefined = current.morphs?.get(head);
      if (morph) {
        // A morph-to relation cannot be walked by a dotted path (Strapi's morph-like check); its inverse side can.
        if (!last && morph.target === undefined) bad();
        current = morph.target === undefined ? undefined : registry.model(morph.target);
        prefix = fullPath;
        continue;
      }
      if (!field || !POPULATABLE.has(field.kind)) bad();
      if (!last) {
        if (field?.kind === 'media') bad();
        if (field?.kind === 'dynamiczone' && field.attribute.kind === 'dynamiczone') {
          const nextKey = segments[i + 1] as string;
          const candidates = field.attribute.components.map((uid) => registry.model(uid)).filter((m) => m?.attributes.has(nextKey));
          if (candidates.length === 0) {
            throw invalidKey({ key: nextKey, path: `${fullPath}.${nextKey}`, source: 'query', param: 'populate' });
          }
          current = candidates[0];
          prefix = fullPath;
          continue;
        }
        current = field?.kind === 'localizations' ? current : targetModel(field, registry);
      }
      prefix = fullPath;
    }
  }
}

function allPopulatable(model: Model): Record<string, true> {
  const out: Record<string, true> = {};
  for (const attr of model.attributes.values()) if (POPULATABLE.has(attr.kind)) out[attr.name] = true;
  for (const name of model.morphs?.keys() ?? []) out[name] = true;
  return out;
}

interface PopulateVisit extends Visit {
  /** The key sits where an attribute name is expected (not directly under a relation). */
  readonly attributePosition: boolean;
  /** The key was not named but comes from a `*` (every populatable attribute of `model`). */
  readonly wildcard?: boolean;
}

/** What a walk's visitor decides for the keys below a visited one: its state for them, or `stop` (not below). */
type Visitor<S> = (v: PopulateVisit, state: S) => S | 'stop';

/** Walks a populate value the way Strapi's populate traversal does, calling `visit` for every key (its state flows down). */
function walkPopulate<S>(value: unknown, model: Model, path: Path, attributePosition: boolean, registry: Registry, state: S, visit: Visitor<S>): void {
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) {
    for (const item of value) walkPopulate(item, model, path, attributePosition, registry, state, visit);
    return;
  }
  if (value === '*') {
    walkPopulate(allPopulatable(model), model, path, attributePosition, registry, state, (v, s) => visit({ ...v, wildcard: true }, s));
    return;
  }
  let entries: [string, unknown][];
  if (typeof value === 'string') {
    const [head, ...rest] = value.split('.');
    entries = head ? [[head.trim(), rest.join('.')]] : [];
  } else if (isRecord(value)) {
    entries = Object.entries(value);
  } else {
    return;
  }
  for (const [key, child] of entries) {
    const field = lookupField(model, key);
    const morph = field ? undefined : model.morphs?.get(key);
    const next = childPath(path, key, field ?? morph);
    const below = visit({ key, field, morph, path: next, value: child, model, attributePosition }, state);
    if (below === 'stop') continue;
    if (isNil(child)) continue;
    if (morph) {
      walkMorph(child, morph, model, next, registry, below, visit);
      continue;
    }
    if (!field) {
      if (key === 'populate') walkPopulate(child, model, next, true, registry, below, visit);
      if (key === 'on' && isRecord(child)) {
        for (const [uid, sub] of Object.entries(child)) {
          const target = registry.model(uid);
          if (target) walkPopulate(sub, target, { ...next, raw: `${path.raw}[${uid}]` }, false, registry, below, visit);
        }
      }
      continue;
    }
    if (field.kind === 'dynamiczone' && field.attribute.kind === 'dynamiczone') {
      if (isRecord(child)) {
        const { on, ...rest } = child;
        for (const uid of field.attribute.components) {
          const component = registry.model(uid);
          if (component) walkPopulate(rest, component, next, false, registry, below, visit);
        }
        if (on !== undefined) walkPopulate({ on }, model, next, false, registry, below, visit);
      } else {
        walkPopulate(child, model, next, false, registry, below, visit);
      }
      continue;
    }
    const target = field.kind === 'localizations' ? model : targetModel(field, registry);
    if (target) walkPopulate(child, target, next, false, registry, below, visit);
  }
}

/** A morph-to relation is walked through its `on` fragments only (as Strapi's traversal does); an inverse side as a relation. */
function walkMorph<S>(value: unknown, morph: MorphAttribute, model: Model, path: Path, registry: Registry, state: S, visit: Visitor<S>): void {
  if (morph.target !== undefined) {
    const target = registry.model(morph.target);
    if (target) walkPopulate(value, target, path, false, registry, state, visit);
    return;
  }
  if (isRecord(value) && value.on !== undefined) walkPopulate({ on: value.on }, model, path, false, registry, state, visit);
}

/** Parsed values by the model they apply to and their raw value. */
type Keyed<T> = Map<Model, Map<unknown, Parsed<T>>>;

/** The nested `sort`, `filters` and `fields` of a populate, parsed (validated and converted in one walk each) by the structure pass, for the converter. */
export interface NestedOptions {
  readonly sort: Keyed<SortTerm[]>;
  readonly filters: Keyed<FilterNode | null>;
  readonly fields: Keyed<string[] | null>;
}

function keep<T>(keyed: Keyed<T>, model: Model, raw: unknown, parsed: Parsed<T>): void {
  const byRaw = keyed.get(model) ?? new Map<unknown, Parsed<T>>();
  keyed.set(model, byRaw);
  if (!byRaw.has(raw)) byRaw.set(raw, parsed);
}

/** What the structure pass parsed for `raw` at `model`, if it did. */
export const parsedOption = <T>(keyed: Keyed<T> | undefined, model: Model, raw: unknown): Parsed<T> | undefined => keyed?.get(model)?.get(raw);

/** Pass one: structure and attribute checks; nested sort/filters/fields are parsed by their own parsers (their 400s are the validators'). */
function checkPopulateStructure(v: PopulateVisit, registry: Registry, options: NestedOptions): 'stop' | void {
  const { key, field, value } = v;
  if (v.attributePosition && v.morph) {
    // Inside a morph-to relation, `populate` may only be '*' (Strapi's polymorphic nested populate check).
    if (v.morph.target === undefined && isRecord(value) && 'populate' in value && !isNil(value.populate) && value.populate !== '*') {
      throw invalidKey({ key: 'populate', path: v.path.raw, source: 'query', param: 'populate' });
    }
    return;
  }
  if (v.attributePosition && field) {
    if (!POPULATABLE.has(field.kind)) fail(v, 'populate', v.path.raw);
    return;
  }
  if (key === 'on') {
    if (!isRecord(value)) fail(v, 'populate', v.path.raw);
    for (const uid of Object.keys(value)) {
      if (!registry.model(uid)) throw invalidKey({ key: uid, path: `${v.path.raw}.${uid}`, source: 'query', param: 'populate' });
    }
    return;
  }
  if (key === '' && value === '*') return;
  if (key === 'count') {
    if (!isBooleanLike(value)) fail(v, 'populate');
    return;
  }
  if (isBooleanLike(key) || key === 'populate') return;
  const scope = { model: v.model, registry };
  if (key === 'sort') keep(options.sort, v.model, value, parseSort(value, scope));
  else if (key === 'filters') keep(options.filters, v.model, value, parseFilters(value, scope));
  // An empty nested `fields` is validated (a root one is skipped, as Strapi skips empty parameters).
  else if (key === 'fields' && value === '') validateFields(value, v.model);
  else if (key === 'fields') keep(options.fields, v.model, value, parseFields(value, v.model));
  else {
    throw invalidKey({
      key,
      path: v.path.attribute,
      source: 'query',
      param: 'populate',
      reason: ROOT_ONLY.has(key) ? `${key} is only accepted at the root of the query, and it also applies to populated relations` : undefined,
    });
  }
  return 'stop';
}

/**
 * The caller's pass over a populate tree: every relation it populates, and every relation its
 * nested `filters` and `sort` traverse, at any depth, must be one the caller may find. The very
 * check of root filters and sorts (same visitor, same 400), so a type the caller may not read
 * cannot be probed by whether a nested filter, sort or count matches. A `*` at any depth names
 * nothing: what it reaches that the caller may not find is left out by the reader, as at the root.
 * Throws the pass's first refusal; returns whether the pass goes below the key.
 */
function accessStep(v: PopulateVisit, registry: Registry, canRead: CanRead): boolean {
  const refuse = (param: Param) => (visit: Visit) => {
    if (restricted(visit, canRead)) fail(visit, param);
  };
  if (v.wildcard) return false;
  if (v.morph) {
    refuseMorph(v, v.morph, registry, canRead);
    return true;
  }
  if (v.field) {
    refuse('populate')(v);
    return true;
  }
  if (v.key === 'filters') walkFilters(v.value, v.model, ROOT, registry, refuse('filters'));
  else if (v.key === 'sort') walkSort(v.value, v.model, ROOT, registry, refuse('sort'));
  else return v.key !== 'fields';
  return false;
}

/** The private pass: a private relation, component, media or morph relation is refused; returns whether the pass goes below the key. */
function hiddenStep(v: PopulateVisit): boolean {
  if ((v.field?.private && v.field.kind !== 'scalar') || v.morph?.raw.private === true) fail(v, 'populate');
  return Boolean(v.field) || !['sort', 'filters', 'fields'].includes(v.key);
}

/** Which of the passes still walk a subtree (each stops below some keys). */
interface Passes {
  readonly structure: boolean;
  readonly hidden: boolean;
  readonly access: boolean;
}

/** A pass's step run at a visit: its first error kept (the pass would have stopped there), whether it goes below returned. */
function keepFirst(kept: { error?: unknown }, step: () => boolean): boolean {
  try {
    return step();
  } catch (error) {
    if (!('error' in kept)) kept.error = error;
    return false;
  }
}

/**
 * Strapi's populate passes (structure, private, the caller's) in one walk. They walk the same tree
 * in the same order, each stopping below different keys, so a key is checked by every pass that
 * reaches it: the structure pass throws at once (it runs first), the others keep their first error,
 * thrown in pass order after the walk.
 */
function checkPasses(populate: unknown, model: Model, registry: Registry, start: Passes, canRead: CanRead | undefined): NestedOptions {
  const options: NestedOptions = { sort: new Map(), filters: new Map(), fields: new Map() };
  const hidden: { error?: unknown } = {};
  const access: { error?: unknown } = {};
  walkPopulate<Passes>(populate, model, ROOT, true, registry, start, (v, passes) => {
    const below: Passes = {
      structure: passes.structure && checkPopulateStructure(v, registry, options) !== 'stop',
      hidden: passes.hidden && !('error' in hidden) && keepFirst(hidden, () => hiddenStep(v)),
      access: passes.access && canRead !== undefined && !('error' in access) && keepFirst(access, () => accessStep(v, registry, canRead)),
    };
    return below.structure || below.hidden || below.access ? below : 'stop';
  });
  if ('error' in hidden) throw hidden.error;
  if ('error' in access) throw access.error;
  return options;
}

/** The caller's pass alone (what an unvalidated single-type write still gets). */
export function checkPopulateAccess(populate: unknown, model: Model, registry: Registry, canRead: CanRead): void {
  checkPasses(populate, model, registry, { structure: false, hidden: false, access: true }, canRead);
}

/**
 * A morph relation in a populate: an inverse side whose target the caller may not find is refused
 * like a relation; a morph-to side is read per type (types it may not find are left out of the
 * entries), but an `on` fragment naming such a type is refused by its uid.
 */
function refuseMorph(v: PopulateVisit, morph: MorphAttribute, registry: Registry, canRead: CanRead): void {
  if (morph.target !== undefined) {
    if (!canRead(morph.target)) fail(v, 'populate');
    return;
  }
  const on = isRecord(v.value) && isRecord(v.value.on) ? v.value.on : {};
  for (const uid of Object.keys(on)) {
    if (registry.contentType(uid) && !canRead(uid)) throw invalidKey({ key: uid, path: `${v.path.raw}.on.${uid}`, source: 'query', param: 'populate' });
  }
}

/** Populate validation: dot paths, or the object form walked as Strapi walks it; then the private pass, then the caller's (one walk). Returns the nested options it parsed. */
export function validatePopulate(populate: unknown, model: Model, registry: Registry, canRead?: CanRead): NestedOptions | undefined {
  if (populate === '*') return undefined;
  const dotted =
    typeof populate === 'string' || (Array.isArray(populate) && populate.length > 0 && populate.every((p) => typeof p === 'string'));
  if (dotted) validateDotPopulate(Array.isArray(populate) ? (populate as string[]) : [populate as string], model, registry);
  return checkPasses(populate, model, registry, { structure: !dotted, hidden: true, access: canRead !== undefined }, canRead);
}
