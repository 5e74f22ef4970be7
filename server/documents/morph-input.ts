import { invalidKey, validationError } from '../errors/app-error.js';
import { isMorphTo, morphTableName } from '../schema/morphs.js';
import type { Registry } from '../schema/registry.js';
import type { Model } from '../schema/types.js';
import { counterpart } from './clone.js';
import { checkInverseInput, cloneInverseLinks, resolveInverseRefs, writeInverseMorphs } from './morph-inverse.js';
import { refKey, resolveRefs, type RelationRef } from './relations-input.js';
import { insertMany } from './batch-write.js';
import type { WriteEnv, WriteScope } from './store.js';
import { isRecord } from '../errors/is-record.js';
import { runWrite, writeRows } from './write-shapes.js';

/**
 * Writes of Strapi's morph-to relations (`morphToOne`, `morphToMany`): each element names its
 * type, `{ __type: 'api::x.x', id }` or `{ __type, documentId[, locale, status] }`, given as a
 * list (it replaces), one object, or `{ set, connect, disconnect }`. Links go to the target
 * versions a regular relation would reach, in `<collection>_<attribute>_mph`. Inverse sides
 * (`morphOne`, `morphMany`) are written into their target's table by morph-inverse.ts.
 */

/** One element of a morph-to input. */
interface MorphRef {
  readonly type: string;
  readonly ref: RelationRef;
}

/** What a body asks of one morph-to attribute. */
interface MorphInput {
  readonly set?: readonly MorphRef[];
  readonly connect?: readonly MorphRef[];
  readonly disconnect?: readonly MorphRef[];
}


/** Reads one element; null when it is not `{ __type, id | documentId }`. */
function element(value: unknown): MorphRef | null {
  if (!isRecord(value) || typeof value.__type !== 'string') return null;
  if (typeof value.documentId === 'string') {
    const extra = { ...(typeof value.locale === 'string' ? { locale: value.locale } : {}), ...(typeof value.status === 'string' ? { status: value.status } : {}) };
    return { type: value.__type, ref: { kind: 'document', documentId: value.documentId, ...extra } };
  }
  const id = typeof value.id === 'number' || typeof value.id === 'string' ? parseInt(String(value.id), 10) : Number.NaN;
  return Number.isInteger(id) ? { type: value.__type, ref: { kind: 'id', id } } : null;
}

/** Parses a morph-to value; an element that names no type or no entry is Strapi's `Invalid key <attr>`. */
function parseMorphInput(value: unknown, key: string, path: string): MorphInput | undefined {
  if (value === undefined) return undefined;
  if (value === null) return { set: [] };
  const list = (v: unknown): MorphRef[] =>
    (v === null || v === undefined ? [] : Array.isArray(v) ? v : [v]).map((item) => {
      const parsed = element(item);
      if (!parsed) throw invalidKey({ key, path, source: 'body' });
      return parsed;
    });
  if (isRecord(value) && ('set' in value || 'connect' in value || 'disconnect' in value)) {
    return {
      ...(value.set !== undefined && value.set !== null ? { set: list(value.set) } : {}),
      ...(value.connect !== undefined ? { connect: list(value.connect) } : {}),
      ...(value.disconnect !== undefined ? { disconnect: list(value.disconnect) } : {}),
    };
  }
  return { set: list(value) };
}

const allRefs = (input: MorphInput): MorphRef[] => [...(input.set ?? []), ...(input.connect ?? []), ...(input.disconnect ?? [])];

/**
 * Checks the morph keys of a body (at any depth the caller walks): every element's `__type` must
 * be a content type the caller may `find` (Strapi's restricted-relations check of inputs).
 */
export function checkMorphInput(model: Model, data: Record<string, unknown>, parentPath: string | null, registry: Registry, canRead?: (uid: string) => boolean): void {
  for (const morph of model.morphs?.values() ?? []) {
    const value = data[morph.name];
    if (value === undefined) continue;
    const path = parentPath === null ? morph.name : `${parentPath}.${morph.name}`;
    if (!isMorphTo(morph)) {
      checkInverseInput({ model, morph, parentPath, registry, canRead });
      continue;
    }
    const input = parseMorphInput(value, morph.name, path);
    for (const { type } of input ? allRefs(input) : []) {
      if (!registry.contentType(type) || (canRead && !canRead(type))) throw invalidKey({ key: morph.name, path, source: 'body' });
    }
  }
}

const morphKey = (m: MorphRef) => `morph:${m.type}:${refKey(m.ref)}`;

/** The row ids among `refs` that exist, per type: one query per type rather than one per element. */
async function existingIds(env: WriteEnv, refs: readonly MorphRef[]): Promise<Map<string, Set<number>>> {
  const out = new Map<string, Set<number>>();
  for (const type of new Set(refs.map((m) => m.type))) {
    const target = env.registry.contentType(type);
    const ids = [...new Set(refs.flatMap((m) => (m.type === type && m.ref.kind === 'id' ? [m.ref.id] : [])))];
    if (!target || ids.length === 0) continue;
    const rows = await env.db.selectFrom(target.table).select('id').where('id', 'in', ids).execute();
    out.set(type, new Set(rows.map((r) => Number(r.id))));
  }
  return out;
}

/**
 * Resolves the morph-to references of one body level into `into` (ids for each element, every
 * version a relation would reach). A documentId that matches nothing is Strapi's `Document with id
 * ... not found`; a row id that matches nothing is its relations check message.
 */
export async function resolveMorphRefs(env: WriteEnv, model: Model, data: Record<string, unknown>, scope: WriteScope, into: Map<string, number[]>): Promise<void> {
  await resolveInverseRefs(env, model, data, scope, into);
  for (const morph of model.morphs?.values() ?? []) {
    if (!isMorphTo(morph)) continue;
    const input = parseMorphInput(data[morph.name], morph.name, morph.name);
    const refs = input ? allRefs(input) : [];
    const existing = await existingIds(env, refs);
    for (const m of refs) {
      const target = env.registry.contentType(m.type);
      if (!target) continue;
      if (m.ref.kind === 'id') {
        if (!existing.get(m.type)?.has(m.ref.id)) throw validationError(`1 relation(s) of type ${m.type} associated with this entity do not exist`);
        into.set(morphKey(m), [m.ref.id]);
        continue;
      }
      const found = await resolveRefs(env.db, { source: model, target, sourceStatus: scope.status, sourceLocale: scope.locale, defaultLocale: env.defaultLocale, refs: [m.ref] });
      into.set(morphKey(m), found.get(refKey(m.ref)) ?? []);
    }
  }
}

interface Link {
  readonly type: string;
  readonly id: number;
}

/** Writes the morph-to attributes present in `data` for one row: its links are replaced in order. */
export async function writeMorphs(env: WriteEnv, model: Model, rowId: number, data: Record<string, unknown>, resolved: Map<string, number[]>): Promise<void> {
  await writeInverseMorphs(env, model, rowId, data, resolved);
  for (const morph of model.morphs?.values() ?? []) {
    if (!isMorphTo(morph)) continue;
    const input = parseMorphInput(data[morph.name], morph.name, morph.name);
    if (!input) continue;
    const table = morphTableName(model, morph.name);
    const ids = (m: MorphRef): Link[] => (resolved.get(morphKey(m)) ?? (m.ref.kind === 'id' ? [m.ref.id] : [])).map((id) => ({ type: m.type, id }));
    const current = await env.db.selectFrom(table).select(['related_type', 'related_id']).where('entity_id', '=', rowId).orderBy('ord').orderBy('id').execute();
    let links: Link[] = input.set ? input.set.flatMap(ids) : current.map((r) => ({ type: String(r.related_type), id: Number(r.related_id) }));
    const same = (a: Link) => (b: Link) => a.type === b.type && a.id === b.id;
    for (const gone of (input.disconnect ?? []).flatMap(ids)) links = links.filter((l) => !same(gone)(l));
    for (const added of (input.connect ?? []).flatMap(ids)) {
      links = links.filter((l) => !same(added)(l));
      links.push(added);
    }
    links = links.filter((l, i) => links.findIndex(same(l)) === i);
    // A morphToOne keeps one entry (both versions of it): the last connected, else the first set.
    const chosen = morph.relation === 'morphToOne' ? (input.connect?.at(-1) ?? input.set?.[0]) : undefined;
    if (chosen) links = ids(chosen);
    await env.db.deleteFrom(table).where('entity_id', '=', rowId).execute();
    await insertMany(env.db, table, links.map((link, i) => ({ entity_id: rowId, related_id: link.id, related_type: link.type, field: morph.name, ord: i + 1 })));
  }
}

/** Copies a row's morph links (both sides) onto its new version, each target mapped to that version's status. */
export async function cloneMorphLinks(env: WriteEnv, model: Model, fromId: number, toId: number, status: 'draft' | 'published'): Promise<void> {
  await cloneInverseLinks(env, model, fromId, toId, status);
  for (const morph of model.morphs?.values() ?? []) {
    if (!isMorphTo(morph)) continue;
    const table = morphTableName(model, morph.name);
    const links = await env.db.selectFrom(table).selectAll().where('entity_id', '=', fromId).orderBy('ord').orderBy('id').execute();
    const done = new Set<string>();
    for (const link of links) {
      const target = env.registry.contentType(String(link.related_type));
      const mapped = target ? await counterpart(env, target, Number(link.related_id), status) : null;
      if (mapped === null || done.has(`${String(link.related_type)}:${mapped}`)) continue;
      done.add(`${String(link.related_type)}:${mapped}`);
      await env.db.insertInto(table).values({ entity_id: toId, related_id: mapped, related_type: link.related_type, field: link.field, ord: link.ord }).execute();
    }
  }
}

/** Every morph-to table of the project (where rows of any type may be linked). */
function morphTables(registry: Registry): string[] {
  const out: string[] = [];
  for (const model of [...registry.contentTypes, ...registry.components]) {
    for (const morph of model.morphs?.values() ?? []) if (isMorphTo(morph)) out.push(morphTableName(model, morph.name));
  }
  return out;
}

/** A link another row holds to a row being replaced (publish, discard). */
export interface IncomingMorph {
  readonly table: string;
  readonly row: Record<string, unknown>;
}

/** Links other rows hold to a row being replaced, to point them at its new version. */
export async function captureIncomingMorphs(env: WriteEnv, model: Model, rowId: number): Promise<IncomingMorph[]> {
  const out: IncomingMorph[] = [];
  for (const table of morphTables(env.registry)) {
    const rows = await writeRows(env.db, `incoming-morphs|${table}`, [model.uid, rowId], () => env.db.selectFrom(table).selectAll().where('related_type', '=', model.uid).where('related_id', '=', rowId));
    for (const row of rows) out.push({ table, row });
  }
  return out;
}

/** Re-creates captured incoming morph links for the new row, in their places (once: the copy may already hold them). */
export async function restoreIncomingMorphs(env: WriteEnv, captured: readonly IncomingMorph[], newId: number): Promise<void> {
  for (const { table, row } of captured) {
    const { id: _id, ...values } = row;
    void _id;
    const held = await env.db
      .selectFrom(table)
      .select('id')
      .where('entity_id', '=', Number(row.entity_id))
      .where('related_type', '=', String(row.related_type))
      .where('related_id', '=', newId)
      .executeTakeFirst();
    if (held) continue;
    await env.db.insertInto(table).values({ ...values, related_id: newId }).execute();
  }
}

/** Deletes the links other rows hold to deleted rows (morph links have no foreign key to them). */
export async function deleteIncomingMorphs(env: WriteEnv, model: Model, rowIds: readonly number[]): Promise<void> {
  for (const table of morphTables(env.registry)) {
    await runWrite(env.db, `delete-incoming-morphs|${table}|${rowIds.length}`, [model.uid, ...rowIds], () =>
      env.db.deleteFrom(table).where('related_type', '=', model.uid).where('related_id', 'in', [...rowIds]),
    );
  }
}
