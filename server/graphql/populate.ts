import { getArgumentValues, GraphQLObjectType, Kind, type FieldNode, type GraphQLResolveInfo, type SelectionSetNode } from 'graphql';
import type { PopulateMap } from '../query/ast.js';
import { MAX_POPULATE_DEPTH } from '../limits.js';
import type { PaginationLimits } from '../query/pagination.js';
import type { Registry } from '../schema/registry.js';
import { FILE_UID, type Model } from '../schema/types.js';
import { toRestFilters } from './filters.js';
import { componentTypeNameOf, typeNameOf } from './names.js';
import { selectedFields } from './selected-fields.js';

/**
 * A GraphQL selection as the REST populate the query parser reads (relations with their filters
 * and sort, components, zones, media), so a root query loads every level in one batched read per
 * level. A relation's window (`pagination`) is not a REST populate key: it travels beside, as
 * `windows`, and is set on the parsed nodes (withWindows). When one attribute is selected more
 * than once (aliases with other arguments), the first selection is populated and the others are
 * loaded by the relation loader (loader.ts); `populated` holds the field nodes served from the populate.
 */
export interface Windows {
  readonly [attribute: string]: {
    readonly start: number | null;
    readonly limit: number | null;
    readonly children: Windows;
    /** A dynamic zone's: the windows inside each component's fragment (by component uid). */
    readonly on?: Readonly<Record<string, Windows>>;
  };
}

type Raw = Record<string, unknown>;

export interface PopulateScope {
  readonly registry: Registry;
  readonly limits: PaginationLimits;
  readonly populated: WeakSet<FieldNode>;
  readonly window: (pagination: unknown) => { start: number; limit: number };
}

/**
 * The fields of a selection, fragments included; a fragment spread twice in one selection is read
 * once (as graphql-js collects fields), so fragments spreading each other twice stay linear.
 */
export function fieldsOf(set: SelectionSetNode | undefined, info: GraphQLResolveInfo, visited: Set<string> = new Set()): FieldNode[] {
  const out: FieldNode[] = [];
  for (const s of set?.selections ?? []) {
    if (s.kind === 'Field') out.push(s);
    else if (s.kind === 'InlineFragment') out.push(...fieldsOf(s.selectionSet, info, visited));
    else if (!visited.has(s.name.value)) {
      visited.add(s.name.value);
      const fragment = info.fragments[s.name.value];
      if (fragment) out.push(...fieldsOf(fragment.selectionSet, info, visited));
    }
  }
  return out;
}

/** The selection under a field: a connection's `nodes`, else the field's own. */
export const selectionUnder = (node: FieldNode, info: GraphQLResolveInfo): SelectionSetNode | undefined =>
  node.name.value.endsWith('_connection') ? fieldsOf(node.selectionSet, info).find((f) => f.name.value === 'nodes')?.selectionSet : node.selectionSet;

/** The attribute a field reads (`tags` for `tags` and `tags_connection`). */
export const attributeOf = (field: string): string => (field.endsWith('_connection') ? field.slice(0, -'_connection'.length) : field);

/**
 * One relation list's REST populate entry (filters, sort) and window, from its arguments. The
 * window is always set: without `pagination` (its default `{}`) a relation list is the default page,
 * as Strapi's association resolver reads it (`transformArgs(..., { usePagination: true })`).
 */
export function relationEntry(args: Record<string, unknown>, scope: PopulateScope): { entry: Raw; window: { start: number; limit: number } } {
  const entry: Raw = {};
  if (args.filters) entry.filters = toRestFilters(args.filters);
  if (Array.isArray(args.sort) && args.sort.length > 0) entry.sort = args.sort;
  if (typeof args.sort === 'string') entry.sort = args.sort;
  return { entry, window: scope.window(args.pagination ?? {}) };
}

/**
 * Relation levels one read populates: REST's parser counts two depths per level (the attribute and
 * its `populate`) up to MAX_POPULATE_DEPTH. Deeper relations of a content type are left to the
 * relation loader, which reads them (batched) from their parents' level with a populate of its own;
 * the selection's depth is GraphQL's limit (MAX_GRAPHQL_DEPTH), not REST's.
 */
const LEVELS_PER_READ = Math.floor(MAX_POPULATE_DEPTH / 2);

/**
 * The REST populate of a selection on `model` (`level` relation levels below the read's root), the
 * windows of its relations, and the REST `fields` the selection reads on `model` (selected-fields.ts).
 */
export function populateOf(
  model: Model,
  set: SelectionSetNode | undefined,
  scope: PopulateScope,
  info: GraphQLResolveInfo,
  level = 0,
): { populate: Raw; windows: Windows; fields: string[] | undefined } {
  const populate: Raw = {};
  const windows: Record<string, Windows[string]> = {};
  const type = info.schema.getType(model.modelType === 'component' ? componentTypeNameOf(model) : typeNameOf(model));
  const defs = type instanceof GraphQLObjectType ? type.getFields() : {};
  const nodes = fieldsOf(set, info);
  for (const node of nodes) {
    const name = attributeOf(node.name.value);
    const attribute = model.attributes.get(name);
    if (!attribute || attribute.kind === 'scalar' || populate[name] !== undefined) continue;
    if (level >= LEVELS_PER_READ && model.modelType === 'contentType' && attribute.kind !== 'component' && attribute.kind !== 'dynamiczone') continue;
    const def = defs[node.name.value];
    // An attribute without arguments (a dynamic zone, a single component, relation or media) is read once for all its aliases' fields.
    const aliases = def && def.args.length === 0 ? nodes.filter((n) => n.name.value === node.name.value) : [node];
    for (const n of aliases) scope.populated.add(n);
    const under: SelectionSetNode | undefined = aliases.length > 1 ? { kind: Kind.SELECTION_SET, selections: aliases.flatMap((n) => n.selectionSet?.selections ?? []) } : selectionUnder(node, info);
    if (attribute.kind === 'dynamiczone') {
      const nested = attribute.components.map((uid) => [uid, populateOf(scope.registry.component(uid) as Model, under, scope, info, level + 1)] as const);
      // `on` must list every component of the zone (one left out is dropped); `populate: '*'` when none needs more.
      populate[name] = nested.every(([, r]) => Object.keys(r.populate).length === 0) ? { populate: '*' } : { on: Object.fromEntries(nested.map(([uid, r]) => [uid, { populate: r.populate }])) };
      windows[name] = { start: null, limit: null, children: {}, on: Object.fromEntries(nested.map(([uid, r]) => [uid, r.windows])) };
      continue;
    }
    const target =
      attribute.kind === 'component' ? scope.registry.component(attribute.component)
      : attribute.kind === 'media' ? scope.registry.model(FILE_UID)
      : attribute.kind === 'relation' ? scope.registry.model(attribute.target)
      : model;
    if (!target) continue;
    const inner = populateOf(target, under, scope, info, level + 1);
    // A repeatable component takes a relation's arguments (Strapi's component resolver: filters, sort, a page of defaultLimit).
    const { entry, window } = def && def.args.length > 0 ? relationEntry(getArgumentValues(def, node, info.variableValues), scope) : { entry: {}, window: null };
    populate[name] = { ...entry, ...(attribute.kind === 'relation' && inner.fields ? { fields: inner.fields } : {}), populate: inner.populate };
    windows[name] = { start: window?.start ?? null, limit: window?.limit ?? null, children: inner.windows };
  }
  return { populate, windows, fields: selectedFields(model, nodes) };
}

/** The parsed populate with each relation's window set (REST's populate has no window keys). */
export function withWindows(map: PopulateMap, windows: Windows): PopulateMap {
  const out = new Map(map);
  for (const [name, node] of map) {
    const w = windows[name];
    if (!w) continue;
    const on = node.on && w.on ? new Map([...node.on].map(([uid, fragment]) => [uid, { ...fragment, populate: withWindows(fragment.populate, w.on?.[uid] ?? {}) }])) : node.on;
    out.set(name, { ...node, start: w.start ?? node.start, limit: w.limit ?? node.limit, populate: withWindows(node.populate, w.children), on });
  }
  return out;
}
