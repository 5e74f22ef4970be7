import {
  RELATION_KINDS,
  SCALAR_TYPES,
  type Attribute,
  type ComponentModel,
  type ContentTypeModel,
  type DeclaredIndex,
  type RelationKind,
  type ScalarAttribute,
  type ScalarType,
} from './types.js';
import { identifier } from '../db/identifiers.js';
import { isMorphRaw, MORPH_KINDS, parseMorphs } from './morphs.js';
import { BUILT_IN_CUSTOM_FIELDS, isCustomFieldUid, resolveCustomField, type CustomFieldTable } from './custom-fields.js';
import { hearthOptions } from './hearth-options.js';
import { AppError, isAppError } from '../errors/app-error.js';
import { isRecord as isObject } from '../errors/is-record.js';

/** Where in a project a schema problem is: the model it concerns and the path inside that model's document. */
export interface SchemaPlace {
  readonly uid?: string;
  readonly path: readonly string[];
}

/**
 * A schema file Hearth cannot use: the message names the file and the offending key, and the
 * place is data (`details.uid`, `details.errors[0].path`), which the content-type builder answers
 * with. Operator-facing (the CLI prints it); a client sees it only as the builder's 400.
 */
export function schemaError(message: string, place: SchemaPlace = { path: [] }): AppError {
  return new AppError('SchemaError', message, { uid: place.uid, errors: [{ path: [...place.path], message, name: 'ValidationError' }] });
}

/** The place a SchemaError names (an empty path when none). */
export function schemaPlace(err: AppError): SchemaPlace {
  const details = isObject(err.details) ? err.details : {};
  const [first] = Array.isArray(details.errors) ? details.errors : [];
  const path = isObject(first) && Array.isArray(first.path) ? first.path.filter((p): p is string => typeof p === 'string') : [];
  return typeof details.uid === 'string' ? { uid: details.uid, path } : { path };
}

/** Runs `parse`; a SchemaError it throws without a place gets `place` (the caller knows which part it was reading). */
export function atPlace<T>(place: SchemaPlace, parse: () => T): T {
  try {
    return parse();
  } catch (err) {
    if (!isAppError(err, 'SchemaError') || schemaPlace(err).path.length > 0) throw err;
    throw schemaError(err.message, place);
  }
}

type Json = Record<string, unknown>;

const ATTRIBUTE_NAME = /^[A-Za-z][A-Za-z0-9_]*$/;
const API_NAME = /^[a-z][a-z0-9-]*$/;
const TABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** Names that collide with Hearth's system columns or with keys Strapi reserves in bodies. */
export const RESERVED_ATTRIBUTE_NAMES = new Set([
  'id',
  'documentId',
  'document_id',
  'createdAt',
  'created_at',
  'updatedAt',
  'updated_at',
  'publishedAt',
  'published_at',
  'createdBy',
  'created_by',
  'updatedBy',
  'updated_by',
  'locale',
  'localizations',
  '__component',
  '__contentType',
]);
/** Table-name prefixes of Hearth's own tables, SQLite's (`sqlite_master`) and PostgreSQL's system catalogs (`pg_class`). */
const RESERVED_TABLE_PREFIXES = ['hearth_', 'sqlite_', 'pg_'];
const MEDIA_TYPES = new Set(['images', 'files', 'videos', 'audios']);


function optionalNumber(raw: Json, key: string, where: string): number | undefined {
  const v = raw[key];
  if (v === undefined || v === null) return undefined;
  const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isFinite(n)) throw schemaError(`${where}: "${key}" must be a number`);
  return n;
}

function optionalString(raw: Json, key: string, where: string): string | undefined {
  const v = raw[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw schemaError(`${where}: "${key}" must be a string`);
  return v;
}

function bool(raw: Json, key: string, where: string): boolean {
  const v = raw[key];
  if (v === undefined || v === null) return false;
  if (typeof v !== 'boolean') throw schemaError(`${where}: "${key}" must be true or false`);
  return v;
}

function localizedOption(raw: Json): boolean | undefined {
  const plugin = raw.pluginOptions;
  if (!isObject(plugin) || !isObject(plugin.i18n)) return undefined;
  const localized = plugin.i18n.localized;
  return typeof localized === 'boolean' ? localized : undefined;
}

function parseScalar(name: string, type: ScalarType, raw: Json, where: string, common: Common): ScalarAttribute {
  let enumValues: string[] | undefined;
  if (type === 'enumeration') {
    const values = raw.enum;
    if (!Array.isArray(values) || values.length === 0 || !values.every((v) => typeof v === 'string')) {
      throw schemaError(`${where}: an enumeration needs "enum", a non-empty list of strings`);
    }
    if (new Set(values).size !== values.length) throw schemaError(`${where}: "enum" has duplicate values`);
    enumValues = values;
  }
  const regex = optionalString(raw, 'regex', where);
  if (regex !== undefined) {
    try {
      new RegExp(regex);
    } catch {
      throw schemaError(`${where}: "regex" is not a valid regular expression`);
    }
  }
  const targetField = optionalString(raw, 'targetField', where);
  return {
    ...common,
    kind: 'scalar',
    type,
    unique: type === 'uid' ? true : bool(raw, 'unique', where),
    default: raw.default === null ? undefined : raw.default,
    min: optionalNumber(raw, 'min', where),
    max: optionalNumber(raw, 'max', where),
    minLength: optionalNumber(raw, 'minLength', where),
    maxLength: optionalNumber(raw, 'maxLength', where),
    regex,
    enum: enumValues,
    targetField,
  };
}

interface Common {
  name: string;
  required: boolean;
  private: boolean;
  localized: boolean;
  raw: Json;
}

/** A custom field as the scalar attribute of its base type; its `options` are kept in `raw` and change nothing. */
function parseCustomField(name: string, raw: Json, at: string, common: Common, customFields: CustomFieldTable): Attribute {
  const uid = raw.customField;
  if (typeof uid !== 'string' || !isCustomFieldUid(uid)) {
    throw schemaError(`${at}: "customField" must name the custom field (plugin::<plugin>.<name> or global::<name>)`);
  }
  const { type, known } = resolveCustomField(customFields, uid);
  return { ...parseScalar(name, type, raw, at, common), customField: { uid, known } };
}

/** Parses one attribute; cross-model references (targets, components) are checked by the registry. */
function parseAttribute(name: string, raw: unknown, where: string, typeLocalized: boolean, customFields: CustomFieldTable): Attribute {
  const at = `${where}: attribute "${name}"`;
  if (!ATTRIBUTE_NAME.test(name)) {
    throw schemaError(`${at}: names must start with a letter and contain only letters, digits and _`);
  }
  if (RESERVED_ATTRIBUTE_NAMES.has(name)) throw schemaError(`${at}: "${name}" is a reserved name`);
  if (!isObject(raw)) throw schemaError(`${at}: must be an object`);
  const type = raw.type;
  if (typeof type !== 'string') throw schemaError(`${at}: "type" is missing`);
  const explicit = localizedOption(raw);
  const alwaysLocalized = type === 'relation' || type === 'uid';
  const common: Common = {
    name,
    required: bool(raw, 'required', at),
    private: bool(raw, 'private', at),
    localized: typeLocalized && (alwaysLocalized || explicit === true),
    raw,
  };
  if ((SCALAR_TYPES as readonly string[]).includes(type)) return parseScalar(name, type as ScalarType, raw, at, common);
  if (type === 'customField') return parseCustomField(name, raw, at, common, customFields);
  switch (type) {
    case 'media': {
      const allowed = raw.allowedTypes;
      if (allowed !== undefined && allowed !== null) {
        if (!Array.isArray(allowed) || !allowed.every((t) => typeof t === 'string' && MEDIA_TYPES.has(t))) {
          throw schemaError(`${at}: "allowedTypes" must list images, files, videos or audios`);
        }
      }
      return {
        ...common,
        kind: 'media',
        multiple: bool(raw, 'multiple', at),
        allowedTypes: Array.isArray(allowed) ? (allowed as string[]) : undefined,
      };
    }
    case 'relation': {
      const relation = raw.relation;
      if (typeof relation !== 'string' || !(RELATION_KINDS as readonly string[]).includes(relation)) {
        throw schemaError(`${at}: "relation" must be one of ${[...RELATION_KINDS, ...MORPH_KINDS].join(', ')}`);
      }
      const target = raw.target;
      if (typeof target !== 'string') throw schemaError(`${at}: "target" is missing`);
      const inversedBy = optionalString(raw, 'inversedBy', at);
      const mappedBy = optionalString(raw, 'mappedBy', at);
      if (inversedBy !== undefined && mappedBy !== undefined) {
        throw schemaError(`${at}: a relation has either "inversedBy" or "mappedBy", not both`);
      }
      const kind = relation as RelationKind;
      if ((kind === 'oneWay' || kind === 'manyWay') && (inversedBy || mappedBy)) {
        throw schemaError(`${at}: ${kind} relations are one-sided and take no "inversedBy"/"mappedBy"`);
      }
      return {
        ...common,
        kind: 'relation',
        relation: kind,
        target,
        inversedBy,
        mappedBy,
        toMany: kind === 'oneToMany' || kind === 'manyToMany' || kind === 'manyWay',
        owner: mappedBy === undefined,
      };
    }
    case 'component': {
      const component = raw.component;
      if (typeof component !== 'string') throw schemaError(`${at}: "component" is missing`);
      return {
        ...common,
        kind: 'component',
        component,
        repeatable: bool(raw, 'repeatable', at),
        min: optionalNumber(raw, 'min', at),
        max: optionalNumber(raw, 'max', at),
      };
    }
    case 'dynamiczone': {
      const components = raw.components;
      if (!Array.isArray(components) || !components.every((c) => typeof c === 'string')) {
        throw schemaError(`${at}: "components" must be a list of component uids`);
      }
      return {
        ...common,
        kind: 'dynamiczone',
        components: components as string[],
        min: optionalNumber(raw, 'min', at),
        max: optionalNumber(raw, 'max', at),
      };
    }
    default:
      throw schemaError(`${at}: unknown attribute type "${type}"`);
  }
}

function parseAttributes(raw: Json, where: string, typeLocalized: boolean, customFields: CustomFieldTable): Map<string, Attribute> {
  const attributes = raw.attributes;
  if (!isObject(attributes)) throw schemaError(`${where}: "attributes" must be an object`);
  const map = new Map<string, Attribute>();
  const lower = new Set<string>();
  for (const [name, value] of Object.entries(attributes)) {
    const key = name.toLowerCase();
    if (lower.has(key)) throw schemaError(`${where}: attributes "${name}" and another differ only in case`, { path: ['attributes', name] });
    lower.add(key);
    // Polymorphic relations are read by parseMorphs (morphs.ts).
    if (isMorphRaw(value)) continue;
    map.set(name, atPlace({ path: ['attributes', name] }, () => parseAttribute(name, value, where, typeLocalized, customFields)));
  }
  return map;
}

/** Columns every content-type table has besides its attributes' (a schema may name them Strapi's way: `published_at`). */
const SYSTEM_COLUMNS = ['id', 'documentId', 'locale', 'publishedAt', 'createdAt', 'updatedAt'];

/** A column name with case and underscores ignored: `prep_minutes` and `prepMinutes` meet. */
export const columnKey = (name: string): string => name.replace(/_/g, '').toLowerCase();

/** The column name Strapi's database gives an attribute (snake_case), as its `indexes` name columns. */
export const strapiColumnName = (attribute: string): string => attribute.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();

/** The Hearth column a schema's index names: an attribute name, Strapi's snake_case column for it, or a system column. */
function indexColumn(name: unknown, attributes: ReadonlyMap<string, Attribute>, contentType: boolean, at: string): string {
  if (typeof name !== 'string' || name === '') throw schemaError(`${at}: must be a column name`);
  const system = (contentType ? SYSTEM_COLUMNS : ['id']).find((c) => c === name || strapiColumnName(c) === name);
  if (system !== undefined) return system;
  const exact = attributes.get(name);
  const matches = exact ? [exact] : [...attributes.values()].filter((a) => columnKey(a.name) === columnKey(name));
  const [attr] = matches;
  if (attr === undefined || matches.length > 1 || attr.kind !== 'scalar') {
    if (attr !== undefined && matches.length === 1) throw schemaError(`${at}: attribute "${attr.name}" is a ${attr.kind}, which has no column of its own`, { path: ['attributes', attr.name] });
    throw schemaError(`${at}: no scalar attribute or system column is named "${name}"`);
  }
  return attr.name;
}

/**
 * Strapi's experimental `indexes`: `[{ name, columns: [...], type? }]`, columns named as Strapi's
 * database names them (snake_case) or by attribute. On content types Hearth appends `locale` and
 * `publishedAt` when absent: every read filters on them, so the index then answers it alone.
 */
function parseIndexes(raw: Json, attributes: ReadonlyMap<string, Attribute>, contentType: boolean, where: string): DeclaredIndex[] {
  if (raw.indexes === undefined || raw.indexes === null) return [];
  if (!Array.isArray(raw.indexes)) throw schemaError(`${where}: "indexes" must be an array`);
  const out: DeclaredIndex[] = [];
  const names = new Set<string>();
  raw.indexes.forEach((entry: unknown, i) => {
    const at = `${where}: indexes[${i}]`;
    if (!isObject(entry)) throw schemaError(`${at} must be an object { name, columns }`);
    if (!Array.isArray(entry.columns) || entry.columns.length === 0) throw schemaError(`${at}.columns must be a non-empty array`);
    const columns = entry.columns.map((c: unknown, j) => indexColumn(c, attributes, contentType, `${at}.columns[${j}]`));
    if (new Set(columns).size !== columns.length) throw schemaError(`${at}.columns names a column twice`);
    const type = entry.type ?? null;
    if (type !== null && type !== 'unique') throw schemaError(`${at}.type must be "unique" or absent`);
    const given = entry.name ?? columns.join('_');
    if (typeof given !== 'string' || given === '') throw schemaError(`${at}.name must be a string`);
    const name = given.replace(/[^A-Za-z0-9_]/g, '_');
    if (names.has(name)) throw schemaError(`${at}: another index is named "${given}"`);
    names.add(name);
    if (contentType) for (const extra of ['locale', 'publishedAt']) if (!columns.includes(extra)) columns.push(extra);
    out.push({ name, columns, unique: type === 'unique' });
  });
  return out;
}

function tableName(raw: unknown, fallback: string, where: string): string {
  const name = raw === undefined || raw === null || raw === '' ? fallback : raw;
  if (typeof name !== 'string' || !TABLE_NAME.test(name)) {
    throw schemaError(`${where}: "collectionName" must contain only letters, digits and _`, { path: ['collectionName'] });
  }
  const reserved = RESERVED_TABLE_PREFIXES.find((prefix) => name.toLowerCase().startsWith(prefix));
  if (reserved !== undefined) throw schemaError(`${where}: "collectionName" may not start with ${reserved}`, { path: ['collectionName'] });
  return name;
}

/**
 * Parses a content-type schema.json (`src/api/<api>/content-types/<name>/schema.json`); custom
 * fields take their base type from `customFields` (the built-in table unless the project has more).
 */
export function parseContentType(raw: unknown, apiName: string, typeName: string, where: string, customFields: CustomFieldTable = BUILT_IN_CUSTOM_FIELDS): ContentTypeModel {
  if (!isObject(raw)) throw schemaError(`${where}: must be a JSON object`);
  if (!API_NAME.test(apiName) || !API_NAME.test(typeName)) {
    throw schemaError(`${where}: folder names must be lower-case letters, digits and dashes`);
  }
  const kind = raw.kind ?? 'collectionType';
  if (kind !== 'collectionType' && kind !== 'singleType') {
    throw schemaError(`${where}: "kind" must be collectionType or singleType`, { path: ['kind'] });
  }
  const info = isObject(raw.info) ? raw.info : {};
  const singularName = info.singularName ?? typeName;
  const pluralName = info.pluralName;
  if (typeof singularName !== 'string' || !API_NAME.test(singularName)) {
    throw schemaError(`${where}: "info.singularName" must be lower-case letters, digits and dashes`, { path: ['info', 'singularName'] });
  }
  if (typeof pluralName !== 'string' || !API_NAME.test(pluralName)) {
    throw schemaError(`${where}: "info.pluralName" must be lower-case letters, digits and dashes`, { path: ['info', 'pluralName'] });
  }
  if (singularName === pluralName) throw schemaError(`${where}: singularName and pluralName must differ`);
  const options = isObject(raw.options) ? raw.options : {};
  const draftAndPublish = options.draftAndPublish === true;
  const localized = localizedOption(raw) === true;
  const attributes = parseAttributes(raw, where, localized, customFields);
  if (localized) {
    attributes.set('localizations', { kind: 'localizations', name: 'localizations', required: false, private: false, localized: true, raw: {} });
  }
  const collectionName = tableName(raw.collectionName, pluralName.replace(/-/g, '_'), where);
  return {
    modelType: 'contentType',
    uid: `api::${apiName}.${typeName}`,
    kind,
    singularName,
    pluralName,
    displayName: typeof info.displayName === 'string' ? info.displayName : singularName,
    description: typeof info.description === 'string' ? info.description : '',
    draftAndPublish,
    localized,
    builtIn: false,
    collectionName,
    table: identifier(collectionName),
    attributes,
    raw,
    indexes: parseIndexes(raw, attributes, true, where),
    morphs: parseMorphs(raw, where),
    ...hearthOptions(raw, where),
  };
}

/** Parses a component file (`src/components/<category>/<name>.json`); custom fields as in parseContentType. */
export function parseComponent(raw: unknown, category: string, name: string, where: string, customFields: CustomFieldTable = BUILT_IN_CUSTOM_FIELDS): ComponentModel {
  if (!isObject(raw)) throw schemaError(`${where}: must be a JSON object`);
  if (!API_NAME.test(category) || !API_NAME.test(name)) {
    throw schemaError(`${where}: category and file names must be lower-case letters, digits and dashes`);
  }
  const info = isObject(raw.info) ? raw.info : {};
  const collectionName = tableName(
    raw.collectionName,
    `components_${category}_${name}`.replace(/-/g, '_'),
    where,
  );
  const attributes = parseAttributes(raw, where, false, customFields);
  return {
    modelType: 'component',
    uid: `${category}.${name}`,
    category,
    displayName: typeof info.displayName === 'string' ? info.displayName : name,
    description: typeof info.description === 'string' ? info.description : '',
    collectionName,
    table: identifier(collectionName),
    attributes,
    raw,
    indexes: parseIndexes(raw, attributes, false, where),
    morphs: parseMorphs(raw, where),
  };
}
