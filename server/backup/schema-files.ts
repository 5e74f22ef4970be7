import { readdir } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * The files of a Strapi project folder that Hearth reads (schema/load.ts): content-type schemas,
 * component schemas and the extensions of plugin content types
 * (`src/extensions/<plugin>/content-types/<name>/schema.json`, schema/extensions.ts). Only these
 * travel in an archive, under `schema/`.
 */

/** A path segment an archive may use: no dot-files, no `..`, no separators. */
export const SAFE_SEGMENT = /^[A-Za-z0-9_][A-Za-z0-9_.@-]{0,200}$/;

async function dirs(dir: string): Promise<string[]> {
  try {
    const entries = await readdir(dir, { withFileTypes: true });
    return entries.filter((e) => e.isDirectory() && SAFE_SEGMENT.test(e.name)).map((e) => e.name).sort();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
}

async function jsonFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  return entries.filter((e) => e.isFile() && e.name.endsWith('.json') && SAFE_SEGMENT.test(e.name)).map((e) => e.name).sort();
}

/** The schema files of a project root, as paths relative to it (`src/api/a/content-types/a/schema.json`, `src/components/c/n.json`, `src/extensions/p/content-types/n/schema.json`). */
export async function loadProjectFiles(root: string): Promise<string[]> {
  const out: string[] = [];
  for (const kind of ['api', 'extensions']) {
    for (const owner of await dirs(join(root, 'src', kind))) {
      for (const name of await dirs(join(root, 'src', kind, owner, 'content-types'))) {
        const files = await jsonFiles(join(root, 'src', kind, owner, 'content-types', name));
        if (files.includes('schema.json')) out.push(['src', kind, owner, 'content-types', name, 'schema.json'].join('/'));
      }
    }
  }
  for (const category of await dirs(join(root, 'src', 'components'))) {
    for (const file of await jsonFiles(join(root, 'src', 'components', category))) out.push(['src', 'components', category, file].join('/'));
  }
  return out;
}

/** Whether a path relative to a project root is one of the schema file shapes. */
export function isSchemaFilePath(path: string): boolean {
  const parts = path.split('/');
  if (!parts.every((p) => SAFE_SEGMENT.test(p) && p !== '..')) return false;
  const [src, kind, a, b, c, d] = parts;
  if (src !== 'src') return false;
  if (kind === 'api' || kind === 'extensions') return parts.length === 6 && b === 'content-types' && d === 'schema.json' && a !== undefined && c !== undefined;
  if (kind === 'components') return parts.length === 4 && a !== undefined && (b ?? '').endsWith('.json');
  return false;
}

/** Whether a path relative to a project root is a folder on the way to a schema file. */
export function isSchemaDirPath(path: string): boolean {
  const parts = path.split('/');
  if (!parts.every((p) => SAFE_SEGMENT.test(p) && p !== '..')) return false;
  const [src, kind, , b] = parts;
  if (src !== 'src' || parts.length === 1) return src === 'src';
  if (kind === 'api' || kind === 'extensions') return parts.length <= 5 && (parts.length < 4 || b === 'content-types');
  return kind === 'components' && parts.length <= 3;
}
