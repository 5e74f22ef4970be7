import type { MorphAttribute } from './morphs.js';
import type { DefaultPopulate } from './hearth-options.js';
import type { InertRelation } from './inert-relations.js';

/** Every scalar attribute type of Strapi 5. */
export const SCALAR_TYPES = [
  'string',
  'text',
  'richtext',
  'blocks',
  'email',
  'password',
  'uid',
  'enumeration',
  'integer',
  'biginteger',
  'float',
  'decimal',
  'boolean',
  'date',
  'time',
  'datetime',
  'timestamp',
  'json',
] as const;
export type ScalarType = (typeof SCALAR_TYPES)[number];

export const RELATION_KINDS = ['oneToOne', 'oneToMany', 'manyToOne', 'manyToMany', 'oneWay', 'manyWay'] as const;
export type RelationKind = (typeof RELATION_KINDS)[number];

/** What every attribute has, whatever its kind. */
interface AttributeCommon {
  readonly name: string;
  readonly required: boolean;
  readonly private: boolean;
  /** Localized inside a localized content type (relations and uids always are, as in Strapi). */
  readonly localized: boolean;
  /** The attribute as written in schema.json, kept so the builder can write it back unchanged. */
  readonly raw: Readonly<Record<string, unknown>>;
}

export interface ScalarAttribute extends AttributeCommon {
  readonly kind: 'scalar';
  readonly type: ScalarType;
  readonly unique: boolean;
  /** `undefined` when the schema gives no default. */
  readonly default: unknown;
  readonly min: number | undefined;
  readonly max: number | undefined;
  readonly minLength: number | undefined;
  readonly maxLength: number | undefined;
  readonly regex: string | undefined;
  readonly enum: readonly string[] | undefined;
  readonly targetField: string | undefined;
  /** A Strapi custom field (`type: "customField"` in schema.json), stored as `type`, its base type. */
  readonly customField?: CustomFieldUse;
}

/** The custom field an attribute is: its uid, and whether a table knew its base type (else `json`). */
export interface CustomFieldUse {
  readonly uid: string;
  readonly known: boolean;
}

export interface MediaAttribute extends AttributeCommon {
  readonly kind: 'media';
  readonly multiple: boolean;
  readonly allowedTypes: readonly string[] | undefined;
}

export interface RelationAttribute extends AttributeCommon {
  readonly kind: 'relation';
  readonly relation: RelationKind;
  readonly target: string;
  readonly inversedBy: string | undefined;
  readonly mappedBy: string | undefined;
  /** This side holds a list. */
  readonly toMany: boolean;
  /** This side owns the join rows (the side without `mappedBy`). */
  readonly owner: boolean;
}

export interface ComponentAttribute extends AttributeCommon {
  readonly kind: 'component';
  readonly component: string;
  readonly repeatable: boolean;
  readonly min: number | undefined;
  readonly max: number | undefined;
}

export interface DynamicZoneAttribute extends AttributeCommon {
  readonly kind: 'dynamiczone';
  readonly components: readonly string[];
  readonly min: number | undefined;
  readonly max: number | undefined;
}

/** The virtual `localizations` relation Strapi's i18n adds to localized types (never stored). */
export interface LocalizationsAttribute extends AttributeCommon {
  readonly kind: 'localizations';
}

export type Attribute =
  | ScalarAttribute
  | MediaAttribute
  | RelationAttribute
  | ComponentAttribute
  | DynamicZoneAttribute
  | LocalizationsAttribute;

/** Attributes that live in the model's own table. */
export const isScalar = (a: Attribute | undefined): a is ScalarAttribute => a?.kind === 'scalar';

/**
 * An index a schema declares in `indexes` (Strapi's experimental option), on Hearth's column
 * names, in the declared order.
 */
export interface DeclaredIndex {
  /** The name given in the schema (Hearth's SQL name is derived from it and the table). */
  readonly name: string;
  readonly columns: readonly string[];
  /** Declared `type: "unique"`: built as a plain index (uniqueness is the attribute's `unique` option). */
  readonly unique: boolean;
}

interface ModelCommon {
  readonly uid: string;
  /** The table holding the model's rows. */
  readonly table: string;
  /** `collectionName` from the schema (the table name before any shortening). */
  readonly collectionName: string;
  readonly displayName: string;
  readonly description: string;
  /** Attributes in schema order (plus `localizations` last on localized types). */
  readonly attributes: ReadonlyMap<string, Attribute>;
  /** The schema document as read, for the builder and the bookkeeping table. */
  readonly raw: Readonly<Record<string, unknown>>;
  /** Indexes the schema declares, beyond those Hearth always keeps. */
  readonly indexes: readonly DeclaredIndex[];
  /** Polymorphic relations (morphToOne, morphToMany, morphOne, morphMany), kept apart from `attributes`. */
  readonly morphs?: ReadonlyMap<string, MorphAttribute>;
  /** Relations left out of `attributes` (still in `raw`): their `mappedBy` names no attribute of their target (schema/inert-relations.ts). */
  readonly inertRelations?: readonly InertRelation[];
}

export interface ContentTypeModel extends ModelCommon {
  readonly modelType: 'contentType';
  readonly kind: 'collectionType' | 'singleType';
  readonly singularName: string;
  readonly pluralName: string;
  readonly draftAndPublish: boolean;
  readonly localized: boolean;
  /** True for Hearth's own models (the media library's files), which have no content API routes. */
  readonly builtIn: boolean;
  /** `pluginOptions.hearth.defaultPopulate`: the populate of `find` and `findOne` when a request sends none. */
  readonly defaultPopulate?: DefaultPopulate;
}

export interface ComponentModel extends ModelCommon {
  readonly modelType: 'component';
  readonly category: string;
}

export type Model = ContentTypeModel | ComponentModel;

/** The media library's file model, `plugin::upload.file`. */
export const FILE_UID = 'plugin::upload.file';

/** System columns of every content-type row (components have only `id`). */
export const SYSTEM_FIELDS = ['id', 'documentId', 'createdAt', 'updatedAt', 'publishedAt', 'locale'] as const;
