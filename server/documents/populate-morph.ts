import { sql, type SqlBool } from 'kysely';
import type { Row } from '../db/database.js';
import { compileFilter } from '../compiler/where.js';
import type { PopulateNode } from '../query/ast.js';
import { plainNode, populateAll } from '../query/populate.js';
import { isMorphTo, morphTableName, type MorphAttribute } from '../schema/morphs.js';
import { FILE_UID, type Model } from '../schema/types.js';
import { attach, chunks, columnsFor, fieldsFor, linkedRows, populateItems, statusCondition, unique, type Item, type PopulateEnv } from './populate.js';
import { serializeRow } from './serialize.js';

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

interface Link {
  readonly parent: number;
  readonly type: string;
  readonly id: number;
}

async function morphLinks(env: PopulateEnv, model: Model, parents: readonly Item[], morph: MorphAttribute, node: PopulateNode): Promise<Link[]> {
  const table = morphTableName(model, morph.name);
  const links: Link[] = [];
  for (const ids of chunks(unique(parents.map((p) => Number(p.row.id))))) {
    let q = env.db.selectFrom(table).select(['entity_id', 'related_id', 'related_type']).where('entity_id', 'in', ids);
    // With `on` fragments, only the types they name are read (Strapi's morphToMany populate).
    if (node.on) q = q.where('related_type', 'in', node.on.size > 0 ? [...node.on.keys()] : ['']);
    const rows = await q.orderBy('entity_id').orderBy('ord').orderBy('id').execute();
    links.push(...rows.map((r) => ({ parent: Number(r.entity_id), type: String(r.related_type), id: Number(r.related_id) })));
  }
  return links;
}

/** The serialised entries of one target type, by row id (rows not in the status being read are absent). */
async function entriesOfType(env: PopulateEnv, target: Model, ids: readonly number[], node: PopulateNode): Promise<Map<number, Record<string, unknown>>> {
  const fragment = node.on?.get(target.uid) ?? { ...plainNode(target.uid), populate: node.star ? populateAll(target) : new Map() };
  const fields = fieldsFor(target, fragment, true);
  const rows: Row[] = [];
  for (const chunk of chunks(unique(ids))) {
    let q = env.db.selectFrom(`${target.table} as t0`).select(columnsFor(target, fields).map((c) => `t0.${c}`)).where('t0.id', 'in', chunk);
    const status = statusCondition(target, 't0', env.status);
    if (status) q = q.where(status);
    const filters = fragment.filters;
    if (filters) q = q.where((eb) => compileFilter(env.ctx, eb, target, 't0', filters));
    rows.push(...(await q.execute()));
  }
  const items = rows.map((row) => ({ row, out: serializeRow(target, row, fields) }));
  await populateItems(env, target, items, fragment.populate);
  if (target.uid === FILE_UID && items.length > 0) await env.presentFiles(items.map((i) => i.out));
  return new Map(items.map((i) => [Number(i.row.id), { ...i.out, __type: target.uid }]));
}

async function populateMorphTo(env: PopulateEnv, model: Model, parents: readonly Item[], morph: MorphAttribute, node: PopulateNode): Promise<void> {
  const links = await morphLinks(env, model, parents, morph, node);
  const entries = new Map<string, Map<number, Record<string, unknown>>>();
  for (const type of new Set(links.map((l) => l.type))) {
    const target = env.ctx.registry.contentType(type);
    // A type removed from the schema, or one the caller may not find, gives no entries.
    if (!target || !env.canRead(type)) continue;
    entries.set(type, await entriesOfType(env, target, links.filter((l) => l.type === type).map((l) => l.id), node));
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

/** Where an inverse side finds its links: its target's `_mph` table, or the media library's own. */
function inverseStorage(model: Model, target: Model, morphBy: string): { table: string; otherColumn: string } {
  if (target.uid === FILE_UID && morphBy === 'related') return { table: 'hearth_files_related', otherColumn: 'file_id' };
  return { table: morphTableName(target, morphBy), otherColumn: 'entity_id' };
}

async function populateMorphInverse(env: PopulateEnv, model: Model, parents: readonly Item[], morph: MorphAttribute, node: PopulateNode): Promise<void> {
  const target = morph.target === undefined ? undefined : env.ctx.registry.model(morph.target);
  if (!target || morph.morphBy === undefined) return;
  // Media needs no permission of its own (as for media attributes); other targets need `find`.
  if (target.uid !== FILE_UID && !env.canRead(target.uid)) return;
  const storage = inverseStorage(model, target, morph.morphBy);
  const fields = fieldsFor(target, node, true);
  const rows = await linkedRows(env, {
    table: storage.table,
    selfColumn: 'related_id',
    otherColumn: storage.otherColumn,
    orderColumn: 'ord',
    where: ({ alias }) => [sql<SqlBool>`${sql.ref(`${alias}.related_type`)} = ${model.uid}`],
    target,
    node,
    parentIds: unique(parents.map((p) => Number(p.row.id))),
    columns: columnsFor(target, fields),
  });
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
