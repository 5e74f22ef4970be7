import type { Row } from '../db/database.js';
import { FILES_RELATED_TABLE } from '../db/system-tables.js';
import { FILE_UID, type ContentTypeModel, type Model } from '../schema/types.js';
import { chunked, insertMany, insertManyReturningIds, maxOrders, selectIn } from './batch-write.js';
import { type WriteEnv } from './store.js';
import { cloneMorphLinks } from './morph-input.js';
import { componentRowsOf } from './values-of.js';
import { writeRows } from './write-shapes.js';
import { WRITE_MAX_STATEMENT_PARAMETERS } from '../limits.js';

/** Maps a related row to its counterpart in the target publication state (or drops it). */
export async function counterpart(env: WriteEnv, target: Model, rowId: number, status: 'draft' | 'published'): Promise<number | null> {
  return (await counterparts(env, target, [rowId], status)).get(rowId) ?? null;
}

/** `counterpart` for many rows of one target in two statements: related row id -> its version in `status` (absent: dropped). */
export async function counterparts(env: WriteEnv, target: Model, rowIds: readonly number[], status: 'draft' | 'published'): Promise<Map<number, number>> {
  const out = new Map<number, number>();
  if (target.modelType !== 'contentType' || !target.draftAndPublish) {
    for (const id of rowIds) out.set(id, id);
    return out;
  }
  const rows: Row[] = [];
  for (const part of chunked([...new Set(rowIds)])) {
    rows.push(...(await writeRows(env.db, `versions-of|${target.table}|${part.length}`, part, () => env.db.selectFrom(target.table).select(['id', 'documentId', 'locale', 'publishedAt']).where('id', 'in', part))));
  }
  const other = rows.filter((r) => (r.publishedAt === null) !== (status === 'draft'));
  for (const r of rows) if ((r.publishedAt === null) === (status === 'draft')) out.set(Number(r.id), Number(r.id));
  const versionKey = (r: Row) => `${String(r.documentId)}\u0000${r.locale === null || r.locale === undefined ? '' : `=${String(r.locale)}`}`;
  const found = new Map<string, number>();
  for (const part of chunked([...new Set(other.map((r) => String(r.documentId)))])) {
    const versions = await writeRows(env.db, `versions|${target.table}|${status}|${part.length}`, part, () =>
      env.db.selectFrom(target.table).select(['id', 'documentId', 'locale']).where('documentId', 'in', part).where('publishedAt', status === 'draft' ? 'is' : 'is not', null).orderBy('id'),
    );
    for (const v of versions) if (!found.has(versionKey(v))) found.set(versionKey(v), Number(v.id));
  }
  for (const r of other) {
    const id = found.get(versionKey(r));
    if (id !== undefined) out.set(Number(r.id), id);
  }
  return out;
}

/** One row of the tree being copied: the root, or a component row below it. */
export interface CopyNode {
  readonly model: Model;
  readonly fromId: number;
  /** The component row's values (without id); null for the root, whose copy exists already. */
  readonly values: Row | null;
  /** Its component links in the order the copy writes them (field, ord, id), each with its subtree. */
  readonly children: { readonly link: Row; readonly node: CopyNode }[];
  readonly media: Row[];
  /** Owner-side relation links, per join table, in (ord, id) order. */
  readonly owned: Map<string, Row[]>;
}

const hasComponents = (model: Model, only?: (name: string) => boolean) =>
  [...model.attributes.values()].some((a) => (a.kind === 'component' || a.kind === 'dynamiczone') && (!only || only(a.name)));

const byModel = (nodes: readonly CopyNode[]): Map<Model, CopyNode[]> => {
  const out = new Map<Model, CopyNode[]>();
  for (const n of nodes) {
    const list = out.get(n.model);
    if (list) list.push(n);
    else out.set(n.model, [n]);
  }
  return out;
};

/** Reads one level of the tree (components, media, owner links of `nodes`) and returns the next level. */
async function readLevel(env: WriteEnv, nodes: readonly CopyNode[], only: ((name: string) => boolean) | undefined): Promise<CopyNode[]> {
  const next: CopyNode[] = [];
  const groups = byModel(nodes);
  const media = await mediaOf(env, groups);
  for (const [model, group] of groups) {
    const fromIds = group.map((n) => n.fromId);
    for (const n of group) n.media.push(...media.filter((m) => m.related_type === model.uid && Number(m.related_id) === n.fromId && (!only || only(String(m.field)))));
    if (!only) {
      for (const attr of model.attributes.values()) {
        if (attr.kind !== 'relation' || !attr.owner || !env.registry.model(attr.target)) continue;
        const table = env.registry.joinTable(model, attr.name);
        const links = await selectIn(env.db, { table, column: 'entity_id', values: fromIds, orderBy: ['ord', 'id'] });
        for (const n of group) n.owned.set(table, links.filter((l) => Number(l.entity_id) === n.fromId));
      }
    }
    if (!hasComponents(model, only)) continue;
    const links = (await selectIn(env.db, { table: env.registry.componentsTable(model), column: 'entity_id', values: fromIds, orderBy: ['field', 'ord', 'id'] })).filter(
      (l) => !only || only(String(l.field)),
    );
    const rows = await componentRowsOf(env, links);
    for (const n of group) {
      for (const link of links) {
        if (Number(link.entity_id) !== n.fromId) continue;
        const component = env.registry.component(String(link.component_type));
        const row = rows.get(String(link.component_type))?.get(Number(link.cmp_id));
        if (!component || !row) continue;
        const { id: _id, ...values } = row;
        void _id;
        const node: CopyNode = { model: component, fromId: Number(link.cmp_id), values, children: [], media: [], owned: new Map() };
        n.children.push({ link, node });
        next.push(node);
      }
    }
  }
  return next;
}

/**
 * The media links of a level's rows, in (field, ord, id) order: one statement for every model of
 * the level (each model's ids matched with its uid) while within the parameter limit.
 */
async function mediaOf(env: WriteEnv, groups: Map<Model, CopyNode[]>): Promise<Row[]> {
  const owners = [...groups].map(([model, group]) => ({ uid: model.uid, ids: [...new Set(group.map((n) => n.fromId))] }));
  const parameters = owners.flatMap((o) => [o.uid, ...o.ids]);
  if (parameters.length > WRITE_MAX_STATEMENT_PARAMETERS) {
    const out: Row[] = [];
    for (const o of owners) out.push(...(await selectIn(env.db, { table: FILES_RELATED_TABLE, column: 'related_id', values: o.ids, where: { related_type: o.uid }, orderBy: ['field', 'ord', 'id'] })));
    return out;
  }
  return writeRows(env.db, `level-media|${owners.map((o) => o.ids.length).join(',')}`, parameters, () =>
    env.db
      .selectFrom(FILES_RELATED_TABLE)
      .selectAll()
      .where((eb) => eb.or(owners.map((o) => eb.and([eb('related_type', '=', o.uid), eb('related_id', 'in', o.ids)]))))
      .orderBy('field')
      .orderBy('ord')
      .orderBy('id'),
  );
}

/** Owner links of the copied rows, with targets mapped to `status` and inverse orders as one-by-one inserts would give them. */
async function ownerRows(env: WriteEnv, order: readonly CopyNode[], ids: Map<CopyNode, number>, status: 'draft' | 'published', keep: Map<string, Map<number, number>>, root: CopyNode): Promise<Map<string, Row[]>> {
  const out = new Map<string, Row[]>();
  const mapped = new Map<string, Map<number, number>>();
  for (const [model, group] of byModel(order)) {
    for (const attr of model.attributes.values()) {
      const target = attr.kind === 'relation' && attr.owner ? env.registry.model(attr.target) : undefined;
      if (!target || attr.kind !== 'relation') continue;
      const table = env.registry.joinTable(model, attr.name);
      const targets = group.flatMap((n) => (n.owned.get(table) ?? []).map((l) => Number(l.target_id)));
      if (targets.length > 0) mapped.set(table, await counterparts(env, target, targets, status));
    }
  }
  const running = new Map<string, Map<number, number>>();
  for (const [table, map] of mapped) running.set(table, await maxOrders(env.db, { table, column: 'target_id', order: 'inv_ord', targets: [...map.values()] }));
  for (const node of order) {
    for (const [table, links] of node.owned) {
      const map = mapped.get(table);
      const max = running.get(table);
      if (!map || !max) continue;
      const previous = node === root ? (keep.get(table) ?? new Map<number, number>()) : new Map<number, number>();
      // A source without draft & publish (a component) links both versions of a target: both map to one row.
      const linked = new Set<number>();
      const list = out.get(table) ?? [];
      for (const link of links) {
        const target = map.get(Number(link.target_id));
        if (target === undefined || linked.has(target)) continue;
        linked.add(target);
        const invOrd = previous.get(target) ?? (max.get(target) ?? 0) + 1;
        max.set(target, Math.max(max.get(target) ?? 0, invOrd));
        list.push({ entity_id: ids.get(node), target_id: target, ord: link.ord, inv_ord: invOrd });
      }
      out.set(table, list);
    }
  }
  return out;
}

/**
 * Copies what hangs off a row (components deep, media, owner relations, morph links) onto another
 * row. The tree is read a level at a time and written a table at a time; each table receives its
 * rows in the order the former one-row-at-a-time copy gave them, so new ids are the same.
 */
export async function cloneChildren(env: WriteEnv, model: Model, fromId: number, toId: number, status: 'draft' | 'published', keepInverseOrder: Map<string, Map<number, number>>, only?: (name: string) => boolean): Promise<void> {
  await writeTree(env, await readTree(env, model, fromId, only), toId, status, keepInverseOrder, only);
}

/** Reads what hangs off row `fromId` of `model` (what `cloneChildren` copies), a level at a time. */
export async function readTree(env: WriteEnv, model: Model, fromId: number, only?: (name: string) => boolean): Promise<CopyNode> {
  const root: CopyNode = { model, fromId, values: null, children: [], media: [], owned: new Map() };
  let level: CopyNode[] = [root];
  let filter = only;
  while (level.length > 0) {
    level = await readLevel(env, level, filter);
    filter = undefined;
  }
  return root;
}

/** Writes a tree `readTree` read onto row `toId` (see `cloneChildren`). */
export async function writeTree(env: WriteEnv, root: CopyNode, toId: number, status: 'draft' | 'published', keepInverseOrder: Map<string, Map<number, number>>, only?: (name: string) => boolean): Promise<void> {
  // Component rows: pre-order, as each was inserted before its own children.
  const preOrder: CopyNode[] = [];
  const walk = (n: CopyNode) => {
    for (const c of n.children) {
      preOrder.push(c.node);
      walk(c.node);
    }
  };
  walk(root);
  const ids = new Map<CopyNode, number>([[root, toId]]);
  for (const [component, nodes] of byModel(preOrder)) {
    const newIds = await insertManyReturningIds(env.db, component.table, nodes.map((n) => n.values ?? {}));
    nodes.forEach((n, i) => ids.set(n, newIds[i] ?? 0));
  }
  // Links, media and relations: post-order, as each row's were written after its subtree.
  const postOrder: CopyNode[] = [];
  const tables = new Map<string, Row[]>();
  const add = (table: string, row: Row) => {
    const list = tables.get(table);
    if (list) list.push(row);
    else tables.set(table, [row]);
  };
  const after = (n: CopyNode) => {
    for (const c of n.children) {
      after(c.node);
      add(env.registry.componentsTable(n.model), { entity_id: ids.get(n), cmp_id: ids.get(c.node), component_type: c.link.component_type, field: c.link.field, ord: c.link.ord });
    }
    for (const m of n.media) add(FILES_RELATED_TABLE, { file_id: m.file_id, related_id: ids.get(n), related_type: n.model.uid, field: m.field, ord: m.ord });
    postOrder.push(n);
  };
  after(root);
  for (const [table, rows] of tables) await insertMany(env.db, table, rows);
  for (const [table, rows] of await ownerRows(env, postOrder, ids, status, keepInverseOrder, root)) await insertMany(env.db, table, rows);
  for (const n of postOrder) {
    if ((n === root && only) || (n.model.morphs?.size ?? 0) === 0) continue;
    await cloneMorphLinks(env, n.model, n.fromId, ids.get(n) ?? 0, status);
  }
}

/** A relation storage where rows of `model` are the *target* of links owned elsewhere. */
export interface IncomingTable {
  readonly table: string;
  /** Whether the owning side holds only one target per row (so a re-pointed link must stay unique). */
  readonly ownerToOne: boolean;
}

/** Every join table whose `target_id` points at rows of `model` (owned by any model or component). */
export function incomingTables(env: WriteEnv, model: ContentTypeModel): IncomingTable[] {
  const out: IncomingTable[] = [];
  for (const owner of [...env.registry.contentTypes, ...env.registry.components]) {
    for (const attr of owner.attributes.values()) {
      if (attr.kind === 'relation' && attr.owner && attr.target === model.uid) {
        out.push({ table: env.registry.joinTable(owner, attr.name), ownerToOne: !attr.toMany });
      }
    }
  }
  return out;
}

export type { Row };
export const isFileModel = (model: Model) => model.uid === FILE_UID;
