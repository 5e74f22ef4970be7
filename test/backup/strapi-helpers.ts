import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { runInProcess } from './helpers.js';
import type { RunResult } from '../helpers/cli.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

/** The real Strapi 5.54 export of the fixture project (test/fixtures/strapi/export/README.md). */
export const STRAPI_EXPORT = resolve(import.meta.dirname, '../fixtures/strapi/export');
export const STRAPI_TAR_GZ = join(STRAPI_EXPORT, 'export-example.tar.gz');
/** The same archive unpacked, as `strapi export --format dir` writes it. */
export const STRAPI_DIR = join(STRAPI_EXPORT, 'archive');

/** One line of an archive stage. */
export type Line = Record<string, unknown> & { type: string; id: number; data: Record<string, unknown> };

/** Every JSON line of one stage of an unpacked archive, in order. */
export async function stage(dir: string, name: 'schemas' | 'entities' | 'links' | 'configuration'): Promise<Line[]> {
  const text = await readFile(join(dir, name, `${name}_00001.jsonl`), 'utf8');
  return text
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Line);
}

/** `hearth import --from-strapi FILE --data DIR ...` in this process. */
export const importStrapi = (file: string, dataDir: string, ...more: string[]): Promise<RunResult> =>
  runInProcess(['import', '--from-strapi', file, '--data', dataDir, ...more]);

/** `hearth export --format strapi --file F --data DIR ...` in this process. */
export const exportStrapi = (dataDir: string, file: string, ...more: string[]): Promise<RunResult> =>
  runInProcess(['export', '--format', 'strapi', '--file', file, '--data', dataDir, ...more]);

/** A server on an imported data dir, serving the schemas the import wrote into it. */
export const serveImported = (dataDir: string): Promise<TestServer> => startTestServer({ dataDir, schemas: join(dataDir, 'schema'), database: 'sqlite' });

/** Reads every path with a full-access token; the bodies as text, for byte comparisons between two servers. */
export async function answers(server: TestServer, paths: readonly string[]): Promise<Record<string, string>> {
  const token = await server.token('full-access');
  const out: Record<string, string> = {};
  for (const path of paths) {
    const res = await server.request(path, { token });
    out[path] = `${res.status} ${await res.text()}`;
  }
  return out;
}

/** Every content read the fixture's data has: each type in each status and locale, everything populated. */
export const CONTENT_READS = [
  '/api/articles?locale=*&status=draft&populate=*&sort=id',
  '/api/articles?locale=*&status=published&populate=*&sort=id',
  '/api/articles?locale=fr&populate[category]=true&populate[tags]=true&populate[cover]=true&populate[gallery]=true&populate[seo]=true&populate[blocks]=true',
  '/api/categories?populate=*&sort=id',
  '/api/tags?status=draft&populate=*&sort=id',
  '/api/tags?populate=*&sort=id',
  '/api/homepage?populate=*',
  '/api/homepage?status=draft&populate=*',
  '/api/specimens?populate=*&sort=id',
  '/api/upload/files?sort=id',
  '/api/users?populate=role&sort=id',
  '/api/users-permissions/roles',
];
