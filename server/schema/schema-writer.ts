import { access, mkdir, readdir, readFile, rename, rm, rmdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { componentParts, contentTypeParts, type ProjectDocs } from './builder.js';

/**
 * Writes the builder's schemas as a Strapi project lays them out: content types in
 * `src/api/<api>/content-types/<name>/schema.json` (with the core controller, route and service
 * files Strapi's builder generates beside a new one), components in
 * `src/components/<category>/<name>.json`. Every file is replaced atomically, and a failed change
 * is undone file by file.
 */

/** One file to write (content) or delete (null). */
export interface FileChange {
  readonly path: string;
  readonly content: string | null;
}

/** Puts the files back as they were before a change. */
export type Undo = () => Promise<void>;

const exists = (path: string) => access(path).then(() => true, () => false);

const schemaText = (doc: unknown): string => `${JSON.stringify(doc, null, 2)}\n`;

/** The schema file of a content type or component uid, inside a project root. */
export function contentTypeFile(root: string, uid: string): string {
  const { api, name } = contentTypeParts(uid);
  return join(root, 'src', 'api', api, 'content-types', name, 'schema.json');
}

/** The file of a component uid, inside a project root. */
export function componentFile(root: string, uid: string): string {
  const { category, name } = componentParts(uid);
  return join(root, 'src', 'components', category, `${name}.json`);
}

/** Strapi's generated core files of a content type (`createCoreController('api::x.x')` and friends). */
async function coreFiles(root: string, uid: string, content: boolean): Promise<FileChange[]> {
  const { api, name } = contentTypeParts(uid);
  const typescript = await exists(join(root, 'tsconfig.json'));
  const ext = typescript ? 'ts' : 'js';
  const kinds = [
    ['controllers', 'createCoreController'],
    ['routes', 'createCoreRouter'],
    ['services', 'createCoreService'],
  ] as const;
  return kinds.map(([folder, factory]) => ({
    path: join(root, 'src', 'api', api, folder, `${name}.${ext}`),
    content: !content
      ? null
      : typescript
        ? `/**\n * ${name} ${folder.slice(0, -1)}\n */\n\nimport { factories } from '@strapi/strapi';\n\nexport default factories.${factory}('${uid}');\n`
        : `'use strict';\n\n/**\n * ${name} ${folder.slice(0, -1)}\n */\n\nconst { ${factory} } = require('@strapi/strapi').factories;\n\nmodule.exports = ${factory}('${uid}');\n`,
  }));
}

/** The files a change writes and deletes: changed schemas, plus core files of added and removed content types. */
export async function fileChanges(root: string, before: ProjectDocs, after: ProjectDocs): Promise<FileChange[]> {
  const changes: FileChange[] = [];
  for (const [uid, doc] of after.contentTypes) {
    const old = before.contentTypes.get(uid);
    if (isDeepStrictEqual(old, doc)) continue;
    changes.push({ path: contentTypeFile(root, uid), content: schemaText(doc) });
    if (old === undefined) {
      for (const file of await coreFiles(root, uid, true)) if (!(await exists(file.path))) changes.push(file);
    }
  }
  for (const uid of before.contentTypes.keys()) {
    if (after.contentTypes.has(uid)) continue;
    changes.push({ path: contentTypeFile(root, uid), content: null }, ...(await coreFiles(root, uid, false)));
  }
  for (const [uid, doc] of after.components) {
    if (!isDeepStrictEqual(before.components.get(uid), doc)) changes.push({ path: componentFile(root, uid), content: schemaText(doc) });
  }
  for (const uid of before.components.keys()) {
    if (!after.components.has(uid)) changes.push({ path: componentFile(root, uid), content: null });
  }
  return changes;
}

async function previous(path: string): Promise<Buffer | null> {
  try {
    return await readFile(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

/** Removes the now-empty folders a deleted file leaves, up to (not including) `src`. */
async function pruneEmpty(root: string, dir: string): Promise<void> {
  const stop = join(root, 'src');
  let current = dir;
  while (current.startsWith(stop) && current !== stop) {
    const entries = await readdir(current).catch(() => null);
    if (entries === null || entries.length > 0) return;
    await rmdir(current).catch(() => undefined);
    current = dirname(current);
  }
}

async function put(path: string, content: string | Buffer): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(temporary, content);
  await rename(temporary, path);
}

/** Applies file changes; the returned function restores every touched file. */
export async function writeFiles(root: string, changes: readonly FileChange[]): Promise<Undo> {
  const saved: { path: string; content: Buffer | null }[] = [];
  const undo: Undo = async () => {
    for (const { path, content } of saved.reverse()) {
      if (content === null) await rm(path, { force: true });
      else await put(path, content);
    }
  };
  try {
    for (const change of changes) {
      saved.push({ path: change.path, content: await previous(change.path) });
      if (change.content !== null) {
        await put(change.path, change.content);
      } else {
        await rm(change.path, { force: true });
        await pruneEmpty(root, dirname(change.path));
      }
    }
  } catch (err) {
    await undo();
    throw err;
  }
  return undo;
}
