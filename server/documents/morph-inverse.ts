import { invalidKey, validationError } from '../errors/app-error.js';
import { isMorphTo, morphTableName, type MorphAttribute } from '../schema/morphs.js';
import type { Registry } from '../schema/registry.js';
import { FILE_UID, type ContentTypeModel, type Model } from '../schema/types.js';
import { counterpart } from './clone.js';
import { parseRelationInput, refKey, refsOf, resolveRefs, type Position, type RelationInput, type RelationRef } from './relations-input.js';
import type { WriteEnv, WriteScope } from './store.js';
import { insertMany } from './batch-write.js';

/**
 * Writes of the inverse side of a morph relation (`morphOne` / `morphMany`, e.g. a tag's `notes`
 * with `morphBy: 'targets'`), as Strapi's entity manager writes them: through the target's
 * morph-to table (`<target collection>_<morphBy>_mph`), one row per linked target with this row
 * as `related_id` / `related_type`, `field` the inverse attribute and `ord` its place in the
 * inverse list. The value is a relation's (ids, documentIds, `{ set, connect, disconnect }`) and
 * is checked as one: the target must be a type the caller may find, documentIds resolve to the
 * versions a relation would reach, unknown ids are the relations' 400. The media library's
 * `related` (an inverse side onto `plugin::upload.file`) is written by upload only.
 */

/** The writable inverse sides of a model, with their target type and its morph-to attribute. */
function inverseSides(registry: Registry, model: Model): { morph: MorphAttribute; target: ContentTypeModel; owner: MorphAttribute }[] {
  const out: { morph: MorphAttribute; target: ContentTypeModel; owner: MorphAttribute }[] = [];
  for (const morph of model.morphs?.values() ?? []) {
    if (isMorphTo(morph) || morph.target === undefined || morph.morphBy === undefined || morph.target === FILE_UID) continue;
    const target = registry.contentType(morph.target);
    const owner = target?.morphs?.get(morph.morphBy);
    if (target && owner) out.push({ morph, target, owner });
  }
  return out;
}

/**
 * Checks one inverse side of a body level: refused as `Invalid key <attr>` when it leads to the
 * media library or to a type the caller may not `find` (Strapi's restricted-relations check).
 */
export function checkInverseInput(args: { model: Model; morph: MorphAttribute; parentPath: string | null; registry: Registry; canRead?: (uid: string) => boolean }): void {
  const { model, morph, parentPath, registry, canRead } = args;
  const writable = inverseSides(registry, model).some((s) => s.morph.name === morph.name);
  if (!writable) throw invalidKey({ key: morph.name, path: parentPath, source: 'body' });
  if (canRead && morph.target !== undefined && !canRead(morph.target)) {
    throw invalidKey({ key: morph.name, path: parentPath === null ? morph.name : `${parentPath}.${morph.name}`, source: 'body' });
  }
}

const inverseKey = (uid: string, r: RelationRef) => `inverse:${uid}:${refKey(r)}`;

/**
 * Resolves the references of the inverse sides of one body level into `into`. A documentId that
 * matches nothing is `Document with id ... not found`; row ids that match nothing are Strapi's
 * relations check (`N relation(s) of type <uid> associated with this entity do not exist`).
 */
export async function resolveInverseRefs(env: WriteEnv, model: Model, data: Record<string, unknown>, scope: WriteScope, into: Map<string, number[]>): Promise<void> {
  for (const { morph, target } of inverseSides(env.registry, model)) {
    const input = parseRelationInput(data[morph.name]);
    if (!input) continue;
    const refs = refsOf(input);
    const ids = [...new Set(refs.flatMap((r) => (r.kind === 'id' ? [r.id] : [])))];
    if (ids.length > 0) {
      const found = await env.db.selectFrom(target.table).select('id').where('id', 'in', ids).execute();
      const missing = ids.length - found.length;
      if (missing > 0) throw validationError(`${missing} relation(s) of type ${target.uid} associated with this entity do not exist`);
    }
    const documents = refs.filter((r) => r.kind === 'document');
    const resolved = await resolveRefs(env.db, { source: model, target, sourceStatus: scope.status, sourceLocale: scope.locale, defaultLocale: env.defaultLocale, refs: documents });
    for (const r of refs) into.set(inverseKey(target.uid, r), resolved.get(refKey(r)) ?? (r.kind === 'id' ? [r.id] : []));
  }
}

/** Where a connected target goes in the list, by Strapi's `position` (end when none). */
function placeAt(list: number[], ids: readonly number[], position: Position | undefined, idsOf: (r: RelationRef) => number[]): number[] {
  const rest = list.filter((id) => !ids.includes(id));
  if (!position || position.kind === 'end') return [...rest, ...ids];
  if (position.kind === 'start') return [...ids, ...rest];
  const anchors = idsOf(position.ref);
  const at = rest.findIndex((id) => anchors.includes(id));
  if (at < 0) return [...rest, ...ids];
  const index = position.kind === 'before' ? at : at + 1;
  return [...rest.slice(0, index), ...ids, ...rest.slice(index)];
}

/** The target rows an inverse input leaves linked, in order, from the current ones. */
function nextTargets(input: RelationInput, current: readonly number[], idsOf: (r: RelationRef) => number[], one: boolean): number[] {
  let list = input.set ? input.set.flatMap(idsOf) : [...current];
  const gone = new Set((input.disconnect ?? []).flatMap(idsOf));
  list = list.filter((id) => !gone.has(id));
  for (const c of input.connect ?? []) list = placeAt(list, idsOf(c.ref), c.position, idsOf);
  list = list.filter((id, i) => list.indexOf(id) === i);
  if (!one) return list;
  // A morphOne keeps one target (both versions of it): the last connected, else the first set.
  const chosen = input.connect?.at(-1)?.ref ?? input.set?.[0];
  return chosen ? idsOf(chosen) : list.slice(0, 1);
}

/** Writes the inverse sides present in `data` for one row: its links in each target's morph table are replaced. */
export async function writeInverseMorphs(env: WriteEnv, model: Model, rowId: number, data: Record<string, unknown>, resolved: Map<string, number[]>): Promise<void> {
  for (const { morph, target, owner } of inverseSides(env.registry, model)) {
    const input = parseRelationInput(data[morph.name]);
    if (!input) continue;
    const table = morphTableName(target, owner.name);
    const idsOf = (r: RelationRef) => resolved.get(inverseKey(target.uid, r)) ?? (r.kind === 'id' ? [r.id] : []);
    const mine = env.db.deleteFrom(table).where('related_type', '=', model.uid).where('related_id', '=', rowId);
    const current = await env.db.selectFrom(table).select('entity_id').where('related_type', '=', model.uid).where('related_id', '=', rowId).orderBy('ord').orderBy('id').execute();
    const next = nextTargets(input, [...new Set(current.map((r) => Number(r.entity_id)))], idsOf, morph.relation === 'morphOne');
    await mine.execute();
    // A morphToOne target holds one entry: linking it here unlinks it from any other.
    if (owner.relation === 'morphToOne' && next.length > 0) await env.db.deleteFrom(table).where('entity_id', 'in', next).execute();
    await insertMany(env.db, table, next.map((entityId, i) => ({ entity_id: entityId, related_id: rowId, related_type: model.uid, field: morph.name, ord: i + 1 })));
  }
}

/**
 * Copies the links a row's inverse sides hold onto its new version (publish, discard draft), each
 * target mapped to that version's status; links the target already holds to the new row are kept.
 */
export async function cloneInverseLinks(env: WriteEnv, model: Model, fromId: number, toId: number, status: 'draft' | 'published'): Promise<void> {
  for (const { target, owner } of inverseSides(env.registry, model)) {
    const table = morphTableName(target, owner.name);
    const links = await env.db.selectFrom(table).selectAll().where('related_type', '=', model.uid).where('related_id', '=', fromId).orderBy('ord').orderBy('id').execute();
    for (const link of links) {
      const entityId = await counterpart(env, target, Number(link.entity_id), status);
      if (entityId === null) continue;
      let held = env.db.selectFrom(table).select('id').where('entity_id', '=', entityId);
      // A morphToOne target keeps one entry (both versions of it): one linked elsewhere stays so.
      held =
        owner.relation === 'morphToMany'
          ? held.where('related_type', '=', model.uid).where('related_id', '=', toId)
          : held.where((eb) => eb.or([eb('related_type', '<>', model.uid), eb('related_id', '<>', fromId)]));
      if (await held.executeTakeFirst()) continue;
      await env.db.insertInto(table).values({ entity_id: entityId, related_id: toId, related_type: model.uid, field: link.field, ord: link.ord }).execute();
    }
  }
}
