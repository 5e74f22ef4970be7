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
 * `populate=a,b.c` / `populate[0]=a.b`: dotted paths become nested populate entries. What names
 * no populatable attribute is left out (the walk's checks name it when Strapi's validator does:
 * `checkDotPaths` at the root, the walk's own visits below it).
 */
export function fromPaths(paths: string[], model: Model, registry: Registry, depth: number): PopulateMap {
  const out = new Map<string, PopulateNode>();
  for (const path of paths.flatMap((p) => p.split(',').map((s) => s.trim())).filter(Boolean)) {
    const [head, ...rest] = path.split('.').map((s) => s.trim());
    // An empty segment (`a..b`, `.a`) ends the path: the validator skips it, the reader stops there.
    if (!head) continue;
    const morph = model.morphs?.get(head);
    if (morph) {
      if (rest.length > 0) checkDepth(depth + 1);
      const target = morph.target === undefined ? undefined : registry.model(morph.target);
      const populate = rest.length > 0 && target ? fromPaths([rest.join('.')], target, registry, depth + 1) : new Map<string, PopulateNode>();
      merge(out, { ...plainNode(head), populate });
      continue;
    }
    const field = lookupField(model, head);
    // `*` as a path below the root (`populate[a][populate][0]=*`, `a.*` there) is expanded by the validator's walk only.
    if (!field || !POPULATABLE.has(field.kind)) continue;
    let node = plainNode(head);
    if (rest.length > 0) {
      checkDepth(depth + 1);
      if (field.kind === 'dynamiczone' && field.attribute.kind === 'dynamiczone') {
        // `zone.attr` populates attr in the components that have it; the others come back plain (Strapi's morph populate).
        const on = new Map<string, PopulateNode>();
        for (const uid of field.attribute.components) {
          const component = registry.model(uid);
          if (!component) continue;
          const populate = component.attributes.has(rest[0] ?? '')
            ? fromPaths([rest.join('.')], component, registry, depth + 1)
            : new Map<string, PopulateNode>();
          on.set(uid, { ...plainNode(uid), populate });
        }
        node = { ...node, on };
      } else {
        const target = linkedModel(field, model, registry);
        if (target) node = { ...node, populate: fromPaths([rest.join('.')], target, registry, depth + 1) };
      }
    }
    merge(out, node);
  }
  return out;
}
