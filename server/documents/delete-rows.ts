import type { Db } from '../db/database.js';
import { FILES_RELATED_TABLE } from '../db/system-tables.js';
import { WRITE_MAX_STATEMENT_PARAMETERS } from '../limits.js';
import type { ComponentModel, ContentTypeModel, Model } from '../schema/types.js';
import { deleteIncomingMorphs } from './morph-input.js';
import type { WriteEnv } from './store.js';
import { runWrite, writeRows } from './write-shapes.js';

/** Deleting rows of the write path: a content row or component with everything below it. */

/** Deletes what hangs off rows of `model`: their components (deep) and media links. Join links cascade. */
export async function deleteChildren(env: WriteEnv, model: Model, rowIds: readonly number[]): Promise<void> {
  if (rowIds.length === 0) return;
  const media: MediaOwners[] = [];
  await deleteBelow(env, model, rowIds, media);
  await deleteMediaOf(env, media);
}

/** Rows of one model whose media links go. */
interface MediaOwners {
  readonly uid: string;
  readonly ids: readonly number[];
}

/** `deleteChildren` without the media links, which it adds to `media` (deleted at the end, in one statement). */
async function deleteBelow(env: WriteEnv, model: Model, rowIds: readonly number[], media: MediaOwners[]): Promise<void> {
  const hasComponents = [...model.attributes.values()].some((a) => a.kind === 'component' || a.kind === 'dynamiczone');
  if (hasComponents) {
    const table = env.registry.componentsTable(model);
    const links = await writeRows(env.db, `children|${table}|${rowIds.length}`, rowIds, () => env.db.selectFrom(table).select(['cmp_id', 'component_type']).where('entity_id', 'in', [...rowIds]));
    await deleteIn(env.db, table, 'entity_id', rowIds);
    const byType = new Map<string, number[]>();
    for (const l of links) {
      const list = byType.get(String(l.component_type)) ?? [];
      list.push(Number(l.cmp_id));
      byType.set(String(l.component_type), list);
    }
    for (const [uid, ids] of byType) {
      const component = env.registry.component(uid);
      if (!component) continue;
      await deleteBelow(env, component, ids, media);
      await deleteIn(env.db, component.table, 'id', ids);
    }
  }
  media.push({ uid: model.uid, ids: rowIds });
  await deleteIncomingMorphs(env, model, rowIds);
}

/** Deletes the media links of rows of several models: one statement (each model's ids matched with its uid) while within the parameter limit. */
async function deleteMediaOf(env: WriteEnv, owners: readonly MediaOwners[]): Promise<void> {
  const parameters = owners.flatMap((o) => [o.uid, ...o.ids]);
  const groups = parameters.length <= WRITE_MAX_STATEMENT_PARAMETERS ? [owners] : owners.map((o) => [o]);
  for (const group of groups) {
    await runWrite(env.db, `delete-media|${group.map((o) => o.ids.length).join(',')}`, group.flatMap((o) => [o.uid, ...o.ids]), () =>
      env.db.deleteFrom(FILES_RELATED_TABLE).where((eb) => eb.or(group.map((o) => eb.and([eb('related_type', '=', o.uid), eb('related_id', 'in', [...o.ids])])))),
    );
  }
}

/** Deletes component rows and everything below them (nested components, links, media). */
export async function deleteComponents(env: WriteEnv, component: ComponentModel, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  await deleteChildren(env, component, ids);
  await deleteIn(env.db, component.table, 'id', ids);
}

/** Deletes content rows and everything hanging off them. */
export async function deleteRows(env: WriteEnv, model: ContentTypeModel, rowIds: readonly number[]): Promise<void> {
  if (rowIds.length === 0) return;
  await deleteChildren(env, model, rowIds);
  await deleteIn(env.db, model.table, 'id', rowIds);
}

/** `DELETE FROM table WHERE column IN (values)`, its text compiled once per shape. */
async function deleteIn(db: Db, table: string, column: string, values: readonly number[]): Promise<void> {
  await runWrite(db, `delete-in|${table}|${column}|${values.length}`, values, () => db.deleteFrom(table).where(column, 'in', [...values]));
}
