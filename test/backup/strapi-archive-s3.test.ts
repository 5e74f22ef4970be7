import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withEnv } from '../helpers/cli.js';
import { startTestServer } from '../helpers/server.js';
import { s3EnvOf, startTestS3, type TestS3 } from '../uploads/s3-gateway.js';
import type { FileObject } from '../uploads/helpers.js';
import { exportStrapi, importStrapi, serveImported, STRAPI_DIR, STRAPI_TAR_GZ } from './strapi-helpers.js';

/**
 * Strapi archives and the S3 provider (UPLOAD_PROVIDER=s3): an import puts the archive's media
 * into the bucket and points the files at it; an export reads them back from the bucket, and
 * that archive imported into a local data dir serves the same bytes from /uploads.
 */

let root: string;
let s3: TestS3;

const assetBytes = async (name: string) => readFile(join(STRAPI_DIR, 'assets', 'uploads', name));
const urlsOf = (files: FileObject[]) => files.flatMap((f) => [f.url, ...Object.values(f.formats ?? {}).map((x) => x.url)]);

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'hearth-strapi-s3-'));
  s3 = await startTestS3();
});

afterAll(async () => {
  await s3?.close();
  await rm(root, { recursive: true, force: true });
});

describe('Strapi archives with UPLOAD_PROVIDER=s3', () => {
  it('imports the media into the bucket, and exports them from it', async () => {
    const env = s3EnvOf(s3);
    const dataDir = join(root, 'on-s3');
    const run = await withEnv(env, () => importStrapi(STRAPI_TAR_GZ, dataDir));
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('assets: 3 (stored with aws-s3)');
    expect(await readdir(join(dataDir, 'uploads'))).toEqual([]);
    const server = await startTestServer({ dataDir, schemas: join(dataDir, 'schema'), database: 'sqlite', env });
    try {
      const files = (await (await server.request('/api/upload/files?sort=id', { token: await server.token('full-access') })).json()) as FileObject[];
      const urls = urlsOf(files);
      expect(urls).toHaveLength(3);
      for (const url of urls) {
        expect(url.startsWith(`${s3.endpoint}/${s3.bucket}/`), url).toBe(true);
        const bytes = Buffer.from(await (await fetch(url)).arrayBuffer());
        expect(bytes.equals(await assetBytes(url.slice(url.lastIndexOf('/') + 1))), url).toBe(true);
      }
    } finally {
      await server.close();
    }
    const file = join(root, 'from-s3.tar.gz');
    const exported = await withEnv(env, () => exportStrapi(dataDir, file));
    expect(exported.stderr).toContain('assets: 3');
    expect(exported.code).toBe(0);
    const local = join(root, 'local');
    expect((await importStrapi(file, local)).code).toBe(0);
    const copy = await serveImported(local);
    try {
      const files = (await (await copy.request('/api/upload/files?sort=id', { token: await copy.token('full-access') })).json()) as FileObject[];
      expect(files.map((f) => f.provider)).toEqual(['local', 'local']);
      for (const url of urlsOf(files)) {
        expect(url).toMatch(/^\/uploads\//);
        const bytes = Buffer.from(await (await copy.request(url)).arrayBuffer());
        expect(bytes.equals(await assetBytes(url.slice('/uploads/'.length))), url).toBe(true);
      }
    } finally {
      await copy.close();
    }
  });
});
