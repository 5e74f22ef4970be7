import { createHash } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runHearth } from '../helpers/cli.js';
import { databaseEnvFor, databaseUrlFor } from '../helpers/database.js';
import { dataOf, expectJson, type Doc } from '../helpers/project.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { fixturePart, json, postUpload, type FileObject } from '../uploads/helpers.js';
import { s3EnvOf, startTestS3, type TestS3 } from '../uploads/s3-gateway.js';

/**
 * Moving up from a workstation (postgres project only): a SQLite-backed Hearth with local media
 * is exported, and imported into a PostgreSQL-backed Hearth whose uploads use S3. The new server
 * answers every read as the old one did, but with file URLs in the bucket; the files' bytes are
 * there; the API token made before the export works; no id is reused. Then the PostgreSQL side
 * exports too, and that archive restores into another PostgreSQL database identically.
 */

let root: string;
let s3: TestS3;
let token: string;
let deletedTagId: number;
/** Source answers and the bytes behind every file URL, taken before the export. */
let before: { reads: Record<string, string>; media: Map<string, string> };

const READS = [
  '/api/articles?populate[seo]=true&populate[blocks]=true&populate[tags]=true&populate[category]=true&populate[cover]=true&populate[gallery]=true&sort=id',
  '/api/articles?locale=fr&populate=*',
  '/api/articles?status=draft&sort=id&populate=*',
  '/api/articles?locale=*&sort=title',
  '/api/categories?populate=articles&sort=name',
  '/api/tags?status=draft&sort=id',
  '/api/homepage?populate=hero',
  '/api/upload/files?sort=id',
];

const s3Env = (): NodeJS.ProcessEnv => s3EnvOf(s3);
const bucketUrl = () => `${s3.endpoint}/${s3.bucket}/`;
const sha = (bytes: ArrayBuffer) => createHash('sha256').update(Buffer.from(bytes)).digest('hex');

async function seed(server: TestServer): Promise<void> {
  await server.server.services.locales.add({ code: 'fr' });
  token = await server.token('full-access');
  const post = async (path: string, data: unknown) => dataOf(await server.request(path, { method: 'POST', token, json: { data } }), 201);
  const put = async (path: string, data: unknown) => dataOf(await server.request(path, { method: 'PUT', token, json: { data } }));
  const files = await json<FileObject[]>(await postUpload(server, token, [fixturePart('red-400x300.png'), fixturePart('notes.txt'), fixturePart('blue-64x48.jpg')]), 201);
  const [png, txt, jpg] = files.map((f) => f.id);
  const tech = await post('/api/categories', { name: 'Tech' });
  await post('/api/categories', { name: 'life' });
  const tags: Doc[] = [await post('/api/tags', { label: 'Zebra' }), await post('/api/tags', { label: 'apple' }), await post('/api/tags?status=draft', { label: 'draft only' })];
  const doomed = await post('/api/tags', { label: 'deleted' });
  deletedTagId = doomed.id;
  expect((await server.request(`/api/tags/${doomed.documentId}`, { method: 'DELETE', token })).status).toBe(204);
  const article = await post('/api/articles', {
    title: 'École',
    views: 7,
    rating: 4.5,
    featured: true,
    category: tech.documentId,
    tags: tags.map((t) => t.documentId),
    seo: { metaTitle: 'meta', metaDescription: 'description' },
    blocks: [{ __component: 'shared.quote', text: 'q', author: 'a' }, { __component: 'shared.rich-text', body: [{ type: 'paragraph', children: [{ type: 'text', text: 'rich' }] }] }],
    cover: png,
    gallery: [png, txt],
    body: [{ type: 'paragraph', children: [{ type: 'text', text: 'hello', bold: true }] }],
  });
  await put(`/api/articles/${article.documentId}?locale=fr`, { title: 'École (fr)', seo: { metaTitle: 'méta' } });
  await put(`/api/articles/${article.documentId}?status=draft`, { title: 'École, draft edit' });
  await post('/api/articles', { title: 'apple pie', cover: jpg, category: tech.documentId });
  await put('/api/homepage', { headline: 'Welcome', hero: jpg });
}

/** Every read as text, and the bytes behind every URL the files list names. */
async function capture(server: TestServer): Promise<{ reads: Record<string, string>; media: Map<string, string> }> {
  const reads: Record<string, string> = {};
  for (const path of READS) {
    const res = await server.request(path, { token });
    expect(res.status, path).toBe(200);
    reads[path] = `${res.status} ${await res.text()}`;
  }
  const media = new Map<string, string>();
  const files = JSON.parse(reads[READS.at(-1) ?? '']?.slice(4) ?? '[]') as FileObject[];
  for (const file of files) {
    for (const url of [file.url, ...Object.values(file.formats ?? {}).map((f) => f.url)]) {
      const res = url.startsWith('/') ? await server.request(url) : await fetch(url);
      expect(res.status).toBe(200);
      media.set(url, sha(await res.arrayBuffer()));
    }
  }
  return { reads, media };
}

/** What the source's answers become once its media live in the bucket. */
const inBucket = (text: string): string => text.replaceAll('"/uploads/', `"${bucketUrl()}`).replaceAll('"provider":"local"', '"provider":"aws-s3"');

/** The CLI, quiet about the AWS SDK's warning that Node 20 support ends in 2027 (stderr is asserted). */
const hearth = async (args: string[], env: NodeJS.ProcessEnv = {}) => runHearth(args, { NODE_NO_WARNINGS: '1', ...env });

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'hearth-move-up-'));
  s3 = await startTestS3('hearth-move-up');
  const source = await startTestServer({ dataDir: join(root, 'source'), database: 'sqlite' });
  try {
    expect(source.server.services.database.kind).toBe('sqlite');
    await seed(source);
    before = await capture(source);
  } finally {
    await source.close();
  }
});
afterAll(async () => {
  await s3?.close();
  await rm(root, { recursive: true, force: true });
});

describe('moving up: a SQLite export imported into PostgreSQL with media on S3', () => {
  const target = () => join(root, 'target');

  it('exports the SQLite data dir and imports it into an empty PostgreSQL database, media into the bucket', async () => {
    const exported = await hearth(['export', '--file', join(root, 'site.tar.gz'), '--data', join(root, 'source')]);
    expect(exported).toMatchObject({ code: 0, stdout: '' });
    const imported = await hearth(['import', '--file', join(root, 'site.tar.gz'), '--data', target()], { ...(await databaseEnvFor(target())), ...s3Env() });
    expect(imported).toMatchObject({ code: 0, stdout: '' });
    expect(imported.stderr).toMatch(/^imported \d+ tables \(\d+ rows\) and 4 media files into .* \(media stored with aws-s3\)\n$/);
    expect(await readdir(join(target(), 'uploads'))).toEqual([]);
    const puts = s3.requests.filter((r) => r.method === 'PUT' && r.status === 200).map((r) => r.path);
    expect(puts).toHaveLength(4);
  });

  it('answers every read as the SQLite Hearth did, file URLs now in the bucket, and serves the same bytes there', async () => {
    const server = await startTestServer({ dataDir: target(), schemas: join(target(), 'schema'), env: s3Env() });
    try {
      expect(server.server.services.database.kind).toBe('postgres');
      const after = await capture(server);
      expect(after.reads).toEqual(Object.fromEntries(Object.entries(before.reads).map(([path, text]) => [path, inBucket(text)])));
      expect([...after.media.keys()]).toEqual([...before.media.keys()].map((url) => `${bucketUrl()}${url.slice('/uploads/'.length)}`));
      expect([...after.media.values()]).toEqual([...before.media.values()]);
    } finally {
      await server.close();
    }
  });

  it('keeps the API token made before the export, and never reuses an id', async () => {
    const server = await startTestServer({ dataDir: target(), schemas: join(target(), 'schema'), env: s3Env() });
    try {
      const tag = await dataOf(await server.request('/api/tags', { method: 'POST', token, json: { data: { label: 'after the move' } } }), 201);
      expect(tag.id).toBeGreaterThan(deletedTagId);
      const listed = await expectJson<{ data: Doc[] }>(await server.request('/api/tags?sort=label&fields[0]=label', { token }), 200);
      // Byte order, as on SQLite: upper case before lower case.
      expect(listed.data.map((t) => t.label)).toEqual(['Zebra', 'after the move', 'apple']);
      expect((await server.request('/api/tags', { token: 'not-a-token' })).status).toBe(401);
    } finally {
      await server.close();
    }
  });

  it('refuses a PostgreSQL database that is not empty unless --force', async () => {
    const other = join(root, 'other');
    const env = { ...(await databaseEnvFor(target())), ...s3Env() };
    const refused = await hearth(['import', '--file', join(root, 'site.tar.gz'), '--data', other], env);
    expect(refused).toEqual({ code: 1, stdout: '', stderr: 'hearth: the PostgreSQL database (DATABASE_URL) is not empty (use --force to replace it)\n' });
    expect(await readdir(root)).not.toContain('other');
    const forced = await hearth(['import', '--file', join(root, 'site.tar.gz'), '--data', other, '--force'], env);
    expect(forced.code).toBe(0);
    const client = new pg.Client({ connectionString: await databaseUrlFor(target()) ?? '' });
    await client.connect();
    try {
      // The forced import replaced the tag written after the first one.
      expect((await client.query('SELECT label FROM tags ORDER BY id')).rows.map((r: { label: string }) => r.label)).not.toContain('after the move');
    } finally {
      await client.end();
    }
  });

  it('exports from PostgreSQL, and that archive restores into another PostgreSQL database answering the same', async () => {
    const server = await startTestServer({ dataDir: join(root, 'other'), schemas: join(root, 'other', 'schema'), env: { ...(await databaseEnvFor(target())), ...s3Env() } });
    const reads = await capture(server);
    await server.close();
    const exported = await hearth(['export', '--file', join(root, 'pg.tar.gz'), '--data', join(root, 'other')], await databaseEnvFor(target()));
    expect(exported).toMatchObject({ code: 0, stdout: '' });
    const again = join(root, 'again');
    const imported = await hearth(['import', '--file', join(root, 'pg.tar.gz'), '--data', again], { ...(await databaseEnvFor(again)), ...s3Env() });
    expect(imported).toMatchObject({ code: 0, stdout: '' });
    const restored = await startTestServer({ dataDir: again, schemas: join(again, 'schema'), env: s3Env() });
    try {
      expect(await capture(restored)).toEqual(reads);
    } finally {
      await restored.close();
    }
  });
});
