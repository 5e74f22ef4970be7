import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkBoundaries, folderCycles, folderOf } from '../../scripts/check-boundaries.js';

const ROOT = resolve(import.meta.dirname, '../..');
const TSCONFIG = { compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', strict: true }, include: ['**/*.ts'] };

let tree = '';
afterEach(async () => {
  if (tree !== '') await rm(tree, { recursive: true, force: true });
  tree = '';
});

/** A temp project with the real rules (.dependency-cruiser.cjs) and the given files. */
async function project(files: Record<string, string>): Promise<string> {
  tree = await mkdtemp(join(tmpdir(), 'hearth-boundaries-'));
  await copyFile(join(ROOT, '.dependency-cruiser.cjs'), join(tree, '.dependency-cruiser.cjs'));
  await writeFile(join(tree, 'tsconfig.json'), JSON.stringify(TSCONFIG));
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(tree, path)), { recursive: true });
    await writeFile(join(tree, path), text);
  }
  return tree;
}

/** The layering every rule allows: nothing below may be reported. */
const ALLOWED = {
  'server/index.ts':
    "import { createApp } from './app.js';\nimport { createDocumentService } from './documents/index.js';\nexport const start = () => [createApp, createDocumentService];\n",
  'server/app.ts': "import { route } from './http/route.js';\nexport const createApp = () => route;\n",
  'server/http/route.ts':
    "import { guard } from './guard.js';\nimport { createDocumentService } from '../documents/index.js';\nexport const route = [guard, createDocumentService];\n",
  'server/http/guard.ts': 'export const guard = 1;\n',
  'server/documents/index.ts': "import { read } from './read.js';\nexport const createDocumentService = () => read;\n",
  'server/documents/read.ts': "import { parse } from '../query/parse.js';\nexport const read = parse;\n",
  'server/query/parse.ts':
    "import { FIELD } from '../schema/types.js';\nimport { AppError } from '../errors/app-error.js';\nimport { MAX } from '../limits.js';\nexport const parse = [FIELD, AppError, MAX];\n",
  'server/schema/types.ts': 'export const FIELD = 1;\n',
  'server/errors/app-error.ts': 'export class AppError extends Error {}\n',
  'server/limits.ts': 'export const MAX = 1;\n',
  'main/main.ts': "import { start } from '../server/index.js';\nexport const go = start;\n",
  'test/reach-in.test.ts':
    "import { read } from '../server/documents/read.js';\nimport { guard } from '../server/http/guard.js';\nexport const t = [read, guard];\n",
};

describe('import-boundary check (scripts/check-boundaries.ts)', () => {
  it('finds nothing in a tree that keeps the layering (tests may reach in)', async () => {
    expect(await checkBoundaries(await project(ALLOWED), ['server', 'main', 'test'])).toEqual({ breaches: [], cycles: [] });
  });

  it('names each planted breach of a path rule, type-only imports included', async () => {
    const root = await project({
      ...ALLOWED,
      'server/query/parse.ts': "import type { Row } from '../db/row.js';\nexport const parse = (r: Row) => r;\n",
      'server/db/row.ts': 'export type Row = { id: number };\n',
      'server/users/users.ts': "import { read } from '../documents/read.js';\nexport const users = read;\n",
      'server/transfer/upgrade.ts': "import { guard } from '../http/guard.js';\nexport const upgrade = guard;\n",
      'main/start.ts': "import type { Config } from '../server/config.js';\nexport const c: Config | null = null;\n",
      'server/config.ts': 'export type Config = { port: number };\n',
    });
    const { breaches } = await checkBoundaries(root, ['server', 'main']);
    expect([...breaches].sort()).toEqual([
      'documents-front-door: server/users/users.ts -> server/documents/read.ts',
      'http-is-an-edge: server/transfer/upgrade.ts -> server/http/guard.ts',
      'main-enters-by-index: main/start.ts -> server/config.ts',
      'query-is-pure: server/query/parse.ts -> server/db/row.ts',
    ]);
  });

  it('catches a planted cycle between server folders, even through a type-only import', async () => {
    const root = await project({
      ...ALLOWED,
      'server/schema/types.ts': "import type { User } from '../users/models.js';\nexport const FIELD = 1;\nexport type Field = User;\n",
      'server/users/models.ts': "import { FIELD } from '../schema/types.js';\nexport type User = { id: typeof FIELD };\n",
    });
    const { cycles } = await checkBoundaries(root, ['server', 'main']);
    expect(cycles).toEqual([
      'cycle between server/schema, server/users:\n  shortest: server/schema -> server/users -> server/schema\n    server/schema/types.ts -> server/users/models.ts\n    server/users/models.ts -> server/schema/types.ts',
    ]);
  });

  it('counts a file at server/ root as its own node (services.ts <-> users/)', async () => {
    const root = await project({
      ...ALLOWED,
      'server/services.ts': "import { users } from './users/users.js';\nexport const services = users;\nexport type Logger = (line: string) => void;\n",
      'server/users/users.ts': "import type { Logger } from '../services.js';\nexport const users = (log: Logger) => log;\n",
    });
    const { cycles } = await checkBoundaries(root, ['server']);
    expect(cycles).toEqual([
      'cycle between server/services.ts, server/users:\n  shortest: server/services.ts -> server/users -> server/services.ts\n    server/services.ts -> server/users/users.ts\n    server/users/users.ts -> server/services.ts',
    ]);
  });

  it('maps modules to folder nodes and finds longer cycles', () => {
    expect([folderOf('server/query/ast.ts'), folderOf('server/services.ts'), folderOf('main/main.ts')]).toEqual(['server/query', 'server/services.ts', null]);
    const module = (source: string, ...to: string[]) => ({ source, dependencies: to.map((resolved) => ({ resolved })) });
    const modules = [
      module('server/a/x.ts', 'server/b/y.ts'),
      module('server/b/y.ts', 'server/c.ts'),
      module('server/c.ts', 'server/a/z.ts'),
      module('server/d/w.ts', 'server/a/x.ts'),
    ];
    expect(folderCycles(modules)).toEqual([
      'cycle between server/a, server/b, server/c.ts:\n  shortest: server/a -> server/b -> server/c.ts -> server/a\n    server/a/x.ts -> server/b/y.ts\n    server/b/y.ts -> server/c.ts\n    server/c.ts -> server/a/z.ts',
    ]);
  });
});
