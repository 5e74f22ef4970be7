import { isRecord } from './decode';

/** Every attribute type of a Strapi 5 schema. */
export const ATTRIBUTE_TYPES = [
  'string', 'text', 'richtext', 'blocks', 'email', 'password', 'uid', 'enumeration',
  'integer', 'biginteger', 'float', 'decimal', 'boolean', 'date', 'time', 'datetime', 'timestamp',
  'json', 'media', 'relation', 'component', 'dynamiczone',
] as const;
/** One attribute type name. */
export type AttributeType = (typeof ATTRIBUTE_TYPES)[number];

/** Relation kinds a schema may name. */
export const RELATION_KINDS = ['oneWay', 'manyWay', 'oneToOne', 'oneToMany', 'manyToOne', 'manyToMany'] as const;
/** One relation kind. */
export type RelationKind = (typeof RELATION_KINDS)[number];

/** Media kinds an attribute may accept. */
export const MEDIA_KINDS = ['images', 'videos', 'audios', 'files'] as const;

/** One attribute of a schema: the known keys typed, everything else kept as it was read. */
export interface Attribute {
  readonly type: AttributeType;
  readonly required?: boolean;
  readonly unique?: boolean;
  readonly private?: boolean;
  readonly default?: unknown;
  readonly min?: number;
  readonly max?: number;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly regex?: string;
  readonly enum?: readonly string[];
  readonly multiple?: boolean;
  readonly allowedTypes?: readonly string[];
  readonly relation?: RelationKind;
  readonly target?: string;
  readonly inversedBy?: string;
  readonly mappedBy?: string;
  readonly component?: string;
  readonly repeatable?: boolean;
  readonly components?: readonly string[];
  readonly targetField?: string;
  readonly pluginOptions?: Record<string, unknown>;
  /**
   * A Strapi custom field's uid (`plugin::color-picker.color`): the server answers its base type in
   * `type`, so it is edited as that type; its `options` stay in `extra`, and the save writes it back
   * as a custom field.
   */
  readonly customField?: string;
  /** Keys the UI does not edit, written back unchanged. */
  readonly extra?: Record<string, unknown>;
}

/** A content-type or component schema, as in Strapi's schema.json. */
export interface Schema {
  readonly kind?: 'collectionType' | 'singleType';
  readonly collectionName?: string;
  readonly info: { readonly displayName: string; readonly singularName?: string; readonly pluralName?: string; readonly description?: string; readonly icon?: string };
  readonly options?: Record<string, unknown>;
  readonly pluginOptions?: Record<string, unknown>;
  readonly attributes: Readonly<Record<string, Attribute>>;
}

const KNOWN = new Set([
  'type', 'required', 'unique', 'private', 'default', 'min', 'max', 'minLength', 'maxLength', 'regex', 'enum',
  'multiple', 'allowedTypes', 'relation', 'target', 'inversedBy', 'mappedBy', 'component', 'repeatable',
  'components', 'targetField', 'pluginOptions', 'customField',
]);
const pickString = (v: unknown) => (typeof v === 'string' ? v : undefined);
const pickNumber = (v: unknown) => (typeof v === 'number' ? v : typeof v === 'string' && v !== '' && Number.isFinite(Number(v)) ? Number(v) : undefined);
const pickBool = (v: unknown) => (typeof v === 'boolean' ? v : undefined);
const pickStrings = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : undefined);
const isType = (v: unknown): v is AttributeType => ATTRIBUTE_TYPES.some((t) => t === v);
const isKind = (v: unknown): v is RelationKind => RELATION_KINDS.some((t) => t === v);

function dropUndefined<T extends object>(value: T): T {
  for (const key of Object.keys(value) as (keyof T)[]) if (value[key] === undefined) delete value[key];
  return value;
}

/** Reads one attribute; unknown types are kept as `json` so the form still shows something. */
export function readAttribute(raw: unknown): Attribute {
  const source = isRecord(raw) ? raw : {};
  const extra: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(source)) if (!KNOWN.has(k)) extra[k] = v;
  return dropUndefined({
    type: isType(source.type) ? source.type : 'json',
    required: pickBool(source.required),
    unique: pickBool(source.unique),
    private: pickBool(source.private),
    default: source.default,
    min: pickNumber(source.min),
    max: pickNumber(source.max),
    minLength: pickNumber(source.minLength),
    maxLength: pickNumber(source.maxLength),
    regex: pickString(source.regex),
    enum: pickStrings(source.enum),
    multiple: pickBool(source.multiple),
    allowedTypes: pickStrings(source.allowedTypes),
    relation: isKind(source.relation) ? source.relation : undefined,
    target: pickString(source.target),
    inversedBy: pickString(source.inversedBy),
    mappedBy: pickString(source.mappedBy),
    component: pickString(source.component),
    repeatable: pickBool(source.repeatable),
    components: pickStrings(source.components),
    targetField: pickString(source.targetField),
    pluginOptions: isRecord(source.pluginOptions) ? source.pluginOptions : undefined,
    customField: pickString(source.customField),
    extra: Object.keys(extra).length > 0 ? extra : undefined,
  });
}

/** Reads a schema.json object. */
export function readSchema(raw: unknown): Schema {
  const source = isRecord(raw) ? raw : {};
  const info = isRecord(source.info) ? source.info : {};
  const attributes: Record<string, Attribute> = {};
  if (isRecord(source.attributes)) for (const [name, a] of Object.entries(source.attributes)) attributes[name] = readAttribute(a);
  return dropUndefined({
    kind: source.kind === 'singleType' ? 'singleType' : source.kind === 'collectionType' ? 'collectionType' : undefined,
    collectionName: pickString(source.collectionName),
    info: dropUndefined({
      displayName: pickString(info.displayName) ?? '',
      singularName: pickString(info.singularName),
      pluralName: pickString(info.pluralName),
      description: pickString(info.description),
      icon: pickString(info.icon),
    }),
    options: isRecord(source.options) ? source.options : undefined,
    pluginOptions: isRecord(source.pluginOptions) ? source.pluginOptions : undefined,
    attributes,
  });
}

/** The JSON object written back for an attribute (extra keys first, so edited keys win). */
export function attributeToJson(attribute: Attribute): Record<string, unknown> {
  const { extra, ...known } = attribute;
  return dropUndefined({ ...(extra ?? {}), ...known });
}

/** The JSON written back for a schema. */
export function schemaToJson(schema: Schema): Record<string, unknown> {
  const attributes: Record<string, unknown> = {};
  for (const [name, a] of Object.entries(schema.attributes)) attributes[name] = attributeToJson(a);
  return dropUndefined({ ...schema, attributes });
}

/** True when the type has i18n enabled (`pluginOptions.i18n.localized`). */
export function isLocalized(schema: Schema): boolean {
  const i18n = schema.pluginOptions?.i18n;
  return isRecord(i18n) && i18n.localized === true;
}

/** True when the type has Draft & Publish. */
export function hasDraftAndPublish(schema: Schema): boolean {
  return schema.options?.draftAndPublish === true;
}

/**
 * True when an attribute of a localized type is itself localized, as the server (and Strapi) reads
 * it: relations and uids always are; any other only with `pluginOptions.i18n.localized: true`.
 */
export function isAttributeLocalized(attribute: Attribute): boolean {
  if (attribute.type === 'relation' || attribute.type === 'uid') return true;
  const i18n = attribute.pluginOptions?.i18n;
  return isRecord(i18n) && i18n.localized === true;
}
