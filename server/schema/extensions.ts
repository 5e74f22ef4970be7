import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import type { BuiltInModels } from './built-ins.js';
import { FILE_MODEL, FILE_PLUGIN_SCHEMA } from './file-model.js';
import { parseContentType, schemaError } from './parse.js';
import type { Attribute, ContentTypeModel } from './types.js';
import { isRecord as isObject } from '../errors/is-record.js';

type Json = Record<string, unknown>;

/** A plugin content type a project may extend, and what Hearth needs an extension of it to keep. */
interface Extendable {
  /** Hearth's model of it. */
  readonly base: ContentTypeModel;
  /** The plugin's schema.json as Strapi declares it: the extension's top-level keys replace its keys. */
  readonly schema: Json;
  /**
   * Plugin attributes Hearth stores its own way rather than from the schema (the file's `related`
   * links and `folder`): an extension keeps them as the plugin declares them, and the merged
   * model leaves them out.
   */
  readonly apart: readonly string[];
  /** Columns of the plugin's table that no attribute declares: an added attribute may not take them. */
  readonly columns: readonly string[];
  /**
   * Whether only scalar attributes may be added: the media library writes its rows itself
   * (uploads, replacements, fileInfo), column by column.
   */
  readonly scalarsOnly: boolean;
}

/**
 * Plugin content types a project may extend in `src/extensions/<plugin>/content-types/<name>/schema.json`,
 * by folder: the built-in plugin models handed in (users & permissions' user and role), and the media library's file.
 */
function extendable(builtIns: BuiltInModels): ReadonlyMap<string, Extendable> {
  return new Map([
    ...builtIns.models.map((m): [string, Extendable] => [`${builtIns.plugin}/${m.singularName}`, { base: m, schema: m.raw, apart: [], columns: [], scalarsOnly: false }]),
    ['upload/file', { base: FILE_MODEL, schema: FILE_PLUGIN_SCHEMA, apart: ['related', 'folder'], columns: ['folder_id'], scalarsOnly: true }],
  ]);
}

/** The tables of the plugin types a project may extend: a project's sync adds columns to them (backups carry those). */
export function extendableTables(builtIns: BuiltInModels): readonly string[] {
  return [...extendable(builtIns).values()].map((entry) => entry.base.table);
}

/**
 * Targets of plugin attributes Hearth does not model: Strapi's role schema relates to
 * `plugin::users-permissions.permission`, which Hearth keeps as action names instead.
 */
const UNMODELLED_TARGETS = new Set(['plugin::users-permissions.permission']);

/** What an attribute stored apart must keep: it is read by Hearth's own code, not from the schema. */
const APART_KEYS = ['type', 'relation', 'target'] as const;

/** What a base attribute must keep in an extension for Hearth's own code to go on working. */
function essentials(attr: Attribute): unknown {
  switch (attr.kind) {
    case 'scalar':
      return { kind: attr.kind, type: attr.type };
    case 'relation':
      return { kind: attr.kind, relation: attr.relation, target: attr.target, inversedBy: attr.inversedBy, mappedBy: attr.mappedBy };
    default:
      return { kind: attr.kind };
  }
}

/** The attributes of a merged schema without those Hearth stores apart, each checked to be kept as the plugin declares it. */
function withoutApart(entry: Extendable, attributes: unknown, refuse: (what: string) => never): unknown {
  if (!isObject(attributes)) return attributes;
  const out = { ...attributes };
  for (const [name, raw] of Object.entries(out)) {
    if (isObject(raw) && typeof raw.target === 'string' && UNMODELLED_TARGETS.has(raw.target)) delete out[name];
  }
  const declared = isObject(entry.schema.attributes) ? entry.schema.attributes : {};
  for (const name of entry.apart) {
    const plugin = isObject(declared[name]) ? declared[name] : {};
    const given = out[name];
    if (given === undefined) refuse(`attribute "${name}" is missing`);
    if (!isObject(given) || APART_KEYS.some((key) => given[key] !== plugin[key])) refuse(`attribute "${name}" must stay as the plugin declares it ${JSON.stringify(plugin)}`);
    delete out[name];
  }
  return out;
}

/** Refuses added attributes Hearth cannot store beside the plugin's own: other kinds than scalars where only scalars fit, names its table already uses. */
function checkAdded(entry: Extendable, parsed: ContentTypeModel, where: string): void {
  const taken = new Set(entry.columns.map((c) => c.toLowerCase()));
  for (const attr of parsed.attributes.values()) {
    if (entry.base.attributes.has(attr.name)) continue;
    if (taken.has(attr.name.toLowerCase())) throw schemaError(`${where}: attribute "${attr.name}" would take the column "${attr.name}" Hearth keeps in ${entry.base.table}`);
    if (entry.scalarsOnly && attr.kind !== 'scalar') {
      throw schemaError(`${where}: attribute "${attr.name}" is a ${attr.kind}; Hearth adds only scalar attributes (string, text, number, boolean, date, json, enumeration...) to ${entry.base.uid}`);
    }
  }
  for (const morph of parsed.morphs?.values() ?? []) {
    if (entry.scalarsOnly) throw schemaError(`${where}: attribute "${morph.name}" is a ${morph.relation} relation; Hearth adds only scalar attributes (string, text, number, boolean, date, json, enumeration...) to ${entry.base.uid}`);
  }
}

/**
 * Strapi's merge (`applyUserExtension`): the extension's top-level keys replace the plugin's, so its
 * `attributes` is the whole attribute list. Hearth refuses what its own code relies on: the table,
 * the API names, no draft & publish or locales, and every base attribute with its type.
 */
function extendPluginModel(entry: Extendable, extension: unknown, where: string): ContentTypeModel {
  const { base, schema } = entry;
  if (!isObject(extension)) throw schemaError(`${where}: must be a JSON object`);
  const refuse = (what: string): never => {
    throw schemaError(`${where}: ${what} (Hearth serves ${base.uid} with it)`);
  };
  const merged: Json = { ...schema, ...extension };
  const attributes = withoutApart(entry, merged.attributes, refuse);
  const [plugin = '', name = ''] = base.uid.replace(/^plugin::/, '').split('.');
  const parsed = parseContentType({ ...merged, attributes }, plugin, name, where);
  const collectionName = typeof schema.collectionName === 'string' ? schema.collectionName : base.collectionName;
  if (parsed.collectionName !== collectionName) refuse(`"collectionName" must stay "${collectionName}"`);
  if (parsed.kind !== base.kind) refuse(`"kind" must stay "${base.kind}"`);
  if (parsed.singularName !== base.singularName || parsed.pluralName !== base.pluralName) {
    refuse(`"info.singularName" and "info.pluralName" must stay "${base.singularName}" and "${base.pluralName}"`);
  }
  if (parsed.draftAndPublish) refuse('"options.draftAndPublish" must stay false');
  if (parsed.localized) refuse('"pluginOptions.i18n.localized" must stay false');
  const declared = isObject(schema.attributes) ? schema.attributes : {};
  for (const attr of base.attributes.values()) {
    const given = parsed.attributes.get(attr.name);
    if (given === undefined) refuse(`attribute "${attr.name}" is missing`);
    else if (!isDeepStrictEqual(essentials(given), essentials(attr))) refuse(`attribute "${attr.name}" must stay as the plugin declares it ${JSON.stringify(declared[attr.name] ?? attr.raw)}`);
  }
  checkAdded(entry, parsed, where);
  // The file's rows live in Hearth's own table, whatever name Strapi's schema gives it.
  return { ...parsed, uid: base.uid, builtIn: true, collectionName: base.collectionName, table: base.table };
}

async function readIfPresent(file: string): Promise<string | null> {
  try {
    return await readFile(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    throw err;
  }
}

async function subfolders(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir, { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => e.name).sort();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
}

/**
 * The plugin content types a project extends, merged as Strapi merges them. Extensions of plugin
 * types Hearth does not have (or of other plugins) are left alone, as Strapi leaves extensions of
 * plugins that are not installed.
 */
export async function loadExtensions(root: string, builtIns: BuiltInModels): Promise<ContentTypeModel[]> {
  const out: ContentTypeModel[] = [];
  const types = extendable(builtIns);
  const dir = join(root, 'src', 'extensions');
  for (const plugin of await subfolders(dir)) {
    for (const name of await subfolders(join(dir, plugin, 'content-types'))) {
      const entry = types.get(`${plugin}/${name}`);
      const file = join(dir, plugin, 'content-types', name, 'schema.json');
      const where = relative(root, file) || file;
      if (entry === undefined) continue;
      const text = await readIfPresent(file);
      if (text === null) continue;
      let raw: unknown;
      try {
        raw = JSON.parse(text);
      } catch (err) {
        throw schemaError(`${where}: not valid JSON (${(err as Error).message})`);
      }
      out.push(extendPluginModel(entry, raw, where));
    }
  }
  return out;
}
