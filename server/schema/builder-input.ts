import { fieldError, isAppError } from '../errors/app-error.js';
import type { CustomFieldTable } from './custom-fields.js';
import { parseComponent, parseContentType, schemaPlace } from './parse.js';
import { isRecord as isJson } from '../errors/is-record.js';

/**
 * What the content-type builder accepts as a schema: Strapi's schema.json, checked key by key so
 * every refusal names the offending path (`contentType.attributes.title`), and completed only where
 * Strapi's builder would write a default (kind, collectionName, options, pluginOptions).
 */

/** A JSON object. */
export type Json = Record<string, unknown>;

/** The body key a schema came in: `contentType` or `component`. */
export type Root = 'contentType' | 'component';

const API_NAME = /^[a-z][a-z0-9-]*$/;
const CONTENT_TYPE_KEYS = ['kind', 'collectionName', 'info', 'options', 'pluginOptions', 'attributes', 'indexes', 'config'];
const COMPONENT_KEYS = ['category', 'name', 'collectionName', 'info', 'options', 'pluginOptions', 'attributes', 'indexes', 'config'];

/** A JSON object (not an array, not null). */
export { isJson };

/** 400 ValidationError naming one path, in Strapi's `details.errors` shape (errors/app-error.ts's fieldError). */
export const schemaFieldError = fieldError;

function object(value: unknown, path: string[], fallback?: Json): Json {
  if (value === undefined && fallback !== undefined) return fallback;
  if (!isJson(value)) throw schemaFieldError(path, `${path.join('.')} must be an object`);
  return value;
}

function apiName(value: unknown, path: string[]): string {
  if (typeof value !== 'string' || !API_NAME.test(value)) {
    throw schemaFieldError(path, `${path.join('.')} must be lower-case letters, digits and dashes, starting with a letter`);
  }
  return value;
}

function displayName(info: Json, path: string[]): string {
  const value = info.displayName;
  if (typeof value !== 'string' || value.trim() === '') throw schemaFieldError([...path, 'displayName'], `${[...path, 'displayName'].join('.')} is a required field`);
  return value;
}

function onlyKeys(value: Json, allowed: readonly string[], root: Root): void {
  for (const key of Object.keys(value)) {
    if (!allowed.includes(key)) throw schemaFieldError([root, key], `${root} has an unknown key "${key}"`);
  }
}

/** `rich-text` -> `rich_texts`: Strapi's plural collection-name suffix. */
export function pluralSnake(name: string): string {
  const plural = /(s|x|z|ch|sh)$/.test(name) ? `${name}es` : /[^aeiou]y$/.test(name) ? `${name.slice(0, -1)}ies` : `${name}s`;
  return plural.replace(/-/g, '_');
}

/** `Rich text` -> `rich-text`: the component name Strapi derives from a display name. */
export function slugOf(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** A parse problem's message without the `<uid>: ` prefix. */
const withoutWhere = (message: string, where: string) => (message.startsWith(`${where}: `) ? message.slice(where.length + 2) : message);

/** Checks the document without attributes, then each attribute alone, so a problem is reported against the part that has it. */
function checkAttributes(doc: Json, root: Root, parse: (doc: Json) => void, where: string): void {
  const attributes = object(doc.attributes, [root, 'attributes']);
  try {
    parse({ ...doc, attributes: {} });
  } catch (err) {
    if (!isAppError(err, 'SchemaError')) throw err;
    // Without attributes, a problem is the document's own key (collectionName, kind, info.*) or the document.
    const { path } = schemaPlace(err);
    const key = path[0] === 'collectionName' || path[0] === 'kind' || path[0] === 'info' ? path : [];
    throw schemaFieldError([root, ...key], withoutWhere(err.message, where));
  }
  for (const [name, value] of Object.entries(attributes)) {
    const path = [root, 'attributes', name];
    try {
      parse({ ...doc, attributes: { [name]: value } });
    } catch (err) {
      if (!isAppError(err, 'SchemaError')) throw err;
      throw schemaFieldError(path, withoutWhere(err.message, where));
    }
    if (isJson(value) && value.type === 'uid' && value.targetField !== undefined && value.targetField !== null) {
      const target = attributes[String(value.targetField)];
      if (!isJson(target) || !['string', 'text'].includes(String(target.type))) {
        throw schemaFieldError([...path, 'targetField'], `attribute "${name}": targetField "${String(value.targetField)}" is not a string or text attribute`);
      }
    }
  }
  try {
    parse(doc);
  } catch (err) {
    if (!isAppError(err, 'SchemaError')) throw err;
    // With every attribute, what is left is an attribute's (an index on a relation, two names differing in case) or the document's.
    const [key, attribute] = schemaPlace(err).path;
    throw schemaFieldError(key === 'attributes' && attribute !== undefined ? [root, 'attributes', attribute] : [root], err.message);
  }
}

/** A content-type schema as it will be written, with its singular name (which makes its uid); custom fields resolve through `customFields`. */
export function contentTypeDoc(input: unknown, customFields?: CustomFieldTable): { doc: Json; singularName: string } {
  const raw = object(input, ['contentType']);
  onlyKeys(raw, CONTENT_TYPE_KEYS, 'contentType');
  const kind = raw.kind ?? 'collectionType';
  if (kind !== 'collectionType' && kind !== 'singleType') throw schemaFieldError(['contentType', 'kind'], 'contentType.kind must be one of collectionType, singleType');
  const info = object(raw.info, ['contentType', 'info']);
  const singularName = apiName(info.singularName, ['contentType', 'info', 'singularName']);
  const pluralName = apiName(info.pluralName, ['contentType', 'info', 'pluralName']);
  if (singularName === pluralName) throw schemaFieldError(['contentType', 'info', 'pluralName'], 'contentType.info.pluralName must differ from singularName');
  displayName(info, ['contentType', 'info']);
  const doc: Json = {
    kind,
    collectionName: raw.collectionName ?? pluralName.replace(/-/g, '_'),
    info,
    options: object(raw.options, ['contentType', 'options'], {}),
    pluginOptions: object(raw.pluginOptions, ['contentType', 'pluginOptions'], {}),
    attributes: object(raw.attributes, ['contentType', 'attributes']),
  };
  if (raw.indexes !== undefined) doc.indexes = raw.indexes;
  if (raw.config !== undefined) doc.config = raw.config;
  const where = `api::${singularName}.${singularName}`;
  checkAttributes(doc, 'contentType', (d) => parseContentType(d, singularName, singularName, where, customFields), where);
  return { doc, singularName };
}

/** A component schema as it will be written (without its category), with its category and name (its uid). */
export function componentDoc(input: unknown, fixedName?: string, customFields?: CustomFieldTable): { doc: Json; category: string; name: string } {
  const raw = object(input, ['component']);
  onlyKeys(raw, COMPONENT_KEYS, 'component');
  const category = apiName(raw.category, ['component', 'category']);
  const info = object(raw.info, ['component', 'info']);
  const display = displayName(info, ['component', 'info']);
  const name = fixedName ?? (raw.name === undefined ? slugOf(display) : apiName(raw.name, ['component', 'name']));
  if (!API_NAME.test(name)) throw schemaFieldError(['component', 'info', 'displayName'], `component.info.displayName "${display}" gives no usable name; give "name"`);
  const doc: Json = {
    collectionName: raw.collectionName ?? `components_${category.replace(/-/g, '_')}_${pluralSnake(name)}`,
    info,
    options: object(raw.options, ['component', 'options'], {}),
  };
  if (raw.pluginOptions !== undefined) doc.pluginOptions = object(raw.pluginOptions, ['component', 'pluginOptions']);
  doc.attributes = object(raw.attributes, ['component', 'attributes']);
  if (raw.indexes !== undefined) doc.indexes = raw.indexes;
  if (raw.config !== undefined) doc.config = raw.config;
  const where = `${category}.${name}`;
  checkAttributes(doc, 'component', (d) => parseComponent(d, category, name, where, customFields), where);
  return { doc, category, name };
}
