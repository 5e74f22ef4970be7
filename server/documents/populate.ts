import { sql, type SqlBool, type Expression } from 'kysely';
import type { Db, Row } from '../db/database.js';
import { compileFilter } from '../compiler/where.js';
import type { CompileContext } from '../compiler/context.js';
import type { PopulateMap, PopulateNode } from '../query/ast.js';
import { plainNode, populateAll } from '../query/populate.js';
import { lookupField } from '../schema/fields.js';
import { FILE_UID, type ComponentModel, type ContentTypeModel, type Model, type RelationAttribute } from '../schema/types.js';
import { defaultFields, serializeRow } from './serialize.js';
import { sortExpression } from './read.js';
import { populateMorph } from './populate-morph.js';

/** What populating needs besides the rows. */
export interface PopulateEnv {
  readonly db: Db;
  readonly ctx: CompileContext;
  readonly status: 'draft' | 'published';
  /** Whether the caller may read entries of a content type (Strapi drops relations it may not `find`). */
  readonly canRead: (uid: string) => boolean;
  /** Finishes populated media file objects (absolute or signed URLs). */
  readonly presentFiles: (files: Record<string, unknown>[]) => Promise<void>;
}

/** A serialised entry under construction, with the row it came from. */
export interface Item {
  readonly row: Row;
  readonly out: Record<string, unknown>;
}

const CHUNK = 500;
/** Splits ids into chunks small enough for one `IN (...)`. */
export const chunks = <T>(items: readonly T[]): T[][] => {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += CHUNK) out.push(items.slice(i, i + CHUNK));
  return out;
};
/** Each id once, first occurrence order. */
export const unique = (ids: Iterable<number>): number[] => [...new Set(ids)];

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

/** The publication-state condition for rows of a draft & publish type (null for others). */
export function statusCondition(model: Model, alias: string, status: 'draft' | 'published'): Expression<SqlBool> | null {
  if (model.modelType !== 'contentType' || !model.draftAndPublish) return null;
  return status === 'draft' ? sql<SqlBool>`${sql.ref(`${alias}.publishedAt`)} IS NULL` : sql<SqlBool>`${sql.ref(`${alias}.publishedAt`)} IS NOT NULL`;
}

/** Rows linked to `parentIds` through one link table, with the parent id and order of each link. */
export async function linkedRows(
  env: PopulateEnv,
  args: {
    table: string;
    selfColumn: string;
    otherColumn: string;
    orderColumn: string;
    where?: (q: { alias: string }) => Expression<SqlBool>[];
    target: Model;
    node: PopulateNode;
    parentIds: number[];
    columns: string[];
  },
): Promise<Row[]> {
  const { target, node } = args;
  const rows: Row[] = [];
  for (const ids of chunks(args.parentIds)) {
    let q = env.db
      .selectFrom(`${args.table} as l`)
      .innerJoin(`${target.table} as t0`, 't0.id', `l.${args.otherColumn}`)
      .select([`l.${args.selfColumn} as __parent`, ...args.columns.map((c) => `t0.${c}`)])
      .where(`l.${args.selfColumn}`, 'in', ids);
    const status = statusCondition(target, 't0', env.status);
    if (status) q = q.where(status);
    for (const cond of args.where?.({ alias: 'l' }) ?? []) q = q.where(cond);
    if (node.filters) {
      const filters = node.filters;
      q = q.where((eb) => compileFilter(env.ctx, eb, target, 't0', filters));
    }
    q = q.orderBy(`l.${args.selfColumn}`);
    for (const term of node.sort) {
      q = q.orderBy((eb) => sortExpression(env.ctx, eb, target, 't0', term.path), (ob) =>
        term.direction === 'asc' ? ob.asc().nullsFirst() : ob.desc().nullsLast(),
      );
    }
    q = q.orderBy(`l.${args.orderColumn}`).orderBy('l.id');
    rows.push(...(await q.execute()));
  }
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
  await populateItems(env, target, [...items.values()], node.populate);
  if (decorate) for (const item of items.values()) decorate(item.row, item.out);
  const byParent = new Map<number, Record<string, unknown>[]>();
  for (const row of rows) {
    const parent = Number(row.__parent);
    const item = items.get(Number(row.id));
    if (!item) continue;
    let list = byParent.get(parent);
    if (!list) byParent.set(parent, (list = []));
    list.push(item.out);
  }
  for (const parent of parents) {
    const list = byParent.get(Number(parent.row.id)) ?? [];
    parent.out[attribute] = many ? list : (list[0] ?? null);
  }
}

async function populateRelation(env: PopulateEnv, model: Model, parents: readonly Item[], attr: RelationAttribute, node: PopulateNode) {
  const target = env.ctx.registry.model(attr.target);
  if (!target || !env.canRead(target.uid)) return;
  const storage = env.ctx.registry.relationStorage(model, attr);
  const parentIds = unique(parents.map((p) => Number(p.row.id)));
  if (node.count) {
    const counts = new Map<number, number>();
    for (const ids of chunks(parentIds)) {
      let q = env.db
        .selectFrom(`${storage.joinTable} as l`)
        .innerJoin(`${target.table} as t0`, 't0.id', `l.${storage.otherColumn}`)
        .select([`l.${storage.selfColumn} as parent`, (eb) => eb.fn.count<number>('t0.id').distinct().as('count')])
        .where(`l.${storage.selfColumn}`, 'in', ids)
        .groupBy(`l.${storage.selfColumn}`);
      const status = statusCondition(target, 't0', env.status);
      if (status) q = q.where(status);
      const filters = node.filters;
      if (filters) q = q.where((eb) => compileFilter(env.ctx, eb, target, 't0', filters));
      for (const row of await q.execute()) counts.set(Number(row.parent), Number(row.count));
    }
    for (const p of parents) p.out[attr.name] = { count: counts.get(Number(p.row.id)) ?? 0 };
    return;
  }
  const fields = fieldsFor(target, node, true);
  const rows = await linkedRows(env, {
    table: storage.joinTable,
    selfColumn: storage.selfColumn,
    otherColumn: storage.otherColumn,
    orderColumn: storage.orderColumn,
    target,
    node,
    parentIds,
    columns: columnsFor(target, fields),
  });
  await attach(env, parents, attr.name, target, node, rows, attr.toMany, true);
}

async function populateMedia(env: PopulateEnv, model: Model, parents: readonly Item[], name: string, multiple: boolean, node: PopulateNode) {
  // Media needs no permission of its own: Strapi's restricted-relations check covers relations only.
  const files = env.ctx.registry.model(FILE_UID);
  if (!files) return;
  const fields = fieldsFor(files, node, true);
  const rows = await linkedRows(env, {
    table: 'hearth_files_related',
    selfColumn: 'related_id',
    otherColumn: 'file_id',
    orderColumn: 'ord',
    where: ({ alias }) => [
      sql<SqlBool>`${sql.ref(`${alias}.related_type`)} = ${model.uid}`,
      sql<SqlBool>`${sql.ref(`${alias}.field`)} = ${name}`,
    ],
    target: files,
    node,
    parentIds: unique(parents.map((p) => Number(p.row.id))),
    columns: columnsFor(files, fields),
  });
  await attach(env, parents, name, files, node, rows, multiple, true);
  const presented = new Set<Record<string, unknown>>();
  for (const parent of parents) {
    const value = parent.out[name];
    for (const file of Array.isArray(value) ? value : value ? [value] : []) presented.add(file as Record<string, unknown>);
  }
  if (presented.size > 0) await env.presentFiles([...presented]);
}

async function populateComponent(env: PopulateEnv, model: Model, parents: readonly Item[], name: string, component: ComponentModel, repeatable: boolean, node: PopulateNode) {
  const rows = await linkedRows(env, {
    table: env.ctx.registry.componentsTable(model),
    selfColumn: 'entity_id',
    otherColumn: 'cmp_id',
    orderColumn: 'ord',
    where: ({ alias }) => [
      sql<SqlBool>`${sql.ref(`${alias}.field`)} = ${name}`,
      sql<SqlBool>`${sql.ref(`${alias}.component_type`)} = ${component.uid}`,
    ],
    target: component,
    node,
    parentIds: unique(parents.map((p) => Number(p.row.id))),
    columns: columnsFor(component, fieldsFor(component, node, false)),
  });
  await attach(env, parents, name, component, node, rows, repeatable, false);
}

async function populateDynamicZone(env: PopulateEnv, model: Model, parents: readonly Item[], name: string, components: readonly string[], node: PopulateNode) {
  const table = env.ctx.registry.componentsTable(model);
  const parentIds = unique(parents.map((p) => Number(p.row.id)));
  const links: Row[] = [];
  for (const ids of chunks(parentIds)) {
    links.push(
      ...(await env.db
        .selectFrom(`${table} as l`)
        .select(['l.entity_id', 'l.cmp_id', 'l.component_type', 'l.ord', 'l.id'])
        .where('l.entity_id', 'in', ids)
        .where('l.field', '=', name)
        .orderBy('l.entity_id')
        .orderBy('l.ord')
        .orderBy('l.id')
        .execute()),
    );
  }
  const entries = new Map<string, Map<number, Record<string, unknown>>>();
  for (const uid of components) {
    if (node.on && !node.on.has(uid)) continue;
    const component = env.ctx.registry.component(uid);
    if (!component) continue;
    const ids = unique(links.filter((l) => l.component_type === uid).map((l) => Number(l.cmp_id)));
    if (ids.length === 0) continue;
    const fragment = node.on?.get(uid) ?? { ...plainNode(uid), populate: node.star ? populateAll(component) : new Map() };
    const fields = fieldsFor(component, fragment, false);
    const rows: Row[] = [];
    for (const chunk of chunks(ids)) {
      rows.push(...(await env.db.selectFrom(`${component.table} as t0`).select(columnsFor(component, fields).map((c) => `t0.${c}`)).where('t0.id', 'in', chunk).execute()));
    }
    const items = rows.map((row) => ({ row, out: serializeRow(component, row, fields) }));
    await populateItems(env, component, items, fragment.populate);
    const byId = new Map<number, Record<string, unknown>>();
    for (const item of items) byId.set(Number(item.row.id), { ...item.out, __component: uid });
    entries.set(uid, byId);
  }
  const byParent = new Map<number, Record<string, unknown>[]>();
  for (const link of links) {
    const entry = entries.get(String(link.component_type))?.get(Number(link.cmp_id));
    if (!entry) continue;
    const parent = Number(link.entity_id);
    let list = byParent.get(parent);
    if (!list) byParent.set(parent, (list = []));
    list.push(entry);
  }
  for (const parent of parents) parent.out[name] = byParent.get(Number(parent.row.id)) ?? [];
}

async function populateLocalizations(env: PopulateEnv, model: ContentTypeModel, parents: readonly Item[], node: PopulateNode) {
  const fields = fieldsFor(model, node, true);
  const documentIds = [...new Set(parents.map((p) => String(p.row.documentId)))];
  const rows: Row[] = [];
  for (const ids of chunks(documentIds)) {
    let q = env.db.selectFrom(`${model.table} as t0`).select(columnsFor(model, fields).map((c) => `t0.${c}`)).where('t0.documentId', 'in', ids);
    const status = statusCondition(model, 't0', env.status);
    if (status) q = q.where(status);
    else q = q.where('t0.publishedAt', 'is not', null);
    const filters = node.filters;
    if (filters) q = q.where((eb) => compileFilter(env.ctx, eb, model, 't0', filters));
    rows.push(...(await q.orderBy('t0.id').execute()));
  }
  const items = rows.map((row) => ({ row, out: serializeRow(model, row, fields) }));
  await populateItems(env, model, items, node.populate);
  for (const parent of parents) {
    parent.out.localizations = items
      .filter((i) => i.row.documentId === parent.row.documentId && i.row.locale !== parent.row.locale)
      .map((i) => i.out);
  }
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
        await populateRelation(env, model, parents, attr, node);
        break;
      case 'media':
        await populateMedia(env, model, parents, attr.name, attr.multiple, node);
        break;
      case 'component': {
        const component = env.ctx.registry.component(attr.component);
        if (component) await populateComponent(env, model, parents, attr.name, component, attr.repeatable, node);
        break;
      }
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
