import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { loadProjectFiles, SAFE_SEGMENT } from '../backup/schema-files.js';
import { PROJECT_CONFIG_FILE } from '../schema/custom-fields.js';
import { isRecord, strapiArchiveError, type Located } from './jsonl.js';

/**
 * The archive's `schemas` stage as a Strapi project: each `api::` content type becomes
 * `src/api/<api>/content-types/<name>/schema.json` and each component
 * `src/components/<category>/<name>.json`, as the project that was exported holds them.
 */

/** Attributes Strapi adds to every content type's internal schema (not in the project's files). */
export const ADDED_ATTRIBUTES = ['createdAt', 'updatedAt', 'publishedAt', 'createdBy', 'updatedBy', 'locale', 'localizations'] as const;
/** Keys of an internal schema that Strapi derives rather than reads from the file. */
const DERIVED_KEYS = new Set(['modelType', 'modelName', 'uid', 'globalId', 'plugin', '__schema__', '__filename__']);

/** One schema of the archive, with the file it becomes (null: a plugin or admin type Hearth has built in). */
export interface ArchiveSchema {
  readonly uid: string;
  readonly modelType: 'contentType' | 'component';
  readonly raw: Record<string, unknown>;
  /** Relative to the project root; null for plugin and admin types. */
  readonly path: string | null;
  /** The project file's content. */
  readonly file: Record<string, unknown> | null;
}

function projectPath(uid: string, modelType: string, at: string): string | null {
  const segments = (parts: (string | undefined)[]): string[] => {
    if (parts.some((p) => p === undefined || !SAFE_SEGMENT.test(p))) throw strapiArchiveError(`${at}: unusable uid ${JSON.stringify(uid)}`);
    return parts as string[];
  };
  if (modelType === 'component') {
    const [category, name] = segments(uid.split('.'));
    return `src/components/${category}/${name}.json`;
  }
  const api = /^api::([^.]+)\.([^.]+)$/.exec(uid);
  if (api === null) return null;
  const [apiName, name] = segments([api[1], api[2]]);
  return `src/api/${apiName}/content-types/${name}/schema.json`;
}

/** The project file of an internal schema: its own keys in the order Strapi's generators write them, added attributes left out. */
function projectFile(raw: Record<string, unknown>, modelType: string): Record<string, unknown> {
  const attributes = isRecord(raw.attributes) ? { ...raw.attributes } : {};
  if (modelType === 'contentType') for (const name of ADDED_ATTRIBUTES) delete attributes[name];
  const first = modelType === 'contentType' ? ['kind', 'collectionName', 'info', 'options', 'pluginOptions'] : ['collectionName', 'info', 'options', 'pluginOptions'];
  const out: Record<string, unknown> = {};
  for (const key of first) if (raw[key] !== undefined) out[key] = raw[key];
  for (const [key, value] of Object.entries(raw)) {
    if (!DERIVED_KEYS.has(key) && !(key in out) && key !== 'attributes') out[key] = value;
  }
  out.attributes = attributes;
  return out;
}

/** Checks the archive's schema lines; every uid once. */
export function parseArchiveSchemas(lines: readonly Located<Record<string, unknown>>[]): ArchiveSchema[] {
  const seen = new Set<string>();
  return lines.map(({ value, at }) => {
    const { uid, modelType } = value;
    if (typeof uid !== 'string' || (modelType !== 'contentType' && modelType !== 'component')) throw strapiArchiveError(`${at}: a schema needs a uid and a modelType`);
    if (!isRecord(value.attributes)) throw strapiArchiveError(`${at}: schema ${uid} has no attributes`);
    if (seen.has(uid)) throw strapiArchiveError(`${at}: schema ${uid} appears twice`);
    seen.add(uid);
    const path = projectPath(uid, modelType, at);
    return { uid, modelType, raw: value, path, file: path === null ? null : projectFile(value, modelType) };
  });
}

/** Schema files of `schemas` that a project at `root` already holds with other content: the import refuses them unless forced. */
export async function conflictingSchemas(root: string, schemas: readonly ArchiveSchema[]): Promise<string[]> {
  const existing = new Set(await loadProjectFiles(root).catch(() => [] as string[]));
  const out: string[] = [];
  for (const schema of schemas) {
    if (schema.path === null || !existing.has(schema.path)) continue;
    let current: unknown;
    try {
      current = JSON.parse(await readFile(join(root, schema.path), 'utf8'));
    } catch {
      current = undefined;
    }
    if (!isDeepStrictEqual(current, schema.file)) out.push(schema.uid);
  }
  return out;
}

const serialise = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;

/**
 * Copies the project at `from` (its schema files and its hearth.json, which says how its custom
 * fields are stored; a missing folder holds none) into `to`, then writes the archive's schema files over it.
 */
export async function writeProject(options: { from: string | null; to: string; schemas: readonly ArchiveSchema[] }): Promise<number> {
  if (options.from !== null) {
    const config = await readFile(join(options.from, PROJECT_CONFIG_FILE)).catch(() => null);
    if (config !== null) {
      await mkdir(options.to, { recursive: true });
      await writeFile(join(options.to, PROJECT_CONFIG_FILE), config);
    }
    for (const file of await loadProjectFiles(options.from).catch(() => [] as string[])) {
      await mkdir(dirname(join(options.to, file)), { recursive: true });
      await copyFile(join(options.from, file), join(options.to, file));
    }
  }
  let written = 0;
  for (const schema of options.schemas) {
    if (schema.path === null) continue;
    await mkdir(dirname(join(options.to, schema.path)), { recursive: true });
    await writeFile(join(options.to, schema.path), serialise(schema.file));
    written++;
  }
  return written;
}
