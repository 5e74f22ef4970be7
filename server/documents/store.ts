import { randomBytes } from 'node:crypto';
import type { RaisedEvents } from './events.js';
import type { Db, Row } from '../db/database.js';
import { FILES_RELATED_TABLE } from '../db/system-tables.js';
import { validationError } from '../errors/app-error.js';
import type { Registry } from '../schema/registry.js';
import { FILE_UID, type Attribute, type Model, type RelationAttribute } from '../schema/types.js';
import { parseRelationInput, refKey, refsOf, resolveRefs, type Position, type RelationInput, type RelationRef } from './relations-input.js';
import { scalarColumns } from './scalars.js';
import { chunked, insertMany, maxOrders } from './batch-write.js';
import { rowValues, runWrite, writeRows } from './write-shapes.js';
import { insertLeafItems } from './leaf-components.js';
import { resolveMorphRefs, writeMorphs } from './morph-input.js';
import { deleteComponents } from './delete-rows.js';
import { isRecord } from '../errors/is-record.js';

/** What writes need: the connection (or transaction), the registry, and the clock. */
export interface WriteEnv {
  readonly db: Db;
  readonly registry: Registry;
  readonly now: () => string;
  readonly defaultLocale: string;
  /** The admin user making the write (stored as createdBy/updatedBy); absent for other callers. */
  readonly author?: number | null;
  /** A create's unique-value lookups: whether published rows hold a value, as its draft's check read them (write-validation.ts). */
  readonly uniqueSeen?: Map<string, boolean>;
  /** The webhook events this transaction raises (events.ts); absent: the write raises none. */
  readonly events?: RaisedEvents;
}

/** Where a write happens: which version and locale relation inputs resolve against. */
export interface WriteScope {
  readonly status: 'draft' | 'published';
  readonly locale: string | null;
  /** The row was inserted by this write: it holds no links or components yet (ids are never reused), so none are read or deleted. */
  readonly fresh?: boolean;
}

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** A new 24-character lower-case alphanumeric documentId that starts with a letter (as cuid2's do). */
export function newDocumentId(): string {
  const bytes = randomBytes(24);
  let id = ALPHABET[(bytes[0] ?? 0) % 26] ?? 'a';
  for (let i = 1; i < 24; i++) id += ALPHABET[(bytes[i] ?? 0) % 36];
  return id;
}

export async function insertRow(db: Db, table: string, values: Record<string, unknown>): Promise<number> {
  // A component given as `{}` is a row of defaults: `INSERT INTO t () VALUES ()` is a syntax error.
  const columns = Object.keys(values);
  const query = () => (columns.length === 0 ? db.insertInto(table).defaultValues() : db.insertInto(table).values(values)).returning('id');
  const parameters = rowValues(columns, [values]);
  if (parameters === null) return Number((await query().executeTakeFirstOrThrow()).id);
  const [row] = await writeRows(db, `insert-row|${table}|${columns.join(',')}`, parameters, query);
  if (row === undefined) throw new Error(`no id returned by an insert into ${table}`);
  return Number(row.id);
}

// ---------------------------------------------------------------------------------------------
// Relations

interface Group {
  readonly ids: readonly number[];
}

/** The opposite attribute of a bidirectional relation, if any. */
function opposite(registry: Registry, attr: RelationAttribute): RelationAttribute | undefined {
  const other = attr.inversedBy ?? attr.mappedBy;
  if (!other) return undefined;
  const target = registry.model(attr.target);
  const a = target?.attributes.get(other);
  return a?.kind === 'relation' ? a : undefined;
}

function placeGroup(list: Group[], group: Group, position: Position | undefined, anchorIds: (r: RelationRef) => readonly number[]): void {
  const remaining = list.filter((g) => !g.ids.some((id) => group.ids.includes(id)));
  list.length = 0;
  list.push(...remaining);
  const indexOf = (r: RelationRef) => {
    const ids = anchorIds(r);
    return list.findIndex((g) => g.ids.some((id) => ids.includes(id)));
  };
  if (!position || position.kind === 'end') list.push(group);
  else if (position.kind === 'start') list.unshift(group);
  else {
    const at = indexOf(position.ref);
    if (at === -1) list.push(group);
    else list.splice(position.kind === 'before' ? at : at + 1, 0, group);
  }
}

/** Applies one relation input to a row: the link list is rebuilt in order, inverse orders kept. */
export async function applyRelation(env: WriteEnv, model: Model, rowId: number, attr: RelationAttribute, input: RelationInput, resolved: Map<string, number[]>, fresh = false): Promise<void> {
  const { db, registry } = env;
  const storage = registry.relationStorage(model, attr);
  const { joinTable: table, selfColumn: self, otherColumn: other, orderColumn: ord, inverseOrderColumn: invOrd } = storage;
  const current = fresh ? [] : await writeRows(db, `links|${table}|${self}|${other}|${ord}|${invOrd}`, [rowId], () =>
    db.selectFrom(table).select(['id', other, ord, invOrd]).where(self, '=', rowId).orderBy(ord).orderBy('id'),
  );
  const idsOf = (r: RelationRef) => resolved.get(refKey(r)) ?? (r.kind === 'id' ? [r.id] : []);
  let list: Group[];
  if (input.set) {
    list = [];
    for (const r of input.set) placeGroup(list, { ids: idsOf(r) }, undefined, idsOf);
  } else {
    list = current.map((row) => ({ ids: [Number(row[other])] }));
  }
  const dropped = new Set((input.disconnect ?? []).flatMap(idsOf));
  list = list.map((g) => ({ ids: g.ids.filter((id) => !dropped.has(id)) })).filter((g) => g.ids.length > 0);
  for (const c of input.connect ?? []) placeGroup(list, { ids: idsOf(c.ref) }, c.position, idsOf);
  list = list.filter((g) => g.ids.length > 0);
  if (!attr.toMany && list.length > 1) list = list.slice(-1);
  const wanted = list.flatMap((g) => g.ids);
  const keep = new Set(wanted);
  const existing = new Map(current.map((row) => [Number(row[other]), row]));
  const removed = current.filter((row) => !keep.has(Number(row[other]))).map((row) => Number(row.id));
  if (removed.length > 0) await db.deleteFrom(table).where('id', 'in', removed).execute();
  const added: { targetId: number; position: number }[] = [];
  for (const [index, targetId] of wanted.entries()) {
    const position = index + 1;
    const row = existing.get(targetId);
    if (!row) added.push({ targetId, position });
    else if (Number(row[ord]) !== position) await db.updateTable(table).set({ [ord]: position }).where('id', '=', Number(row.id)).execute();
  }
  if (added.length === 0) return;
  const targets = [...new Set(added.map((a) => a.targetId))];
  const oppositeAttr = opposite(registry, attr);
  // A to-one inverse side: each new target leaves the row it was linked from.
  if (oppositeAttr && !oppositeAttr.toMany) {
    for (const part of chunked(targets)) await db.deleteFrom(table).where(other, 'in', part).where(self, '<>', rowId).execute();
  }
  // Each new link goes last in its target's inverse list.
  const last = await maxOrders(db, { table, column: other, order: invOrd, targets });
  const rows = added.map(({ targetId, position }) => {
    const inv = (last.get(targetId) ?? 0) + 1;
    last.set(targetId, inv);
    return { [self]: rowId, [other]: targetId, [ord]: position, [invOrd]: inv };
  });
  await insertMany(db, table, rows);
}

// ---------------------------------------------------------------------------------------------
// Media

/** Sets the files of a media attribute (in order); ids are row ids of the media library. */
export async function applyMedia(env: WriteEnv, model: Model, rowId: number, name: string, fileIds: readonly number[], fresh = false): Promise<void> {
  if (!fresh) {
    await runWrite(env.db, 'delete-field-media', [model.uid, rowId, name], () =>
      env.db.deleteFrom(FILES_RELATED_TABLE).where('related_type', '=', model.uid).where('related_id', '=', rowId).where('field', '=', name),
    );
  }
  const rows = [...new Set(fileIds)].map((fileId, i) => ({ file_id: fileId, related_id: rowId, related_type: model.uid, field: name, ord: i + 1 }));
  await insertMany(env.db, FILES_RELATED_TABLE, rows);
}

/** Media input as ids: numbers are row ids, strings are file documentIds (resolved by the caller). */
export function mediaRefs(value: unknown): RelationRef[] {
  const input = parseRelationInput(value === null ? [] : value);
  return [...(input?.set ?? (input?.connect ?? []).map((c) => c.ref))];
}

// ---------------------------------------------------------------------------------------------
// Components

/** A component row linked from a row's attribute. */
export interface ComponentLink {
  readonly linkId: number;
  readonly cmpId: number;
  readonly uid: string;
}

async function componentLinks(env: WriteEnv, model: Model, rowId: number, field: string): Promise<ComponentLink[]> {
  const table = env.registry.componentsTable(model);
  const rows = await writeRows(env.db, `component-links|${table}`, [rowId, field], () =>
    env.db.selectFrom(table).select(['id', 'cmp_id', 'component_type']).where('entity_id', '=', rowId).where('field', '=', field).orderBy('ord').orderBy('id'),
  );
  return rows.map((r) => ({ linkId: Number(r.id), cmpId: Number(r.cmp_id), uid: String(r.component_type) }));
}

/**
 * Writes a component or dynamic-zone attribute: the given items replace the current ones; an item
 * carrying the `id` of one of this row's current components updates it in place.
 */
async function applyComponents(env: WriteEnv, model: Model, rowId: number, attr: Attribute, value: unknown, scope: WriteScope, resolved: Map<string, number[]>): Promise<void> {
  if (attr.kind !== 'component' && attr.kind !== 'dynamiczone') return;
  const items = value === null ? [] : Array.isArray(value) ? value : [value];
  const links = scope.fresh ? [] : await componentLinks(env, model, rowId, attr.name);
  const kept = new Set<number>();
  const next: { cmpId: number; uid: string }[] = [];
  const inserted = await insertLeafItems(env, attr, items, links);
  for (const [index, item] of items.entries()) {
    if (!isRecord(item)) continue;
    const early = inserted?.get(index);
    if (early) {
      next.push(early);
      continue;
    }
    const uid = attr.kind === 'component' ? attr.component : String(item.__component);
    const component = env.registry.component(uid);
    if (!component) continue;
    const givenId = item.id === undefined || item.id === null ? undefined : Number(item.id);
    const reuse = links.find((l) => l.cmpId === givenId && l.uid === uid && !kept.has(l.cmpId));
    let cmpId: number;
    if (reuse) {
      cmpId = reuse.cmpId;
      kept.add(cmpId);
      const values = await scalarColumns(component, item);
      if (Object.keys(values).length > 0) await env.db.updateTable(component.table).set(values).where('id', '=', cmpId).execute();
    } else {
      cmpId = await insertRow(env.db, component.table, await scalarColumns(component, item));
    }
    await writeRelational(env, component, cmpId, item, { ...scope, fresh: reuse === undefined }, resolved);
    next.push({ cmpId, uid });
  }
  const table = env.registry.componentsTable(model);
  if (!scope.fresh) {
    await runWrite(env.db, `delete-field-components|${table}`, [rowId, attr.name], () => env.db.deleteFrom(table).where('entity_id', '=', rowId).where('field', '=', attr.name));
  }
  for (const link of links) {
    if (kept.has(link.cmpId)) continue;
    const component = env.registry.component(link.uid);
    if (component) await deleteComponents(env, component, [link.cmpId]);
  }
  await insertMany(env.db, table, next.map((entry, i) => ({ entity_id: rowId, cmp_id: entry.cmpId, component_type: entry.uid, field: attr.name, ord: i + 1 })));
}

/** Writes every relational attribute present in `data` (relations, media, components) for one row. */
export async function writeRelational(env: WriteEnv, model: Model, rowId: number, data: Record<string, unknown>, scope: WriteScope, resolved: Map<string, number[]>): Promise<void> {
  for (const attr of model.attributes.values()) {
    const value = data[attr.name];
    if (value === undefined) continue;
    if (attr.kind === 'relation') {
      const input = parseRelationInput(value);
      if (input) await applyRelation(env, model, rowId, attr, input, resolved, scope.fresh);
    } else if (attr.kind === 'media') {
      const ids = mediaRefs(value).flatMap((r) => resolved.get(refKey(r)) ?? (r.kind === 'id' ? [r.id] : []));
      await applyMedia(env, model, rowId, attr.name, attr.multiple ? ids : ids.slice(0, 1), scope.fresh);
    } else if (attr.kind === 'component' || attr.kind === 'dynamiczone') {
      await applyComponents(env, model, rowId, attr, value, scope, resolved);
    }
  }
  await writeMorphs(env, model, rowId, data, resolved);
}

// ---------------------------------------------------------------------------------------------
// Resolving references before validation

/**
 * Resolves every documentId a body names (relations and media, inside components too), throwing
 * Strapi's `Document with id ... not found` for the first that matches nothing. Numeric ids are
 * kept as given; their existence is checked with the validation, as Strapi does.
 */
export async function resolveBodyRefs(env: WriteEnv, model: Model, data: unknown, scope: WriteScope, into = new Map<string, number[]>(), allowMissing = false): Promise<Map<string, number[]>> {
  if (!isRecord(data)) return into;
  await resolveMorphRefs(env, model, data, scope, into);
  for (const attr of model.attributes.values()) {
    const value = data[attr.name];
    if (value === undefined || value === null) continue;
    if (attr.kind === 'relation') {
      const input = parseRelationInput(value);
      const target = env.registry.contentType(attr.target);
      if (!input || !target) continue;
      const refs = refsOf(input);
      const found = await resolveRefs(env.db, {
        source: model,
        target,
        sourceStatus: scope.status,
        sourceLocale: scope.locale,
        defaultLocale: env.defaultLocale,
        refs,
        allowMissing,
      });
      for (const [r, ids] of found) into.set(r, ids);
    } else if (attr.kind === 'media') {
      const files = env.registry.contentType(FILE_UID);
      if (!files) continue;
      const found = await resolveRefs(env.db, {
        source: model,
        target: files,
        sourceStatus: 'published',
        sourceLocale: null,
        defaultLocale: env.defaultLocale,
        refs: mediaRefs(value),
        allowMissing,
      });
      for (const [r, ids] of found) into.set(r, ids);
    } else if (attr.kind === 'component' || attr.kind === 'dynamiczone') {
      const items = Array.isArray(value) ? value : [value];
      for (const item of items) {
        const uid = attr.kind === 'component' ? attr.component : isRecord(item) ? String(item.__component) : '';
        const component = env.registry.component(uid);
        if (component) await resolveBodyRefs(env, component, item, scope, into, allowMissing);
      }
    }
  }
  return into;
}

/**
 * Strapi's relations store refuses a dynamic-zone entry without a component identifier (its own
 * message); an entry that is no value at all fails like any other error there ("Invalid relations").
 */
function checkComponentIdentifier(item: unknown): void {
  if (item === null || item === undefined) throw new Error('dynamic zone entry is not an object');
  if (!isRecord(item) || !item.__component) throw validationError('Cannot build relations store from dynamiczone, component identifier is undefined');
}

/**
 * Strapi's relations check: numeric ids given for relations and media must exist.
 * Returns `N relation(s) of type <uid> associated with this entity do not exist`, or null.
 */
export async function missingRelations(env: WriteEnv, model: Model, data: unknown): Promise<string | null> {
  const wanted = new Map<string, Set<number>>();
  const collect = (m: Model, d: unknown) => {
    if (!isRecord(d)) return;
    for (const attr of m.attributes.values()) {
      const value = d[attr.name];
      if (value === undefined || value === null) continue;
      if (attr.kind === 'relation' || attr.kind === 'media') {
        const uid = attr.kind === 'relation' ? attr.target : FILE_UID;
        const input = attr.kind === 'media' ? { set: mediaRefs(value) } : parseRelationInput(value);
        for (const r of input ? refsOf(input) : []) {
          if (r.kind !== 'id') continue;
          const set = wanted.get(uid) ?? new Set<number>();
          set.add(r.id);
          wanted.set(uid, set);
        }
      } else if (attr.kind === 'component' || attr.kind === 'dynamiczone') {
        for (const item of Array.isArray(value) ? value : [value]) {
          if (attr.kind === 'dynamiczone') checkComponentIdentifier(item);
          const uid = attr.kind === 'component' ? attr.component : isRecord(item) ? String(item.__component) : '';
          const component = env.registry.component(uid);
          if (component) collect(component, item);
          else if (attr.kind === 'dynamiczone') throw new Error('unknown component');
        }
      }
    }
  };
  collect(model, data);
  for (const [uid, ids] of wanted) {
    const target = env.registry.model(uid);
    if (!target) continue;
    const rows = await env.db.selectFrom(target.table).select('id').where('id', 'in', [...ids]).execute();
    const missing = ids.size - rows.length;
    if (missing > 0) return `${missing} relation(s) of type ${uid} associated with this entity do not exist`;
  }
  return null;
}

export type { Row };
