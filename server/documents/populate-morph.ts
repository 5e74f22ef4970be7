import { linkOf } from '../compiler/links.js';
import { selectRowsById, selectTypedLinks, unique, type TypedLink } from '../compiler/populate-select.js';
import type { PopulateNode } from '../query/ast.js';
import { plainNode, populateAll } from '../query/populate.js';
import { isMorphTo, type MorphAttribute } from '../schema/morphs.js';
import { FILE_UID, type Model } from '../schema/types.js';
import { attach, columnsFor, fieldsFor, linkedRows, populateItems, type Item, type PopulateEnv } from './populate.js';
import { serializeRow } from './serialize.js';
import { parentWeights, spend } from './populate-budget.js';

/**
 * Populate of Strapi's polymorphic relations. A morph-to side (`morphToOne`, `morphToMany`) reads
 * its `_mph` table in link order and prints each entry as `{ ...entry, __type: <uid> }` (the key
 * last, as Strapi 5.54 answers a file's `related`, which is a morphToMany too), one query per type, only the types of its `on` fragments when it has some, in the status being
 * read; types the caller may not `find` are left out (Strapi's restricted-relations sanitizer).
 * An inverse side (`morphOne`, `morphMany`) reads its target's morph-to table like a relation.
 */
export async function populateMorph(env: PopulateEnv, model: Model, parents: readonly Item[], morph: MorphAttribute, node: PopulateNode): Promise<void> {
  if (isMorphTo(morph)) await populateMorphTo(env, model, parents, morph, node);
  else await populateMorphInverse(env, model, parents, morph, node);
}

async function morphLinks(env: PopulateEnv, model: Model, parents: readonly Item[], morph: MorphAttribute, node: PopulateNode): Promise<TypedLink[]> {
  const link = linkOf(env.ctx.registry, model, morph.name);
  if (!link) return [];
  // With `on` fragments, only the types they name are read (Strapi's morphToMany populate).
  return selectTypedLinks(env.db, link, unique(parents.map((p) => Number(p.row.id))), node.on ? [...node.on.keys()] : undefined);
}

/** The serialised entries of one target type, by row id (rows not in the status being read are absent). */
async function entriesOfType(env: PopulateEnv, target: Model, ids: readonly number[], node: PopulateNode, weights: Map<number, number> | null): Promise<Map<number, Record<string, unknown>>> {
  const fragment = node.on?.get(target.uid) ?? { ...plainNode(target.uid), populate: node.star ? populateAll(target) : new Map() };
  const fields = fieldsFor(target, fragment, true);
  const rows = await selectRowsById(env.db, env.ctx, { model: target, ids, columns: columnsFor(target, fields), status: env.status, filters: fragment.filters });
  const items = rows.map((row) => ({ row, out: serializeRow(target, row, fields), weight: weights?.get(Number(row.id)) }));
  // Counted as linked (a morphToOne with two links counts both): at least what is printed.
  if (weights) spend(env.budget, items.reduce((n, i) => n + (i.weight ?? 0), 0));
  await populateItems(env, target, items, fragment.populate);
  if (target.uid === FILE_UID && items.length > 0) await env.presentFiles(items.map((i) => i.out));
  return new Map(items.map((i) => [Number(i.row.id), { ...i.out, __type: target.uid }]));
}

/** With a budget: by row id of `type`, the weights of the parents linking to it (each parent's link to a row once). */
function weighed(env: PopulateEnv, parents: readonly Item[], links: readonly TypedLink[], type: string): Map<number, number> | null {
  if (!env.budget) return null;
  const byParent = parentWeights(parents);
  const weights = new Map<number, number>();
  const seen = new Set<string>();
  for (const l of links) {
    const key = `${l.parent}:${l.id}`;
    if (l.type !== type || seen.has(key)) continue;
    seen.add(key);
    weights.set(l.id, (weights.get(l.id) ?? 0) + (byParent.get(l.parent) ?? 0));
  }
  return weights;
}

async function populateMorphTo(env: PopulateEnv, model: Model, parents: readonly Item[], morph: MorphAttribute, node: PopulateNode): Promise<void> {
  const links = await morphLinks(env, model, parents, morph, node);
  const entries = new Map<string, Map<number, Record<string, unknown>>>();
  for (const type of new Set(links.map((l) => l.type))) {
    const target = env.ctx.registry.contentType(type);
    // A type removed from the schema, or one the caller may not find, gives no entries.
    if (!target || !env.canRead(type)) continue;
    entries.set(type, await entriesOfType(env, target, links.filter((l) => l.type === type).map((l) => l.id), node, node.count ? null : weighed(env, parents, links, type)));
  }
  const byParent = new Map<number, Record<string, unknown>[]>();
  const seen = new Set<string>();
  for (const link of links) {
    const entry = entries.get(link.type)?.get(link.id);
    const key = `${link.parent}:${link.type}:${link.id}`;
    if (!entry || seen.has(key)) continue;
    seen.add(key);
    const list = byParent.get(link.parent) ?? [];
    list.push(entry);
    byParent.set(link.parent, list);
  }
  for (const parent of parents) {
    const list = byParent.get(Number(parent.row.id)) ?? [];
    if (node.count) parent.out[morph.name] = { count: list.length };
    else parent.out[morph.name] = morph.relation === 'morphToMany' ? list : (list[0] ?? null);
  }
}

async function populateMorphInverse(env: PopulateEnv, model: Model, parents: readonly Item[], morph: MorphAttribute, node: PopulateNode): Promise<void> {
  const link = linkOf(env.ctx.registry, model, morph.name);
  const target = link?.target;
  if (!link || !target) return;
  // Media needs no permission of its own (as for media attributes); other targets need `find`.
  if (target.uid !== FILE_UID && !env.canRead(target.uid)) return;
  const rows = await linkedRows(env, { link, target, node, parentIds: unique(parents.map((p) => Number(p.row.id))), columns: columnsFor(target, fieldsFor(target, node, true)) });
  const many = morph.relation === 'morphMany';
  if (node.count) {
    const counts = new Map<number, number>();
    for (const row of rows) counts.set(Number(row.__parent), (counts.get(Number(row.__parent)) ?? 0) + 1);
    for (const p of parents) p.out[morph.name] = { count: counts.get(Number(p.row.id)) ?? 0 };
    return;
  }
  await attach(env, parents, morph.name, target, node, rows, many, true);
  if (target.uid !== FILE_UID) return;
  const files = parents.flatMap((p) => {
    const value = p.out[morph.name];
    return (Array.isArray(value) ? value : value ? [value] : []) as Record<string, unknown>[];
  });
  if (files.length > 0) await env.presentFiles([...new Set(files)]);
}
