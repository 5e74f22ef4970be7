import { invalidKey, validationError } from '../errors/app-error.js';
import { MAX_POPULATE_DEPTH } from '../limits.js';
import { lookupField, type FieldInfo } from '../schema/fields.js';
import type { MorphAttribute } from '../schema/morphs.js';
import type { Registry } from '../schema/registry.js';
import type { Model } from '../schema/types.js';
import type { PopulateMap, PopulateNode } from './ast.js';
import { POPULATABLE, targetModel } from './check.js';

/**
 * Populate in its string forms (`populate=a,b.c`, `populate[0]=a.b`): dotted paths, checked as
 * Strapi's validator reads them at the root, read into nested populate entries.
 */

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

/** Throws when a populate nests deeper than Hearth reads (a conversion error: Strapi validates first). */
export function checkDepth(depth: number): void {
  if (depth > MAX_POPULATE_DEPTH) {
    throw validationError(`Populate is nested too deeply: at most ${MAX_POPULATE_DEPTH} levels are accepted`, { source: 'query', param: 'populate' });
  }
}

/** The model a populatable field leads to (its own model for `localizations`). */
export const linkedModel = (field: FieldInfo, model: Model, registry: Registry): Model | undefined =>
  field.kind === 'localizations' ? model : targetModel(field, registry);

/** The dotted paths of a root populate string or list, checked as Strapi's validator reads them (the first unknown or unwalkable key is its 400). */
export function checkDotPaths(items: string[], model: Model, registry: Registry): void {
  for (const item of items.flatMap((i) =>
    i
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  )) {
    let current: Model | undefined = model;
    let prefix = '';
    const segments = item
      .split('.')
      .map((s) => s.trim())
      .filter(Boolean);
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
        current = field ? linkedModel(field, current, registry) : undefined;
      }
      prefix = fullPath;
    }
  }
}

/** Adds `node` to `into`, merging what both populate below the same attribute. */
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

/**
 * Keys Strapi's populate validator accepts where no attribute is named, and its converter then
 * ignores: boolean-like keys, `count`, `on` where fragments do not apply, a nested `populate`,
 * `sort`/`filters`/`fields` at a level that names no relation, and `''` (`populate[]=*`).
 */
export const IGNORED_KEYS = new Set(['true', 't', '1', 'false', 'f', '0', 'count', 'on', 'populate', 'sort', 'filters', 'fields', '']);

/**
 * Where a populate is read that no validator pass checked but Strapi's converter reads strictly
 * (an option named like an attribute, see populate-walk.ts): a key it does not know is its 400
 * (`Invalid key`, thrown once every parameter is validated).
 */
export function unknownKey(key: string): Error | null {
  return IGNORED_KEYS.has(key) ? null : invalidKey({ key, path: null, source: 'query', param: 'populate' });
}

/**
 * `populate=a,b.c` / `populate[0]=a.b`: dotted paths become nested populate entries. What names
 * no populatable attribute is left out (the walk's checks name it when Strapi's validator does:
 * `checkDotPaths` at the root, the walk's own visits below it), or, `strict`, is the converter's
 * `Invalid key` in the first path of each item (Strapi's validator reads a nested string as one
 * dotted path: what follows a comma is never checked) and along the first component of a zone
 * having the next key.
 */
export function fromPaths(paths: string[], model: Model, registry: Registry, depth: number, strict = false): PopulateMap {
  const out = new Map<string, PopulateNode>();
  const parts = paths.flatMap((p) => p.split(',').map((s, i) => [s.trim(), strict && i === 0] as const)).filter(([s]) => s);
  for (const [path, checked] of parts) {
    const [head, ...rest] = path.split('.').map((s) => s.trim());
    // An empty segment (`a..b`, `.a`) ends the path: the validator skips it, the reader stops there.
    if (!head) continue;
    const morph = model.morphs?.get(head);
    if (morph) {
      if (rest.length > 0) checkDepth(depth + 1);
      const target = morph.target === undefined ? undefined : registry.model(morph.target);
      const populate = rest.length > 0 && target ? fromPaths([rest.join('.')], target, registry, depth + 1, checked) : new Map<string, PopulateNode>();
      merge(out, { ...plainNode(head), populate });
      continue;
    }
    const field = lookupField(model, head);
    if (!field || !POPULATABLE.has(field.kind)) {
      // `*` as a path below the root (`populate[a][populate][0]=*`, `a.*` there) is expanded by the validator's walk only.
      const unknown = checked && head !== '*' ? unknownKey(head) : null;
      if (unknown) throw unknown;
      continue;
    }
    let node = plainNode(head);
    if (rest.length > 0) {
      checkDepth(depth + 1);
      if (field.kind === 'dynamiczone' && field.attribute.kind === 'dynamiczone') {
        // `zone.attr` populates attr in the components that have it; the others come back plain (Strapi's morph populate).
        const on = new Map<string, PopulateNode>();
        let first = checked;
        for (const uid of field.attribute.components) {
          const component = registry.model(uid);
          if (!component) continue;
          const has = component.attributes.has(rest[0] ?? '');
          const populate = has ? fromPaths([rest.join('.')], component, registry, depth + 1, first) : new Map<string, PopulateNode>();
          if (has) first = false;
          on.set(uid, { ...plainNode(uid), populate });
        }
        node = { ...node, on };
      } else {
        const target = linkedModel(field, model, registry);
        if (target) node = { ...node, populate: fromPaths([rest.join('.')], target, registry, depth + 1, checked) };
      }
    }
    merge(out, node);
  }
  return out;
}
