import type { Row } from '../db/database.js';
import type { ContentTypeModel } from '../schema/types.js';
import { counterpart, incomingTables, readTree, writeTree, type CopyNode } from './clone.js';
import { insertRow, type WriteEnv } from './store.js';
import { deleteRows } from './delete-rows.js';
import { insertMany, selectIn } from './batch-write.js';
import { captureIncomingMorphs, restoreIncomingMorphs } from './morph-input.js';
import { writeRows } from './write-shapes.js';

/** Captured links of the row being replaced, so the new row takes its place in other lists. */
interface Captured {
  /** Links from other rows to the old row: table -> rows. */
  readonly incoming: Map<string, Row[]>;
  /** Our position in each target's inverse list: table -> target id -> inv_ord. */
  readonly inverseOrder: Map<string, Map<number, number>>;
}

async function capture(env: WriteEnv, model: ContentTypeModel, oldId: number): Promise<Captured> {
  const incoming = new Map<string, Row[]>();
  for (const { table } of incomingTables(env, model)) {
    incoming.set(table, await writeRows(env.db, `incoming|${table}`, [oldId], () => env.db.selectFrom(table).selectAll().where('target_id', '=', oldId)));
  }
  const inverseOrder = new Map<string, Map<number, number>>();
  for (const attr of model.attributes.values()) {
    if (attr.kind !== 'relation' || !attr.owner) continue;
    const table = env.registry.joinTable(model, attr.name);
    const rows = await writeRows(env.db, `inverse-order|${table}`, [oldId], () => env.db.selectFrom(table).select(['target_id', 'inv_ord']).where('entity_id', '=', oldId));
    inverseOrder.set(table, new Map(rows.map((r) => [Number(r.target_id), Number(r.inv_ord)])));
  }
  return { incoming, inverseOrder };
}

/** Re-creates, for the new row, the links other rows had to the replaced one (order kept). */
async function restoreIncoming(env: WriteEnv, captured: Captured, newId: number): Promise<void> {
  for (const [table, rows] of captured.incoming) {
    if (rows.length === 0) continue;
    // Sources that already link the new row (the copy's own links) keep theirs; each source links it once.
    const held = new Set((await selectIn(env.db, { table, column: 'entity_id', values: rows.map((r) => Number(r.entity_id)), where: { target_id: newId } })).map((r) => Number(r.entity_id)));
    const restored: Row[] = [];
    for (const row of rows) {
      if (held.has(Number(row.entity_id))) continue;
      held.add(Number(row.entity_id));
      restored.push({ entity_id: row.entity_id, target_id: newId, ord: row.ord, inv_ord: row.inv_ord });
    }
    await insertMany(env.db, table, restored);
  }
}

/**
 * Links from other documents' drafts to our draft are mirrored between the published versions
 * (mapping each source to its published row), when that keeps a to-one owner side to-one.
 */
async function mirrorInverse(env: WriteEnv, model: ContentTypeModel, draftId: number, newId: number, status: 'draft' | 'published'): Promise<void> {
  for (const owner of [...env.registry.contentTypes]) {
    for (const attr of owner.attributes.values()) {
      if (attr.kind !== 'relation' || !attr.owner || attr.target !== model.uid || !attr.inversedBy) continue;
      const table = env.registry.joinTable(owner, attr.name);
      const links = await writeRows(env.db, `mirror|${table}`, [draftId], () => env.db.selectFrom(table).selectAll().where('target_id', '=', draftId).orderBy('inv_ord'));
      for (const link of links) {
        const source = await counterpart(env, owner, Number(link.entity_id), status);
        if (source === null || source === Number(link.entity_id)) continue;
        const already = await env.db.selectFrom(table).select('id').where('entity_id', '=', source).where('target_id', '=', newId).executeTakeFirst();
        if (already) continue;
        if (!attr.toMany) {
          const other = await env.db.selectFrom(table).select('id').where('entity_id', '=', source).executeTakeFirst();
          if (other) continue;
        }
        const last = await env.db.selectFrom(table).select((eb) => eb.fn.max('ord').as('m')).where('entity_id', '=', source).executeTakeFirst();
        await env.db.insertInto(table).values({ entity_id: source, target_id: newId, ord: Number(last?.m ?? 0) + 1, inv_ord: link.inv_ord }).execute();
      }
    }
  }
}

/**
 * Copies the row `fromId` into a new row in publication state `status`, replacing `replaceId`
 * (if any) as Strapi's publish and discard-draft do: the old version is deleted, the copy takes
 * its place in every list that pointed to it, and relations follow to `status` versions.
 */
export async function copyVersion(env: WriteEnv, model: ContentTypeModel, args: CopyArgs): Promise<number> {
  return (await copyVersionRow(env, model, args)).id;
}

interface CopyArgs {
  readonly fromId: number;
  readonly replaceId: number | null;
  readonly status: 'draft' | 'published';
  readonly publishedAt: string | null;
  /** Checks the row being copied, given what hangs off it (read once, for the check and the copy). */
  readonly validate?: (tree: CopyNode) => Promise<void>;
  /** The row `fromId` as the caller has just read it (saves reading it again). */
  readonly source?: Row;
}

/**
 * `copyVersion`, also giving the new row as a read of it would: the source's columns (as read)
 * with the new id and publishedAt, in the same order.
 */
export async function copyVersionRow(env: WriteEnv, model: ContentTypeModel, args: CopyArgs): Promise<{ id: number; row: Row }> {
  const captured = args.replaceId === null ? { incoming: new Map(), inverseOrder: new Map() } : await capture(env, model, args.replaceId);
  const morphs = args.replaceId === null ? [] : await captureIncomingMorphs(env, model, args.replaceId);
  if (args.replaceId !== null) await deleteRows(env, model, [args.replaceId]);
  const tree = await readTree(env, model, args.fromId);
  if (args.validate) await args.validate(tree);
  const source = args.source ?? (await writeRows(env.db, `row|${model.table}`, [args.fromId], () => env.db.selectFrom(model.table).selectAll().where('id', '=', args.fromId)))[0];
  if (source === undefined) throw new Error(`no row ${args.fromId} in ${model.table} to copy`);
  const { id: _id, ...values } = source;
  void _id;
  const newId = await insertRow(env.db, model.table, { ...values, publishedAt: args.publishedAt });
  await writeTree(env, tree, newId, args.status, captured.inverseOrder);
  await restoreIncoming(env, captured, newId);
  await restoreIncomingMorphs(env, morphs, newId);
  await mirrorInverse(env, model, args.fromId, newId, args.status);
  return { id: newId, row: { id: newId, ...values, publishedAt: args.publishedAt } };
}
