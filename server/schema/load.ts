import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import type { BuiltInModels } from './built-ins.js';
import { loadExtensions } from './extensions.js';
import type { CustomFieldTable } from './custom-fields.js';
import { parseComponent, parseContentType, schemaError } from './parse.js';
import { loadCustomFieldTable } from './project-config.js';
import type { ComponentModel, ContentTypeModel } from './types.js';

async function listDirs(dir: string): Promise<string[]> {
  try {
    const entries = await readdir(dir, { withFileTypes: true });
    return entries.filter((e) => e.isDirectory()).map((e) => e.name).sort();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
}

async function listJsonFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  return entries.filter((e) => e.isFile() && e.name.endsWith('.json')).map((e) => e.name).sort();
}

async function readJson(file: string, where: string): Promise<unknown> {
  const text = await readFile(file, 'utf8');
  try {
    return JSON.parse(text);
  } catch (err) {
    throw schemaError(`${where}: not valid JSON (${(err as Error).message})`);
  }
}

/** What a Strapi project folder declares, before cross-checking. */
export interface ProjectSchemas {
  readonly contentTypes: ContentTypeModel[];
  readonly components: ComponentModel[];
  /** Plugin content types the project extends (`src/extensions/...`), merged with the plugin's schema. */
  readonly plugins?: readonly ContentTypeModel[];
  /** Custom-field base types: the built-in table and the project's `hearth.json` (built-in only when absent). */
  readonly customFields?: CustomFieldTable;
  /** The plugin models the registry serves beside the project's (handed in by the caller: schema/built-ins.ts). */
  readonly builtIns: BuiltInModels;
}

/**
 * Reads a Strapi project as it is: `src/api/<api>/content-types/<name>/schema.json` and
 * `src/components/<category>/<name>.json`, and the extensions of plugin content types
 * (schema/extensions.ts). Controllers, routes and services beside them are ignored.
 * A folder that does not exist yet simply declares nothing.
 */
export async function loadProject(root: string, builtIns: BuiltInModels): Promise<ProjectSchemas> {
  const contentTypes: ContentTypeModel[] = [];
  const components: ComponentModel[] = [];
  const customFields = await loadCustomFieldTable(root);
  const apiDir = join(root, 'src', 'api');
  for (const api of await listDirs(apiDir)) {
    const ctDir = join(apiDir, api, 'content-types');
    for (const name of await listDirs(ctDir)) {
      const file = join(ctDir, name, 'schema.json');
      const where = relative(root, file) || file;
      let raw: unknown;
      try {
        raw = await readJson(file, where);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue;
        throw err;
      }
      contentTypes.push(parseContentType(raw, api, name, where, customFields));
    }
  }
  const componentsDir = join(root, 'src', 'components');
  for (const category of await listDirs(componentsDir)) {
    for (const fileName of await listJsonFiles(join(componentsDir, category))) {
      const file = join(componentsDir, category, fileName);
      const where = relative(root, file) || file;
      components.push(parseComponent(await readJson(file, where), category, fileName.slice(0, -'.json'.length), where, customFields));
    }
  }
  return { contentTypes, components, plugins: await loadExtensions(root, builtIns), customFields, builtIns };
}
