import type { Row } from '../db/database.js';
import { FILES_RELATED_TABLE } from '../db/system-tables.js';
import { FILE_UID, type ContentTypeModel, type Model } from '../schema/types.js';
import { insertRow, type WriteEnv } from './store.js';
import { cloneMorphLinks } from './morph-input.js';

/** Maps a related row to its counterpart in the target publication state (or drops it). */
export async function counterpart(env: WriteEnv, target: Model, rowId: number, status: 'draft' | 'published'): Promise<number | null> {
  if (target.modelType !== 'contentType' || !target.draftAndPublish) return rowId;
  const row = await env.db.selectFrom(target.table).select(['documentId', 'locale', 'publishedAt']).where('id', '=', rowId).executeTakeFirst();
  if (!row) return null;
  if ((row.publishedAt === null) === (status === 'draft')) return rowId;
  const other = await env.db
    .selectFrom(target.table)
    .select('id')
    .where('documentId', '=', String(row.documentId))
    .where('locale', row.locale === null ? 'is' : '=', row.locale as string | null)
    .where('publishedAt', status === 'draft' ? 'is' : 'is not', null)
    .executeTakeFirst();
  return other ? Number(other.id) : null;
}

/** Copies the owner-side relation links of one row to another, mapping targets to `status`. */
async function cloneOwnerLinks(env: WriteEnv, model: Model, fromId: number, toId: number, status: 'draft' | 'published', keepInverseOrder: Map<string, Map<number, number>>): Promise<void> {
  for (const attr of model.attributes.values()) {
    if (attr.kind !== 'relation' || !attr.owner) continue;
    const target = env.registry.model(attr.target);
    if (!target) continue;
    const table = env.registry.joinTable(model, attr.name);
    const links = await env.db.selectFrom(table).selectAll().where('entity_id', '=', fromId).orderBy('ord').orderBy('id').execute();
    const previousOrders = keepInverseOrder.get(table) ?? new Map<number, number>();
    // A source without draft & publish (a component) links both versions of a target: both map to one row.
    const linked = new Set<number>();
    for (const link of links) {
      const mapped = await counterpart(env, target, Number(link.target_id), status);
      if (mapped === null || linked.has(mapped)) continue;
      linked.add(mapped);
      let invOrd = previousOrders.get(mapped);
      if (invOrd === undefined) {
        const last = await env.db.selectFrom(table).select((eb) => eb.fn.max('inv_ord').as('m')).where('target_id', '=', mapped).executeTakeFirst();
        invOrd = Number(last?.m ?? 0) + 1;
      }
      await env.db.insertInto(table).values({ entity_id: toId, target_id: mapped, ord: link.ord, inv_ord: invOrd }).execute();
    }
  }
}

/** Copies one component row (deep) and returns the new id. */
async function cloneComponent(env: WriteEnv, uid: string, fromId: number, status: 'draft' | 'published'): Promise<number | null> {
  const component = env.registry.component(uid);
  if (!component) return null;
  const row = await env.db.selectFrom(component.table).selectAll().where('id', '=', fromId).executeTakeFirst();
  if (!row) return null;
  const { id: _id, ...values } = row;
  void _id;
  const newId = await insertRow(env.db, component.table, values);
  await cloneChildren(env, component, fromId, newId, status, new Map());
  return newId;
}

/** Copies what hangs off a row (components, media, owner relations) onto another row. */
export async function cloneChildren(env: WriteEnv, model: Model, fromId: number, toId: number, status: 'draft' | 'published', keepInverseOrder: Map<string, Map<number, number>>, only?: (name: string) => boolean): Promise<void> {
  const hasComponents = [...model.attributes.values()].some((a) => (a.kind === 'component' || a.kind === 'dynamiczone') && (!only || only(a.name)));
  if (hasComponents) {
    const table = env.registry.componentsTable(model);
    let q = env.db.selectFrom(table).selectAll().where('entity_id', '=', fromId);
    q = q.orderBy('field').orderBy('ord').orderBy('id');
    for (const link of await q.execute()) {
      if (only && !only(String(link.field))) continue;
      const newCmp = await cloneComponent(env, String(link.component_type), Number(link.cmp_id), status);
      if (newCmp === null) continue;
      await env.db.insertInto(table).values({ entity_id: toId, cmp_id: newCmp, component_type: link.component_type, field: link.field, ord: link.ord }).execute();
    }
  }
  const media = await env.db
    .selectFrom(FILES_RELATED_TABLE)
    .selectAll()
    .where('related_type', '=', model.uid)
    .where('related_id', '=', fromId)
    .orderBy('field')
    .orderBy('ord')
    .execute();
  for (const link of media) {
    if (only && !only(String(link.field))) continue;
    await env.db.insertInto(FILES_RELATED_TABLE).values({ file_id: link.file_id, related_id: toId, related_type: model.uid, field: link.field, ord: link.ord }).execute();
  }
  if (!only) await cloneOwnerLinks(env, model, fromId, toId, status, keepInverseOrder);
  if (!only) await cloneMorphLinks(env, model, fromId, toId, status);
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
