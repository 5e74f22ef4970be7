import { readdir, readFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { moduleScope, type ModuleScope } from './module-scope.js';
import { parseSource } from './parse-source.js';

const SOURCE = /\.(?:[cm]?js|[cm]?ts)$/;
const isSource = (name: string) => SOURCE.test(name) && !/\.d\.[cm]?ts$/.test(name);

/** A source file's name without its extension (`page-populate` of `page-populate.ts`). */
export const baseName = (file: string): string => (file.split('/').pop() ?? file).replace(SOURCE, '');

/** Folder names under `dir`, sorted; none when it does not exist. */
export async function dirsIn(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir, { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => e.name).sort();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' || (err as NodeJS.ErrnoException).code === 'ENOTDIR') return [];
    throw err;
  }
}

/** JavaScript and TypeScript files directly in `dir` (not declaration files), sorted, as paths from `root` with `/`. */
export async function sourcesIn(root: string, dir: string): Promise<string[]> {
  try {
    const entries = await readdir(join(root, dir), { withFileTypes: true });
    return entries.filter((e) => e.isFile() && isSource(e.name)).map((e) => relative(root, join(root, dir, e.name)).split(sep).join('/')).sort();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' || (err as NodeJS.ErrnoException).code === 'ENOTDIR') return [];
    throw err;
  }
}

/** A project file read and parsed (never run): its top level, or why it could not be read. */
export type ReadModule = { readonly ok: true; readonly scope: ModuleScope } | { readonly ok: false; readonly reason: string };

/** Reads and parses one project file, TypeScript by its extension. */
export async function readModule(root: string, file: string): Promise<ReadModule> {
  const text = await readFile(join(root, file), 'utf8');
  const parsed = await parseSource(text, /\.[cm]?ts$/.test(file));
  return parsed.ok ? { ok: true, scope: moduleScope(parsed.program) } : parsed;
}
