import { isDeepStrictEqual } from 'node:util';
import { isAppError, notFound } from '../errors/app-error.js';
import { componentDoc, contentTypeDoc, isJson, schemaFieldError, type Json, type Root } from './builder-input.js';
import { dropComponentUses, dropRelationsTo, syncInverseSides, type Docs } from './builder-relations.js';
import type { Renames } from './change-plan.js';
import { columnKey, parseComponent, parseContentType, schemaPlace, strapiColumnName } from './parse.js';
import { buildRegistry, type Registry } from './registry.js';
import { keepCustomFields } from './builder-custom-fields.js';
import type { BuiltInModels } from './built-ins.js';
import type { CustomFieldTable } from './custom-fields.js';
import type { ContentTypeModel } from './types.js';

/**
 * The content-type builder's edits as pure functions of the running registry: each returns the
 * whole project after the edit (every schema document), the registry built from it, and the
 * attribute renames to carry out, or throws a 400 naming the offending path.
 */

/** A project's schema documents by uid. */
export interface ProjectDocs {
  readonly contentTypes: Docs;
  readonly components: Docs;
  /** Extended plugin types (`src/extensions/...`): the builder does not edit them, it keeps them. */
  readonly plugins: readonly ContentTypeModel[];
  /** The custom-field base types the project is read with (`hearth.json`, not edited by the builder). */
  readonly customFields: CustomFieldTable;
  /** The plugin models the registry was built with: the edited project is built with the same. */
  readonly builtIns: BuiltInModels;
}

/** One builder edit, ready to be applied to the database and the schemas folder. */
export interface BuilderChange {
  readonly docs: ProjectDocs;
  readonly registry: Registry;
  readonly renames: Renames;
  readonly confirmDataLoss: boolean;
  /** The uid the edit was about (the answer's `data.uid`). */
  readonly uid: string;
}

/** `api::blog.post` -> `{ api: 'blog', name: 'post' }`. */
export function contentTypeParts(uid: string): { api: string; name: string } {
  const [api = '', name = ''] = uid.replace(/^api::/, '').split('.');
  return { api, name };
}

/** `shared.seo` -> `{ category: 'shared', name: 'seo' }`. */
export function componentParts(uid: string): { category: string; name: string } {
  const [category = '', name = ''] = uid.split('.');
  return { category, name };
}

/** The running project's documents, as copies the edits may change. */
export function docsOf(registry: Registry): ProjectDocs {
  const copy = (raw: Readonly<Record<string, unknown>>): Json => structuredClone(raw) as Json;
  return {
    contentTypes: new Map(registry.contentTypes.filter((c) => !c.builtIn).map((c) => [c.uid, copy(c.raw)])),
    components: new Map(registry.components.map((c) => [c.uid, copy(c.raw)])),
    plugins: registry.plugins,
    customFields: registry.customFields,
    builtIns: registry.builtIns,
  };
}

/** Whether two projects declare exactly the same schemas. */
export function sameDocs(a: ProjectDocs, b: ProjectDocs): boolean {
  const same = (x: Docs, y: Docs) => x.size === y.size && [...x].every(([uid, doc]) => isDeepStrictEqual(doc, y.get(uid)));
  const plugins = (x: readonly ContentTypeModel[]) => new Map(x.map((m) => [m.uid, m.raw]));
  return same(a.contentTypes, b.contentTypes) && same(a.components, b.components) && isDeepStrictEqual(plugins(a.plugins), plugins(b.plugins)) && isDeepStrictEqual(a.customFields, b.customFields);
}

/** Parses and cross-checks a project's documents; problems are SchemaErrors. */
export function registryOf(docs: ProjectDocs): Registry {
  const contentTypes = [...docs.contentTypes].map(([uid, doc]) => {
    const { api, name } = contentTypeParts(uid);
    return parseContentType(doc, api, name, uid, docs.customFields);
  });
  const components = [...docs.components].map(([uid, doc]) => {
    const { category, name } = componentParts(uid);
    return parseComponent(doc, category, name, uid, docs.customFields);
  });
  return buildRegistry({ contentTypes, components, plugins: docs.plugins, customFields: docs.customFields, builtIns: docs.builtIns });
}

/** The registry of an edited project; a cross-model problem is a 400 naming the edited schema's attribute when it can. */
function checkedRegistry(docs: ProjectDocs, uid: string, root: Root): Registry {
  try {
    return registryOf(docs);
  } catch (err) {
    if (!isAppError(err, 'SchemaError')) throw err;
    // The edited schema's attribute when the problem is one of its attributes; a clash of API names or tables names the key.
    const place = schemaPlace(err);
    const [key, attribute] = place.path;
    let path: string[] = [root];
    if (place.uid === uid && key === 'attributes' && attribute !== undefined) path = [root, 'attributes', attribute];
    else if (key === 'info' || key === 'collectionName') path = [root, ...place.path];
    throw schemaFieldError(path, err.message);
  }
}

/** `{ old: new }` attribute renames, each naming an attribute that existed and one that exists now. */
function readRenames(raw: unknown, before: Json | undefined, after: Json): Map<string, string> {
  const renames = new Map<string, string>();
  if (raw === undefined || raw === null) return renames;
  if (!isJson(raw)) throw schemaFieldError(['renames'], 'renames must be an object of { oldName: newName }');
  const old = isJson(before?.attributes) ? before.attributes : {};
  const now = isJson(after.attributes) ? after.attributes : {};
  const targets = new Set<string>();
  for (const [from, to] of Object.entries(raw)) {
    const path = ['renames', from];
    if (typeof to !== 'string') throw schemaFieldError(path, `renames.${from} must be a string`);
    if (!(from in old)) throw schemaFieldError(path, `renames: there is no attribute "${from}" to rename`);
    if (!(to in now)) throw schemaFieldError(path, `renames: "${from}" is renamed to "${to}", which the schema does not declare`);
    if (to in old && to !== from) throw schemaFieldError(path, `renames: "${to}" already exists`);
    if (targets.has(to)) throw schemaFieldError(path, `renames: two attributes are renamed to "${to}"`);
    targets.add(to);
    if (to !== from) renames.set(from, to);
  }
  return renames;
}

/** The input of saving a content type or component. */
export interface SaveInput {
  /** null: create. */
  readonly uid: string | null;
  readonly schema: unknown;
  readonly renames?: unknown;
  readonly confirmDataLoss?: boolean;
}

/**
 * A save that does not send `indexes` (the editor does not show them) keeps the declared ones
 * (Strapi lost them: strapi#22636), following renames; an index on a removed attribute goes.
 */
function keepIndexes(before: Json | undefined, after: Json, renames: ReadonlyMap<string, string>): void {
  if (after.indexes !== undefined || !Array.isArray(before?.indexes)) return;
  const old = Object.keys(isJson(before.attributes) ? before.attributes : {});
  const now = isJson(after.attributes) ? after.attributes : {};
  const kept: unknown[] = [];
  for (const index of before.indexes as unknown[]) {
    if (!isJson(index) || !Array.isArray(index.columns)) continue;
    let gone = false;
    const columns = index.columns.map((column: unknown) => {
      if (typeof column !== 'string') return column;
      const attr = old.find((a) => a === column) ?? old.find((a) => columnKey(a) === columnKey(column));
      if (attr === undefined) return column;
      const name = renames.get(attr) ?? attr;
      if (!(name in now)) gone = true;
      // Written as it was: by attribute name, or as Strapi's snake_case column.
      return attr === column ? name : strapiColumnName(name);
    });
    if (!gone) kept.push({ ...index, columns });
  }
  if (kept.length > 0) after.indexes = kept;
}

/** Creates or replaces a content type. */
export function saveContentType(registry: Registry, input: SaveInput): BuilderChange {
  const docs = docsOf(registry);
  const { doc, singularName } = contentTypeDoc(input.schema, registry.customFields);
  const uid = input.uid ?? `api::${singularName}.${singularName}`;
  const before = docs.contentTypes.get(uid);
  if (input.uid === null && before !== undefined) {
    throw schemaFieldError(['contentType', 'info', 'singularName'], `A content type named "${singularName}" already exists`);
  }
  if (input.uid !== null) {
    if (before === undefined) throw notFound('Content type not found');
    const info = isJson(before.info) ? before.info : {};
    if (info.singularName !== singularName) throw schemaFieldError(['contentType', 'info', 'singularName'], 'contentType.info.singularName cannot be changed');
  }
  const renames = readRenames(input.renames, before, doc);
  keepIndexes(before, doc, renames);
  keepCustomFields({ before, after: doc, renames, customFields: registry.customFields });
  docs.contentTypes.set(uid, doc);
  syncInverseSides(docs.contentTypes, { uid, before, after: doc, renames, root: 'contentType' });
  return { docs, registry: checkedRegistry(docs, uid, 'contentType'), renames: new Map([[uid, renames]]), confirmDataLoss: input.confirmDataLoss === true, uid };
}

/** Deletes a content type and every relation to it. */
export function deleteContentType(registry: Registry, uid: string, confirmDataLoss: boolean): BuilderChange {
  const docs = docsOf(registry);
  if (!docs.contentTypes.delete(uid)) throw notFound('Content type not found');
  dropRelationsTo(docs.contentTypes, uid);
  dropRelationsTo(docs.components, uid);
  return { docs, registry: checkedRegistry(docs, uid, 'contentType'), renames: new Map(), confirmDataLoss, uid };
}

/** Creates or replaces a component. */
export function saveComponent(registry: Registry, input: SaveInput): BuilderChange {
  const docs = docsOf(registry);
  const fixed = input.uid === null ? undefined : componentParts(input.uid);
  const { doc, category, name } = componentDoc(input.schema, fixed?.name, registry.customFields);
  if (fixed !== undefined && fixed.category !== category) throw schemaFieldError(['component', 'category'], 'component.category cannot be changed');
  const uid = `${category}.${name}`;
  const before = docs.components.get(uid);
  if (input.uid === null && before !== undefined) throw schemaFieldError(['component', 'info', 'displayName'], `A component named "${uid}" already exists`);
  if (input.uid !== null && before === undefined) throw notFound('Component not found');
  const renames = readRenames(input.renames, before, doc);
  keepIndexes(before, doc, renames);
  keepCustomFields({ before, after: doc, renames, customFields: registry.customFields });
  docs.components.set(uid, doc);
  return { docs, registry: checkedRegistry(docs, uid, 'component'), renames: new Map([[uid, renames]]), confirmDataLoss: input.confirmDataLoss === true, uid };
}

/** Deletes a component and its uses in other schemas. */
export function deleteComponent(registry: Registry, uid: string, confirmDataLoss: boolean): BuilderChange {
  const docs = docsOf(registry);
  if (!docs.components.delete(uid)) throw notFound('Component not found');
  dropComponentUses(docs.contentTypes, uid);
  dropComponentUses(docs.components, uid);
  return { docs, registry: checkedRegistry(docs, uid, 'component'), renames: new Map(), confirmDataLoss, uid };
}
