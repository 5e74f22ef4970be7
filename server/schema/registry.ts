import { identifier } from '../db/identifiers.js';
import { MAX_IDENTIFIER_LENGTH } from '../limits.js';
import { tablesFor } from './storage.js';
import { FILE_MODEL } from './file-model.js';
import type { BuiltInModels } from './built-ins.js';
import { BUILT_IN_CUSTOM_FIELDS, unknownCustomFieldWarnings, type CustomFieldTable } from './custom-fields.js';
import { checkMorphs } from './morphs.js';
import { dropInertRelations, inertRelationWarnings } from './inert-relations.js';
import { schemaError } from './parse.js';
import type { ProjectSchemas } from './load.js';
import type { Attribute, ComponentModel, ContentTypeModel, Model, RelationAttribute } from './types.js';

/** `/api/<segment>` paths that belong to Hearth itself (upload, users & permissions, i18n). */
const RESERVED_ROUTES = new Set(['upload', 'users', 'auth', 'connect', 'users-permissions', 'i18n', 'roles']);

/** The characters of uids, in the order localeCompare (ICU's root collation) puts them. */
const UID_ORDER = '_-:.0123456789abcdefghijklmnopqrstuvwxyz';
const PLAIN_UID = /^[a-z0-9_\-:.]*$/;

/**
 * localeCompare's order of two uids, without loading ICU's collation data when both are plain
 * (lower-case letters, digits, `_-:.`), as every Strapi uid is: a first localeCompare costs a start
 * several milliseconds and a few MB. Any other uid is compared by localeCompare itself.
 */
export function compareUids(a: string, b: string): number {
  if (!PLAIN_UID.test(a) || !PLAIN_UID.test(b)) return a.localeCompare(b);
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const diff = UID_ORDER.indexOf(a.charAt(i)) - UID_ORDER.indexOf(b.charAt(i));
    if (diff !== 0) return Math.sign(diff);
  }
  return Math.sign(a.length - b.length);
}

/** Where the rows of one relation attribute live, seen from that attribute's side. */
export interface RelationStorage {
  readonly joinTable: string;
  /** Column holding this side's row id. */
  readonly selfColumn: 'entity_id' | 'target_id';
  /** Column holding the other side's row id. */
  readonly otherColumn: 'entity_id' | 'target_id';
  /** Order of the other side's rows within this side's list. */
  readonly orderColumn: 'ord' | 'inv_ord';
  /** Order of this side's rows within the other side's list. */
  readonly inverseOrderColumn: 'ord' | 'inv_ord';
}

/** The models Hearth serves, cross-checked, with the storage names derived from them. */
export interface Registry {
  /** User content types, in uid order. */
  readonly contentTypes: readonly ContentTypeModel[];
  /** Plugin content types the project extends, as merged (their extra columns and tables are synced like a project type's). */
  readonly plugins: readonly ContentTypeModel[];
  readonly components: readonly ComponentModel[];
  /** Component uids in the order Strapi lists them in "must be one of" messages. */
  readonly componentUidsForMessages: readonly string[];
  /** Custom-field base types the project was read with (the builder parses edited schemas with them). */
  readonly customFields: CustomFieldTable;
  /** The plugin models it was built with (the builder and a reload rebuild with the same). */
  readonly builtIns: BuiltInModels;
  model(uid: string): Model | undefined;
  contentType(uid: string): ContentTypeModel | undefined;
  component(uid: string): ComponentModel | undefined;
  /** The content type served at `/api/<segment>`: a collection by plural name or a single type by singular. */
  routeModel(segment: string): ContentTypeModel | undefined;
  relationStorage(model: Model, attribute: RelationAttribute): RelationStorage;
  /** The join table owned by `attribute` of `model`. */
  joinTable(model: Model, attributeName: string): string;
  /** The table linking rows of `model` to their components and dynamic-zone entries. */
  componentsTable(model: Model): string;
}

/** The join table owned by an attribute (`<collection>_<attribute>_lnk`, as Strapi names them). */
export const joinTableName = (model: Model, attributeName: string): string =>
  identifier(`${model.collectionName}_${attributeName}_lnk`);

/** The component link table of a model (`<collection>_cmps`). */
export const componentsTableName = (model: Model): string => identifier(`${model.collectionName}_cmps`);

function checkRelations(model: Model, byUid: Map<string, Model>): void {
  for (const attr of model.attributes.values()) {
    if (attr.kind !== 'relation') continue;
    const at = `${model.uid}: attribute "${attr.name}"`;
    const place = { uid: model.uid, path: ['attributes', attr.name] };
    const target = byUid.get(attr.target);
    if (!target || target.modelType !== 'contentType' || target.uid === FILE_MODEL.uid) {
      throw schemaError(`${at}: relation target "${attr.target}" is not a known content type`, place);
    }
    const otherName = attr.inversedBy ?? attr.mappedBy;
    if (otherName === undefined) continue;
    const other = target.attributes.get(otherName);
    if (!other || other.kind !== 'relation' || other.target !== model.uid) {
      throw schemaError(`${at}: "${target.uid}" has no relation "${otherName}" back to ${model.uid}`, place);
    }
    const expected = attr.inversedBy !== undefined ? other.mappedBy : other.inversedBy;
    if (expected !== attr.name) {
      throw schemaError(
        `${at}: "${target.uid}.${otherName}" must declare ${attr.inversedBy !== undefined ? 'mappedBy' : 'inversedBy'}: "${attr.name}"`,
        place,
      );
    }
    if (model.modelType === 'component') {
      throw schemaError(`${at}: relations in components must be one-sided (no inversedBy/mappedBy)`, place);
    }
  }
}

function checkComponentRefs(model: Model, byUid: Map<string, Model>): void {
  for (const attr of model.attributes.values()) {
    const at = `${model.uid}: attribute "${attr.name}"`;
    const refs = attr.kind === 'component' ? [attr.component] : attr.kind === 'dynamiczone' ? attr.components : [];
    for (const ref of refs) {
      const target = byUid.get(ref);
      if (!target || target.modelType !== 'component') throw schemaError(`${at}: unknown component "${ref}"`, { uid: model.uid, path: ['attributes', attr.name] });
    }
  }
}

/** Rejects component nesting that loops back on itself (it could never be stored or read). */
function checkComponentCycles(components: readonly ComponentModel[], byUid: Map<string, Model>): void {
  const visiting = new Set<string>();
  const done = new Set<string>();
  const visit = (uid: string, path: string[]): void => {
    if (done.has(uid)) return;
    if (visiting.has(uid)) throw schemaError(`components nest into themselves: ${[...path, uid].join(' -> ')}`);
    visiting.add(uid);
    const model = byUid.get(uid);
    for (const attr of model?.attributes.values() ?? []) {
      const refs = attr.kind === 'component' ? [attr.component] : attr.kind === 'dynamiczone' ? attr.components : [];
      for (const ref of refs) visit(ref, [...path, uid]);
    }
    visiting.delete(uid);
    done.add(uid);
  };
  for (const c of components) visit(c.uid, []);
}


/** The name PostgreSQL gives a table's primary-key index (the table name shortened to fit). */
const primaryKeyName = (table: string): string => `${table.slice(0, MAX_IDENTIFIER_LENGTH - 5)}_pkey`;

/**
 * Every name a model takes in the database's one namespace of tables and indexes (SQLite and
 * PostgreSQL share it between both): its tables, their indexes and primary keys. An index name
 * longer than PostgreSQL keeps is also claimed as PostgreSQL shortens it.
 */
function relationNames(model: Model, registry: Registry): { name: string; what: 'table' | 'index' }[] {
  const out: { name: string; what: 'table' | 'index' }[] = [];
  for (const plan of tablesFor(model, registry)) {
    out.push({ name: plan.name, what: 'table' }, { name: primaryKeyName(plan.name), what: 'index' });
    for (const index of plan.indexes) {
      out.push({ name: index.name, what: 'index' });
      if (index.name.length > MAX_IDENTIFIER_LENGTH) out.push({ name: index.name.slice(0, MAX_IDENTIFIER_LENGTH), what: 'index' });
    }
  }
  return out;
}

/** Cross-checks the project's models and builds the registry; any inconsistency is a SchemaError. */
export function buildRegistry(given: ProjectSchemas): Registry {
  // Strapi leaves a mappedBy side whose inverse is missing inert; Hearth serves the model without it (schema/inert-relations.ts).
  const builtIns = given.builtIns;
  const project = dropInertRelations(given, [FILE_MODEL, ...builtIns.models]);
  const byUid = new Map<string, Model>();
  const routes = new Map<string, ContentTypeModel>();
  // Names compared without case: SQLite ignores it, and a project must move between both databases.
  const names = new Map<string, { owner: string; what: 'table' | 'index' }>();
  const claim = (name: string, owner: string, what: 'table' | 'index') => {
    const key = name.toLowerCase();
    const previous = names.get(key);
    if (previous === undefined) {
      names.set(key, { owner, what });
      return;
    }
    if (previous.owner === owner) return;
    const place = { uid: owner, path: ['collectionName'] };
    if (what === 'table' && previous.what === 'table') throw schemaError(`${owner} and ${previous.owner} would both use the table "${name}"`, place);
    throw schemaError(`${owner} and ${previous.owner} would both use the name "${name}" (for ${owner}'s ${what} and ${previous.owner}'s ${previous.what})`, place);
  };
  byUid.set(FILE_MODEL.uid, FILE_MODEL);
  const plugin = `plugin::${builtIns.plugin}`;
  for (const model of builtIns.models) byUid.set(model.uid, model);
  for (const table of builtIns.tables) {
    claim(table, plugin, 'table');
    claim(primaryKeyName(table), plugin, 'index');
  }
  for (const index of builtIns.indexes) claim(index, plugin, 'index');
  // A project's extension of a plugin type replaces the plugin's model (schema/extensions.ts).
  const plugins = [...(project.plugins ?? [])].sort((a, b) => compareUids(a.uid, b.uid));
  for (const model of plugins) byUid.set(model.uid, model);
  for (const model of [...project.contentTypes, ...project.components]) {
    if (byUid.has(model.uid)) throw schemaError(`${model.uid} is declared twice`);
    byUid.set(model.uid, model);
  }
  for (const ct of project.contentTypes) {
    const segments = ct.kind === 'collectionType' ? [ct.pluralName] : [ct.singularName];
    for (const segment of segments) {
      const place = { uid: ct.uid, path: ['info', 'pluralName'] };
      if (RESERVED_ROUTES.has(segment)) throw schemaError(`${ct.uid}: /api/${segment} is reserved by Hearth`, place);
      const other = routes.get(segment);
      if (other) throw schemaError(`${ct.uid} and ${other.uid} would both be served at /api/${segment}`, place);
      routes.set(segment, ct);
    }
  }
  const apiNames = new Map<string, string>();
  for (const ct of project.contentTypes) {
    for (const name of [ct.singularName, ct.pluralName]) {
      const other = apiNames.get(name);
      if (other && other !== ct.uid) throw schemaError(`${ct.uid} and ${other} both use the API name "${name}"`, { uid: ct.uid, path: ['info', 'pluralName'] });
      apiNames.set(name, ct.uid);
    }
  }
  const models = [...project.contentTypes, ...project.components];
  for (const model of models) {
    checkRelations(model, byUid);
    checkComponentRefs(model, byUid);
    checkMorphs(model, byUid, FILE_MODEL.uid);
  }
  for (const model of plugins) {
    checkRelations(model, byUid);
    checkComponentRefs(model, byUid);
  }
  checkComponentCycles(project.components, byUid);

  const contentTypes = [...project.contentTypes].sort((a, b) => compareUids(a.uid, b.uid));
  const components = [...project.components].sort((a, b) => compareUids(a.uid, b.uid));
  const registry: Registry = {
    contentTypes,
    plugins,
    components,
    componentUidsForMessages: components.map((c) => c.uid).reverse(),
    customFields: project.customFields ?? BUILT_IN_CUSTOM_FIELDS,
    builtIns,
    model: (uid) => byUid.get(uid),
    contentType: (uid) => {
      const m = byUid.get(uid);
      return m?.modelType === 'contentType' ? m : undefined;
    },
    component: (uid) => {
      const m = byUid.get(uid);
      return m?.modelType === 'component' ? m : undefined;
    },
    routeModel: (segment) => routes.get(segment),
    relationStorage(model, attribute) {
      if (attribute.owner) {
        return {
          joinTable: joinTableName(model, attribute.name),
          selfColumn: 'entity_id',
          otherColumn: 'target_id',
          orderColumn: 'ord',
          inverseOrderColumn: 'inv_ord',
        };
      }
      const owner = byUid.get(attribute.target);
      const ownerAttr = attribute.mappedBy;
      if (!owner || ownerAttr === undefined) throw new Error(`no owner for ${model.uid}.${attribute.name}`);
      return {
        joinTable: joinTableName(owner, ownerAttr),
        selfColumn: 'target_id',
        otherColumn: 'entity_id',
        orderColumn: 'inv_ord',
        inverseOrderColumn: 'ord',
      };
    },
    joinTable: joinTableName,
    componentsTable: componentsTableName,
  };
  for (const model of models) for (const { name, what } of relationNames(model, registry)) claim(name, model.uid, what);
  // The plugin's own tables are claimed above under its name (hearth_ names are Hearth's alone); an extension's extra ones join them.
  for (const model of plugins) for (const { name, what } of relationNames(model, registry)) claim(name, model.uid.replace(/\.[^.]*$/, ''), what);
  return registry;
}

/** Attributes of a model in schema order. */
export const attributesOf = (model: Model): Attribute[] => [...model.attributes.values()];

/** What Hearth serves differently from the schemas as written, one line each (logged at start and on reload). */
export const schemaWarnings = (registry: Registry): string[] => [
  ...unknownCustomFieldWarnings([...registry.contentTypes, ...registry.components]),
  ...inertRelationWarnings([...registry.plugins, ...registry.contentTypes, ...registry.components]),
];
