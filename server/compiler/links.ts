import { sql, type Expression, type SqlBool } from 'kysely';
import { FILES_RELATED_TABLE } from '../db/system-tables.js';
import type { Registry } from '../schema/registry.js';
import { isMorphTo, morphTableName } from '../schema/morphs.js';
import { FILE_UID, type Model } from '../schema/types.js';

/** A constant condition a link row must meet besides naming its owner (`field = 'cover'`). */
export interface FixedCondition {
  readonly column: string;
  readonly value: string;
}

/**
 * Where the rows one attribute links to live: `table` holds one row per link, `self` names the
 * owner's row id, `other` the linked row's id, `order` its position in the owner's list, and
 * `fixed` the constant conditions that pick this attribute's links out of a shared table (a
 * component's field and type, a media field's owner type and name). `target` is the linked rows'
 * model, or null when each link names its own (`type`: a dynamic zone, a morph-to side).
 */
export interface Link {
  readonly table: string;
  readonly self: string;
  readonly other: string;
  readonly order: string;
  readonly fixed: readonly FixedCondition[];
  readonly target: Model | null;
  /** The column naming the linked row's model when `target` is null. */
  readonly type: string | null;
}

const links = new WeakMap<Registry, WeakMap<Model, Map<string, Link | null>>>();

/**
 * The one description of how `attribute` of `model` links rows (relations, components, dynamic
 * zones, media, both sides of morph relations), or null for an attribute that links nothing.
 * Filters, sorts, counts, pages and populate all join through it. Cached per registry and model.
 */
export function linkOf(registry: Registry, model: Model, attribute: string): Link | null {
  let byModel = links.get(registry);
  if (!byModel) links.set(registry, (byModel = new WeakMap()));
  let byName = byModel.get(model);
  if (!byName) byModel.set(model, (byName = new Map()));
  let link = byName.get(attribute);
  if (link === undefined) byName.set(attribute, (link = describe(registry, model, attribute)));
  return link;
}

function describe(registry: Registry, model: Model, name: string): Link | null {
  const morph = model.morphs?.get(name);
  if (morph) {
    if (isMorphTo(morph)) return { table: morphTableName(model, name), self: 'entity_id', other: 'related_id', order: 'ord', fixed: [], target: null, type: 'related_type' };
    const target = morph.target === undefined ? undefined : registry.model(morph.target);
    if (!target || morph.morphBy === undefined) return null;
    const fixed = [{ column: 'related_type', value: model.uid }];
    if (target.uid === FILE_UID && morph.morphBy === 'related') return { table: FILES_RELATED_TABLE, self: 'related_id', other: 'file_id', order: 'ord', fixed, target, type: null };
    return { table: morphTableName(target, morph.morphBy), self: 'related_id', other: 'entity_id', order: 'ord', fixed, target, type: null };
  }
  const attr = model.attributes.get(name);
  switch (attr?.kind) {
    case 'relation': {
      const target = registry.model(attr.target);
      if (!target) return null;
      const storage = registry.relationStorage(model, attr);
      return { table: storage.joinTable, self: storage.selfColumn, other: storage.otherColumn, order: storage.orderColumn, fixed: [], target, type: null };
    }
    case 'component': {
      const target = registry.component(attr.component);
      if (!target) return null;
      const fixed = [
        { column: 'field', value: name },
        { column: 'component_type', value: target.uid },
      ];
      return { table: registry.componentsTable(model), self: 'entity_id', other: 'cmp_id', order: 'ord', fixed, target, type: null };
    }
    case 'dynamiczone':
      return { table: registry.componentsTable(model), self: 'entity_id', other: 'cmp_id', order: 'ord', fixed: [{ column: 'field', value: name }], target: null, type: 'component_type' };
    case 'media': {
      const target = registry.model(FILE_UID);
      if (!target) return null;
      const fixed = [
        { column: 'related_type', value: model.uid },
        { column: 'field', value: name },
      ];
      return { table: FILES_RELATED_TABLE, self: 'related_id', other: 'file_id', order: 'ord', fixed, target, type: null };
    }
    default:
      return null;
  }
}

/**
 * The files' own `related` side (file -> entries and components linking it): the media link
 * table read from the file's end. Each link names the entry's model in `related_type`.
 */
export const FILES_RELATED_LINK: Link = { table: FILES_RELATED_TABLE, self: 'file_id', other: 'related_id', order: 'ord', fixed: [], target: null, type: 'related_type' };

/** The `fixed` conditions of a link on the link table aliased `alias`, values bound. */
export function fixedConditions(link: Link, alias: string): Expression<SqlBool>[] {
  return link.fixed.map((f) => sql<SqlBool>`${sql.ref(`${alias}.${f.column}`)} = ${f.value}`);
}
