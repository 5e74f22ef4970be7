import { schemaError } from './parse.js';
import { isRecord as isObject } from '../errors/is-record.js';

/**
 * Hearth's own options in a content type's schema.json, under `pluginOptions.hearth` (Strapi
 * keeps unknown pluginOptions as they are and ignores them, so the file still loads in Strapi).
 * Today one key, `defaultPopulate`: the populate `find` and `findOne` use when a request sends none.
 */
export const HEARTH_PLUGIN_OPTIONS = 'hearth';
const KEYS = ['defaultPopulate'];

/** A default populate as the REST API takes one: `*`, comma-separated paths, a list of paths, or the object form. */
export type DefaultPopulate = string | readonly string[] | Readonly<Record<string, unknown>>;


/** Reads `pluginOptions.hearth` of a content-type schema: its default populate, checked for shape (paths are checked against the registry when used). */
export function hearthOptions(raw: Record<string, unknown>, where: string): { defaultPopulate?: DefaultPopulate } {
  const plugin = raw.pluginOptions;
  const options = isObject(plugin) ? plugin[HEARTH_PLUGIN_OPTIONS] : undefined;
  if (options === undefined) return {};
  const at = `${where}: "pluginOptions.${HEARTH_PLUGIN_OPTIONS}"`;
  if (!isObject(options)) throw schemaError(`${at} must be an object`);
  for (const key of Object.keys(options)) if (!KEYS.includes(key)) throw schemaError(`${at}: unknown key "${key}" (Hearth reads "defaultPopulate")`);
  const value = options.defaultPopulate;
  if (value === undefined || value === null) return {};
  if (typeof value === 'string' || isObject(value) || (Array.isArray(value) && value.every((v) => typeof v === 'string'))) return { defaultPopulate: value as DefaultPopulate };
  throw schemaError(`${at}.defaultPopulate must be a populate: "*", paths ("a,b.c" or ["a", "b.c"]) or an object`);
}
