import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { USERS_PERMISSIONS_MODELS } from '../users/models.js';
import { parseContentType, SchemaError } from './parse.js';
import type { Attribute, ContentTypeModel } from './types.js';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Plugin content types a project may extend in `src/extensions/<plugin>/content-types/<name>/schema.json`,
 * by folder. The media library's file model (`upload/file`) is Hearth's own table layout, not a
 * schema: its extensions are not read yet.
 */
const EXTENDABLE: ReadonlyMap<string, ContentTypeModel> = new Map(
  USERS_PERMISSIONS_MODELS.map((m) => [`users-permissions/${m.singularName}`, m]),
);

/**
 * Targets of plugin attributes Hearth does not model: Strapi's role schema relates to
 * `plugin::users-permissions.permission`, which Hearth keeps as action names instead.
 */
const UNMODELLED_TARGETS = new Set(['plugin::users-permissions.permission']);

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

/**
 * Strapi's merge (`applyUserExtension`): the extension's top-level keys replace the plugin's, so its
 * `attributes` is the whole attribute list. Hearth refuses what its own code relies on: the table,
 * the API names, no draft & publish or locales, and every base attribute with its type.
 */
export function extendPluginModel(base: ContentTypeModel, extension: unknown, where: string): ContentTypeModel {
  if (!isObject(extension)) throw new SchemaError(`${where}: must be a JSON object`);
  const merged: Json = { ...base.raw, ...extension };
  const attributes = isObject(merged.attributes) ? { ...merged.attributes } : merged.attributes;
  if (isObject(attributes)) {
    for (const [name, raw] of Object.entries(attributes)) {
      if (isObject(raw) && typeof raw.target === 'string' && UNMODELLED_TARGETS.has(raw.target)) delete attributes[name];
    }
  }
  const [plugin = '', name = ''] = base.uid.replace(/^plugin::/, '').split('.');
  const parsed = parseContentType({ ...merged, attributes }, plugin, name, where);
  const refuse = (what: string) => {
    throw new SchemaError(`${where}: ${what} (Hearth serves ${base.uid} with it)`);
  };
  if (parsed.table !== base.table) refuse(`"collectionName" must stay "${base.collectionName}"`);
  if (parsed.kind !== base.kind) refuse(`"kind" must stay "${base.kind}"`);
  if (parsed.singularName !== base.singularName || parsed.pluralName !== base.pluralName) {
    refuse(`"info.singularName" and "info.pluralName" must stay "${base.singularName}" and "${base.pluralName}"`);
  }
  if (parsed.draftAndPublish) refuse('"options.draftAndPublish" must stay false');
  if (parsed.localized) refuse('"pluginOptions.i18n.localized" must stay false');
  for (const attr of base.attributes.values()) {
    const given = parsed.attributes.get(attr.name);
    if (given === undefined) refuse(`attribute "${attr.name}" is missing`);
    else if (!isDeepStrictEqual(essentials(given), essentials(attr))) refuse(`attribute "${attr.name}" must stay as the plugin declares it ${JSON.stringify(attr.raw)}`);
  }
  return { ...parsed, uid: base.uid, builtIn: true };
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
export async function loadExtensions(root: string): Promise<ContentTypeModel[]> {
  const out: ContentTypeModel[] = [];
  const dir = join(root, 'src', 'extensions');
  for (const plugin of await subfolders(dir)) {
    for (const name of await subfolders(join(dir, plugin, 'content-types'))) {
      const key = `${plugin}/${name}`;
      const base = EXTENDABLE.get(key);
      const file = join(dir, plugin, 'content-types', name, 'schema.json');
      const where = relative(root, file) || file;
      if (base === undefined) continue;
      const text = await readIfPresent(file);
      if (text === null) continue;
      let raw: unknown;
      try {
        raw = JSON.parse(text);
      } catch (err) {
        throw new SchemaError(`${where}: not valid JSON (${(err as Error).message})`);
      }
      out.push(extendPluginModel(base, raw, where));
    }
  }
  return out;
}
