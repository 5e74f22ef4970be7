import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { BUILT_IN_CUSTOM_FIELDS, isCustomFieldUid, PROJECT_CONFIG_FILE, type CustomFieldTable } from './custom-fields.js';
import { schemaError } from './parse.js';
import { SCALAR_TYPES, type ScalarType } from './types.js';
import { isRecord as isObject } from '../errors/is-record.js';

/**
 * `hearth.json` at a Strapi project's root: what Hearth needs to know of a project that Strapi
 * learns from running its plugins. Today one key, `customFields`: `{ "<uid>": "<base type>" }`.
 */

const KEYS = ['customFields'];

const isScalarType = (v: unknown): v is ScalarType => (SCALAR_TYPES as readonly unknown[]).includes(v);

/** Checks a parsed `hearth.json` and merges its `customFields` over the built-in table. */
export function customFieldTable(raw: unknown, where: string): CustomFieldTable {
  if (!isObject(raw)) throw schemaError(`${where}: must be a JSON object`);
  for (const key of Object.keys(raw)) {
    if (!KEYS.includes(key)) throw schemaError(`${where}: unknown key "${key}" (Hearth reads ${KEYS.map((k) => `"${k}"`).join(', ')})`);
  }
  const declared = raw.customFields;
  if (declared === undefined) return BUILT_IN_CUSTOM_FIELDS;
  if (!isObject(declared)) throw schemaError(`${where}: "customFields" must be an object of { "<custom field uid>": "<base type>" }`);
  const table = new Map(BUILT_IN_CUSTOM_FIELDS);
  for (const [uid, type] of Object.entries(declared)) {
    const at = `${where}: "customFields"."${uid}"`;
    if (!isCustomFieldUid(uid)) throw schemaError(`${at}: a custom field uid is plugin::<plugin>.<name> or global::<name>`);
    if (!isScalarType(type)) {
      throw schemaError(`${at}: ${JSON.stringify(type)} is not a base type a custom field can have (one of ${SCALAR_TYPES.join(', ')})`);
    }
    table.set(uid, type);
  }
  return table;
}

/** Reads `hearth.json` at a project root; a project without one uses the built-in table. */
export async function loadCustomFieldTable(root: string): Promise<CustomFieldTable> {
  let text: string;
  try {
    text = await readFile(join(root, PROJECT_CONFIG_FILE), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return BUILT_IN_CUSTOM_FIELDS;
    throw err;
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw schemaError(`${PROJECT_CONFIG_FILE}: not valid JSON (${(err as Error).message})`);
  }
  return customFieldTable(raw, PROJECT_CONFIG_FILE);
}
