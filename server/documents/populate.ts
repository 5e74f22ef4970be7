import type { Db, Row } from '../db/database.js';
import type { CompileContext } from '../compiler/context.js';
import { linkOf, type Link } from '../compiler/links.js';
import { countLinked, selectLinked, selectRowsByDocument, selectRowsById, selectTypedLinks, unique } from '../compiler/populate-select.js';
import type { PopulateMap, PopulateNode } from '../query/ast.js';
import { plainNode, populateAll } from '../query/populate.js';
import { lookupField } from '../schema/fields.js';
import { FILE_UID, type ContentTypeModel, type Model } from '../schema/types.js';
import { defaultFields, serializeRow } from './serialize.js';
import { populateMorph } from './populate-morph.js';
import { parentWeights, spend, weightOf, type PopulateBudget } from './populate-budget.js';

/** What populating needs besides the rows. */
export interface PopulateEnv {
  readonly db: Db;
  readonly ctx: CompileContext;
  readonly status: 'draft' | 'published';
  /** Whether the caller may read entries of a content type (Strapi drops relations it may not `find`). */
  readonly canRead: (uid: string) => boolean;
  /** Finishes populated media file objects (absolute or signed URLs). */
  readonly presentFiles: (files: Record<string, unknown>[]) => Promise<void>;
  /** The entries this read may still print (a populate that can outgrow the data); absent: not counted. */
  readonly budget?: PopulateBudget;
}

/** A serialised entry under construction, with the row it came from. */
export interface Item {
  readonly row: Row;
  readonly out: Record<string, unknown>;
  /** How many times the entry is printed (populate-budget.ts); absent: once. */
  readonly weight?: number;
}

/** Fields to print for populated entries; with a sort, Strapi prints the requested fields before id. */
export function fieldsFor(model: Model, node: PopulateNode, relation: boolean): readonly string[] {
  if (!node.fields) return defaultFields(model);
  if (relation && node.sort.length > 0) {
    const always = model.modelType === 'contentType' ? ['id', 'documentId'] : ['id'];
    return [...node.fields.filter((f) => !always.includes(f)), ...always];
  }
  return [...node.fields];
}

/** Columns to read: the printed fields plus what further population needs. */
export function columnsFor(model: Model, fields: readonly string[]): string[] {
  const set = new Set(['id', ...fields]);
  if (model.modelType === 'contentType' && model.uid !== FILE_UID) ['documentId', 'locale', 'publishedAt'].forEach((c) => set.add(c));
  return [...set];
}

/** Rows linked to `parentIds` through `link`, each with `__parent`, once per parent and windowed by the populate's start/limit. */
export async function linkedRows(env: PopulateEnv, args: { link: Link; target: Model; node: PopulateNode; parentIds: readonly number[]; columns: readonly string[] }): Promise<Row[]> {
  const { link, target, node } = args;
  const rows = await selectLinked(env.db, env.ctx, { link, target, status: env.status, filters: node.filters, sort: node.sort, parentIds: args.parentIds, columns: args.columns });
  return windowed(once(rows), node);
}

/**
 * Keeps each linked row once per parent: a source without draft & publish (a component) links
 * both versions of a target, and links copied by an older publish may both name one row.
 */
function once(rows: Row[]): Row[] {
  const seen = new Set<string>();
  return rows.filter((row) => {
    const key = `${String(row.__parent)}:${String(row.id)}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Applies a populate-level window (start/limit) to each parent's rows. */
function windowed(rows: Row[], node: PopulateNode): Row[] {
  if (node.start === null && node.limit === null) return rows;
  const seen = new Map<unknown, number>();
  return rows.filter((row) => {
    const n = seen.get(row.__parent) ?? 0;
    seen.set(row.__parent, n + 1);
    const start = node.start ?? 0;
    return n >= start && (node.limit === null || n < start + node.limit);
  });
}

/** Groups linked rows under their parents, serialising each related entry once. */
export async function attach(
  env: PopulateEnv,
  parents: readonly Item[],
  attribute: string,
  target: Model,
  node: PopulateNode,
  rows: Row[],
  many: boolean,
  relation: boolean,
  decorate?: (row: Row, out: Record<string, unknown>) => void,
): Promise<void> {
  const fields = fieldsFor(target, node, relation);
  const items = new Map<number, Item>();
  for (const row of rows) {
    const id = Number(row.id);
    if (!items.has(id)) items.set(id, { row, out: serializeRow(target, row, fields) });
  }
  const byParent = new Map<number, Item[]>();
  for (const row of rows) {
    const parent = Number(row.__parent);
    const item = items.get(Number(row.id));
    if (!item) continue;
    let list = byParent.get(parent);
    if (!list) byParent.set(parent, (list = []));
    list.push(item);
  }
  await populateItems(env, target, weighed(env, parents, byParent, many, [...items.values()]), node.populate);
  if (decorate) for (const item of items.values()) decorate(item.row, item.out);
  for (const parent of parents) {
    const list = (byParent.get(Number(parent.row.id)) ?? []).map((i) => i.out);
    parent.out[attribute] = many ? list : (list[0] ?? null);
  }
}

/** With a budget: counts the entries the parents print (a to-one prints its first) and weighs each by the parents printing it. */
function weighed(env: PopulateEnv, parents: readonly Item[], byParent: Map<number, Item[]>, many: boolean, items: Item[]): Item[] {
  if (!env.budget) return items;
  const weights = new Map<Item, number>();
  let printed = 0;
  for (const [id, w] of parentWeights(parents)) {
    const list = byParent.get(id) ?? [];
    for (const item of many ? list : list.slice(0, 1)) {
      weights.set(item, (weights.get(item) ?? 0) + w);
      printed += w;
    }
  }
  spend(env.budget, printed);
  return items.map((item) => ({ ...item, weight: weights.get(item) ?? 0 }));
}

const parentIdsOf = (parents: readonly Item[]): number[] => unique(parents.map((p) => Number(p.row.id)));

async function populateRelation(env: PopulateEnv, model: Model, parents: readonly Item[], name: string, many: boolean, node: PopulateNode) {
  const link = linkOf(env.ctx.registry, model, name);
  const target = link?.target;
  if (!link || !target || !env.canRead(target.uid)) return;
  const parentIds = parentIdsOf(parents);
  if (node.count) {
    const counts = await countLinked(env.db, env.ctx, { link, target, status: env.status, filters: node.filters, parentIds });
    for (const p of parents) p.out[name] = { count: counts.get(Number(p.row.id)) ?? 0 };
    return;
  }
  const rows = await linkedRows(env, { link, target, node, parentIds, columns: columnsFor(target, fieldsFor(target, node, true)) });
  await attach(env, parents, name, target, node, rows, many, true);
}

async function populateMedia(env: PopulateEnv, model: Model, parents: readonly Item[], name: string, multiple: boolean, node: PopulateNode) {
  // Media needs no permission of its own: Strapi's restricted-relations check covers relations only.
  const link = linkOf(env.ctx.registry, model, name);
  const files = link?.target;
  if (!link || !files) return;
  const rows = await linkedRows(env, { link, target: files, node, parentIds: parentIdsOf(parents), columns: columnsFor(files, fieldsFor(files, node, true)) });
  await attach(env, parents, name, files, node, rows, multiple, true);
  const presented = new Set<Record<string, unknown>>();
  for (const parent of parents) {
    const value = parent.out[name];
    for (const file of Array.isArray(value) ? value : value ? [value] : []) presented.add(file as Record<string, unknown>);
  }
  if (presented.size > 0) await env.presentFiles([...presented]);
}

async function populateComponent(env: PopulateEnv, model: Model, parents: readonly Item[], name: string, repeatable: boolean, node: PopulateNode) {
  const link = linkOf(env.ctx.registry, model, name);
  const component = link?.target;
  if (!link || !component) return;
  const rows = await linkedRows(env, { link, target: component, node, parentIds: parentIdsOf(parents), columns: columnsFor(component, fieldsFor(component, node, false)) });
  await attach(env, parents, name, component, node, rows, repeatable, false);
}

async function populateDynamicZone(env: PopulateEnv, model: Model, parents: readonly Item[], name: string, components: readonly string[], node: PopulateNode) {
  const link = linkOf(env.ctx.registry, model, name);
  if (!link) return;
  const links = await selectTypedLinks(env.db, link, parentIdsOf(parents));
  const weights = env.budget ? parentWeights(parents) : null;
  const entries = new Map<string, Map<number, Record<string, unknown>>>();
  for (const uid of components) {
    if (node.on && !node.on.has(uid)) continue;
    const component = env.ctx.registry.component(uid);
    if (!component) continue;
    const ids = unique(links.filter((l) => l.type === uid).map((l) => l.id));
    if (ids.length === 0) continue;
    const fragment = node.on?.get(uid) ?? { ...plainNode(uid), populate: node.star ? populateAll(component) : new Map() };
    const fields = fieldsFor(component, fragment, false);
    const rows = await selectRowsById(env.db, env.ctx, { model: component, ids, columns: columnsFor(component, fields), status: null, filters: null });
    const items = rows.map((row) => ({ row, out: serializeRow(component, row, fields) }));
    await populateItems(env, component, weights ? zoneWeighed(env, weights, links, uid, items) : items, fragment.populate);
    const byId = new Map<number, Record<string, unknown>>();
    for (const item of items) byId.set(Number(item.row.id), { ...item.out, __component: uid });
    entries.set(uid, byId);
  }
  const byParent = new Map<number, Record<string, unknown>[]>();
  for (const link of links) {
    const entry = entries.get(link.type)?.get(link.id);
    if (!entry) continue;
    let list = byParent.get(link.parent);
    if (!list) byParent.set(link.parent, (list = []));
    list.push(entry);
  }
  for (const parent of parents) parent.out[name] = byParent.get(Number(parent.row.id)) ?? [];
}

/** With a budget: counts a zone's entries of one component (`items`) once per link, weighed by the parent printing them. */
function zoneWeighed(env: PopulateEnv, parents: Map<number, number>, links: readonly { parent: number; type: string; id: number }[], uid: string, items: Item[]): Item[] {
  const found = new Map(items.map((i) => [Number(i.row.id), 0]));
  let printed = 0;
  for (const l of links) {
    const weight = found.get(l.id);
    if (l.type !== uid || weight === undefined) continue;
    const w = parents.get(l.parent) ?? 0;
    found.set(l.id, weight + w);
    printed += w;
  }
  spend(env.budget, printed);
  return items.map((i) => ({ ...i, weight: found.get(Number(i.row.id)) ?? 0 }));
}

async function populateLocalizations(env: PopulateEnv, model: ContentTypeModel, parents: readonly Item[], node: PopulateNode) {
  const fields = fieldsFor(model, node, true);
  const documentIds = [...new Set(parents.map((p) => String(p.row.documentId)))];
  const rows = await selectRowsByDocument(env.db, env.ctx, { model, documentIds, columns: columnsFor(model, fields), status: env.status, filters: node.filters });
  const items = rows.map((row) => ({ row, out: serializeRow(model, row, fields) }));
  const byParent = new Map<Item, Item[]>(parents.map((p) => [p, items.filter((i) => i.row.documentId === p.row.documentId && i.row.locale !== p.row.locale)]));
  await populateItems(env, model, localesWeighed(env, byParent, items), node.populate);
  for (const parent of parents) parent.out.localizations = (byParent.get(parent) ?? []).map((i) => i.out);
}

/** With a budget: counts each parent's other locales, weighed by the parents printing them. */
function localesWeighed(env: PopulateEnv, byParent: Map<Item, Item[]>, items: Item[]): Item[] {
  if (!env.budget) return items;
  const weights = new Map<Item, number>();
  let printed = 0;
  for (const [parent, list] of byParent) {
    for (const item of list) weights.set(item, (weights.get(item) ?? 0) + weightOf(parent));
    printed += list.length * weightOf(parent);
  }
  spend(env.budget, printed);
  return items.map((i) => ({ ...i, weight: weights.get(i) ?? 0 }));
}

/**
 * Populates `map` on already-serialised entries of `model`: one batched query per attribute and
 * level, never one per entry. Dynamic zones come last, as in Strapi's responses.
 */
export async function populateItems(env: PopulateEnv, model: Model, parents: readonly Item[], map: PopulateMap): Promise<void> {
  if (parents.length === 0 || map.size === 0) return;
  const ordered = [...map.values()].sort((a, b) => {
    const za = model.attributes.get(a.attribute)?.kind === 'dynamiczone' ? 1 : 0;
    const zb = model.attributes.get(b.attribute)?.kind === 'dynamiczone' ? 1 : 0;
    return za - zb;
  });
  for (const node of ordered) {
    const morph = model.morphs?.get(node.attribute);
    if (morph) {
      await populateMorph(env, model, parents, morph, node);
      continue;
    }
    const field = lookupField(model, node.attribute);
    if (!field || field.kind === 'scalar' || field.kind === 'hidden') continue;
    const attr = field.attribute;
    switch (attr.kind) {
      case 'relation':
        await populateRelation(env, model, parents, attr.name, attr.toMany, node);
        break;
      case 'media':
        await populateMedia(env, model, parents, attr.name, attr.multiple, node);
        break;
      case 'component':
        await populateComponent(env, model, parents, attr.name, attr.repeatable, node);
        break;
      case 'dynamiczone':
        await populateDynamicZone(env, model, parents, attr.name, attr.components, node);
        break;
      case 'localizations':
        if (model.modelType === 'contentType') await populateLocalizations(env, model, parents, node);
        break;
      case 'scalar':
        break;
    }
  }
}
