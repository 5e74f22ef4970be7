import { identifier } from '../db/identifiers.js';
import { schemaError } from './parse.js';
import type { Model } from './types.js';
import { isRecord as isObject } from '../errors/is-record.js';

/**
 * Strapi's polymorphic relations. `morphToOne` / `morphToMany` point at entries of any type
 * (rows of `<collection>_<attribute>_mph`: `entity_id`, `related_id`, `related_type`, `field`,
 * `ord`, Strapi's morph join layout); `morphOne` / `morphMany` are their inverse sides, naming
 * the target type and its morph attribute (`morphBy`). They are kept apart from the attributes
 * the compiler serves (filters, sort and fields never reach them, as in Strapi's REST API).
 */

export const MORPH_KINDS = ['morphToOne', 'morphToMany', 'morphOne', 'morphMany'] as const;
export type MorphKind = (typeof MORPH_KINDS)[number];

/** One morph relation attribute as read from a schema. */
export interface MorphAttribute {
  readonly name: string;
  readonly relation: MorphKind;
  /** The inverse side's target type (`morphOne` / `morphMany`). */
  readonly target: string | undefined;
  /** The target's morph attribute this inverse side reads (`morphOne` / `morphMany`). */
  readonly morphBy: string | undefined;
  readonly raw: Readonly<Record<string, unknown>>;
}

type Json = Record<string, unknown>;

/** Whether a morph relation is a morph-to side (it owns a `_mph` table); otherwise it is an inverse side. */
export const isMorphTo = (m: MorphAttribute): boolean => m.relation === 'morphToOne' || m.relation === 'morphToMany';

/** Whether a raw attribute is a morph relation (parse.ts leaves those to parseMorphs). */
export const isMorphRaw = (raw: unknown): boolean =>
  isObject(raw) && raw.type === 'relation' && (MORPH_KINDS as readonly unknown[]).includes(raw.relation);

/** The morph relations of a schema's `attributes`, in schema order. */
export function parseMorphs(raw: Json, where: string): Map<string, MorphAttribute> {
  const out = new Map<string, MorphAttribute>();
  const attributes = isObject(raw.attributes) ? raw.attributes : {};
  for (const [name, value] of Object.entries(attributes)) {
    if (!isMorphRaw(value) || !isObject(value)) continue;
    const at = `${where}: attribute "${name}"`;
    const relation = value.relation as MorphKind;
    const inverse = relation === 'morphOne' || relation === 'morphMany';
    const target = value.target;
    const morphBy = value.morphBy;
    if (inverse && (typeof target !== 'string' || typeof morphBy !== 'string')) {
      throw schemaError(`${at}: a ${relation} relation needs "target" and "morphBy"`, { path: ['attributes', name] });
    }
    out.set(name, {
      name,
      relation,
      target: inverse ? String(target) : undefined,
      morphBy: inverse ? String(morphBy) : undefined,
      raw: value,
    });
  }
  return out;
}

/** The join table of a morphToOne / morphToMany attribute (Strapi's `_mph` suffix). */
export const morphTableName = (model: Model, attributeName: string): string => identifier(`${model.collectionName}_${attributeName}_mph`);

/**
 * Checks each inverse side names a morph-to attribute of a known type. The media library's
 * `related` (hearth_files_related) is the morph-to side of `plugin::upload.file`.
 */
export function checkMorphs(model: Model, byUid: ReadonlyMap<string, Model>, fileUid: string): void {
  for (const morph of model.morphs?.values() ?? []) {
    if (morph.target === undefined || morph.morphBy === undefined) continue;
    const at = `${model.uid}: attribute "${morph.name}"`;
    const target = byUid.get(morph.target);
    const place = { uid: model.uid, path: ['attributes', morph.name] };
    if (!target) throw schemaError(`${at}: relation target "${morph.target}" is not a known content type`, place);
    const other = target.morphs?.get(morph.morphBy);
    const isFilesRelated = target.uid === fileUid && morph.morphBy === 'related';
    if (!isFilesRelated && (other === undefined || !isMorphTo(other))) {
      throw schemaError(`${at}: "${target.uid}" has no morphToOne or morphToMany relation "${morph.morphBy}"`, place);
    }
  }
}
