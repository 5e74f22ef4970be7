import { invalidKey } from '../errors/app-error.js';
import { lookupField } from '../schema/fields.js';
import type { MorphAttribute } from '../schema/morphs.js';
import type { Registry } from '../schema/registry.js';
import type { Model } from '../schema/types.js';
import { childPath, fail, isNil, isRecord, POPULATABLE, restricted, ROOT, type CanRead, type Param, type Path, type Visit } from './check.js';
import { walkFilters } from './check-filters.js';
import { walkSort } from './check-sort.js';
import { parseFilters } from './filters.js';
import { openMap, parseNestedFields, readBelow, readNode, unknown, type Build, type Reading } from './populate-nodes.js';
import { linkedModel } from './populate-paths.js';
import { parseSort } from './sort.js';

/**
 * Populate parsed in one walk: the walk goes down the raw populate the way Strapi's populate
 * traversal does, checks each key against Strapi's three passes (structure, private, the
 * caller's) as it meets it, and builds the typed entries (populate-nodes.ts) from what it walks.
 */

const BOOLEAN_LIKE = new Set(['true', 't', '1', 'false', 'f', '0']);
const ROOT_ONLY = new Set(['status', 'publicationFilter', 'hasPublishedVersion']);
const NESTED_OPTIONS = new Set(['sort', 'filters', 'fields']);
const isBooleanLike = (v: unknown) => typeof v === 'boolean' || ((typeof v === 'string' || typeof v === 'number') && BOOLEAN_LIKE.has(String(v)));

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

/** Which of the passes still walk a subtree (each stops below some keys). */
interface Passes {
  readonly structure: boolean;
  readonly hidden: boolean;
  readonly access: boolean;
}

/** One populate walked: what it reads into (populate-nodes.ts), what the caller may find, and the first failure of the private and of the caller's pass. */
export interface PopulateWalk extends Reading {
  readonly canRead: CanRead | undefined;
  /** Strapi's passes are checked (not a single-type write's populate): what the converter reads that no pass checked is read strictly. */
  readonly strict: boolean;
  hidden?: { readonly error: unknown };
  access?: { readonly error: unknown };
}

/** What flows down the walk: the passes still walking, and what is built from the value walked. */
interface State {
  readonly passes: Passes;
  readonly build: Build;
}

/**
 * Walks a populate value the way Strapi's populate traversal does: every key is checked by each
 * pass that reaches it (the structure pass throws at once, the others keep their first failure in
 * `w`) and read by the build of its level. It goes below a key while a pass or a build goes on.
 */
export function walkPopulate(w: PopulateWalk, value: unknown, model: Model, path: Path, attributePosition: boolean, state: State, wildcard = false): void {
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) {
    for (const item of value) walkPopulate(w, item, model, path, attributePosition, state, wildcard);
    return;
  }
  if (value === '*') {
    walkPopulate(w, allPopulatable(model), model, path, attributePosition, state, true);
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
    const v: PopulateVisit = { key, field, morph, path: next, value: child, model, attributePosition, wildcard };
    const passes = checkVisit(w, v, state);
    // An option named like an attribute of its model is walked as the attribute, read as the option.
    const shadowed = field !== undefined && (state.build?.kind === 'node' || state.build?.kind === 'zone');
    if (shadowed && state.build) readShadowed(w, state.build, v, path);
    const build = shadowed ? null : readBelow(w, state.build, v, passes.structure);
    const checking = passes.structure || passes.hidden || passes.access;
    if ((!checking && build === null) || isNil(child)) continue;
    const below: State = { passes, build };
    if (morph) {
      walkMorph(w, child, morph, model, next, below);
      continue;
    }
    if (!field) {
      if (key === 'populate') walkPopulate(w, child, model, next, true, below);
      if (key === 'on' && isRecord(child)) walkFragments(w, child, path, next, below);
      continue;
    }
    if (field.kind === 'dynamiczone' && field.attribute.kind === 'dynamiczone') {
      if (isRecord(child)) {
        const { on, ...rest } = child;
        // What is not `on` is checked at every component (Strapi's traversal), built at none.
        if (checking && Object.keys(rest).length > 0) {
          for (const uid of field.attribute.components) {
            const component = w.registry.model(uid);
            if (component) walkPopulate(w, rest, component, next, false, { passes, build: null });
          }
        }
        if (on !== undefined) walkPopulate(w, { on }, model, next, false, below);
      } else {
        walkPopulate(w, child, model, next, false, below);
      }
      continue;
    }
    const target = linkedModel(field, model, w.registry);
    if (target) walkPopulate(w, child, target, next, false, below);
  }
}

/** The fragments of an `on` key, each walked at its component or type (and read as a node where its zone is built). */
function walkFragments(w: PopulateWalk, on: Record<string, unknown>, parent: Path, next: Path, below: State): void {
  for (const [uid, sub] of Object.entries(on)) {
    const target = w.registry.model(uid);
    const fragments = below.build?.kind === 'fragments' ? below.build : null;
    if (!target) {
      if (fragments) unknown(w, uid, fragments.strict);
      continue;
    }
    const { structure } = below.passes;
    const build = fragments
      ? readNode(w, uid, sub, target, { into: fragments.on, depth: fragments.depth + 1, checked: structure, strict: fragments.strict })
      : null;
    walkPopulate(w, sub, target, { ...next, raw: `${parent.raw}[${uid}]` }, false, { passes: below.passes, build });
  }
}

const NO_PASSES: Passes = { structure: false, hidden: false, access: false };

/**
 * An option named like an attribute of the model it sits at (a relation's `populate` where its
 * target has a `populate` attribute, a zone's `on` where its model has an `on` attribute): Strapi's
 * traversal, reproduced by the walk, goes below the attribute and checks nothing of the option;
 * Strapi's converter reads the option, knowing every key it meets (strict), as read here.
 */
function readShadowed(w: PopulateWalk, build: NonNullable<Build>, v: PopulateVisit, parent: Path): void {
  if (build.kind === 'node' && v.key === 'populate' && !isNil(v.value)) {
    const map = openMap(w, v.value, v.model, build.depth + 1, build.populate, w.strict);
    if (map) walkPopulate(w, v.value, v.model, v.path, true, { passes: NO_PASSES, build: map });
  } else if (build.kind === 'zone' && v.key === 'on' && isRecord(v.value)) {
    walkFragments(w, v.value, parent, v.path, { passes: NO_PASSES, build: { kind: 'fragments', on: build.on, depth: build.depth, strict: w.strict } });
  }
}

/** A morph-to relation is walked through its `on` fragments only (as Strapi's traversal does); an inverse side as a relation. */
function walkMorph(w: PopulateWalk, value: unknown, morph: MorphAttribute, model: Model, path: Path, state: State): void {
  if (morph.target !== undefined) {
    const target = w.registry.model(morph.target);
    if (target) walkPopulate(w, value, target, path, false, state);
    return;
  }
  if (isRecord(value) && value.on !== undefined) walkPopulate(w, { on: value.on }, model, path, false, state);
}

/** A nested `sort`, `filters` or `fields` checked by the structure pass (its parser's 400; what it converts is read where its relation is). */
function checkOption(key: string, value: unknown, model: Model, registry: Registry): void {
  const scope = { model, registry };
  if (key === 'sort') parseSort(value, scope);
  else if (key === 'filters') parseFilters(value, scope);
  else parseNestedFields(value, model);
}

/** Pass one: structure and attribute checks; nested sort/filters/fields are checked by their own parsers (their 400s are the validators'). */
function checkStructure(v: PopulateVisit, registry: Registry, build: Build): 'stop' | void {
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
  if (key === 'sort' || key === 'filters' || key === 'fields') {
    // Parsed already where the relation these options belong to was read: its 400 is owed here.
    if (build?.kind === 'node' && build.checked.has(key)) {
      const invalid = build.checked.get(key);
      if (invalid !== undefined) throw invalid;
    } else {
      checkOption(key, value, v.model, registry);
    }
    return 'stop';
  }
  throw invalidKey({
    key,
    path: v.path.attribute,
    source: 'query',
    param: 'populate',
    reason: ROOT_ONLY.has(key) ? `${key} is only accepted at the root of the query, and it also applies to populated relations` : undefined,
  });
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
    if (restricted(v, canRead)) fail(v, 'populate');
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
  return Boolean(v.field) || !NESTED_OPTIONS.has(v.key);
}

/**
 * Strapi's populate passes (structure, private, the caller's) at one visit. They walk the same tree
 * in the same order, each stopping below different keys, so a key is checked by every pass that
 * reaches it: the structure pass throws at once (it runs first), the others keep their first
 * failure, thrown in pass order after the walk. Returns the passes that go below the key.
 */
function checkVisit(w: PopulateWalk, v: PopulateVisit, { passes, build }: State): Passes {
  const structure = passes.structure && checkStructure(v, w.registry, build) !== 'stop';
  let hidden = passes.hidden && w.hidden === undefined;
  if (hidden) {
    try {
      hidden = hiddenStep(v);
    } catch (error) {
      w.hidden = { error };
      hidden = false;
    }
  }
  let access = passes.access && w.canRead !== undefined && w.access === undefined;
  if (access && w.canRead !== undefined) {
    try {
      access = accessStep(v, w.registry, w.canRead);
    } catch (error) {
      w.access = { error };
      access = false;
    }
  }
  return { structure, hidden, access };
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
