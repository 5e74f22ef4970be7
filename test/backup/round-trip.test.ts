import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataOf, expectJson, type Doc } from '../helpers/project.js';
import { FIXTURE_PROJECT, startTestServer, type TestServer } from '../helpers/server.js';
import { fixturePart, json, postUpload, type FileObject } from '../uploads/helpers.js';
import { checkDatabase, exportTo, importFrom, treeOf } from './helpers.js';

/**
 * Export a data dir full of everything Hearth stores (drafts and published versions in two
 * locales, relations both ways, components, a dynamic zone, media with formats, a single type,
 * values past 2^53, an API token, an end-user session), import it into a fresh data dir, serve
 * that with a new server: every read answers byte for byte as before, files are identical, the
 * token and the session still work, and no id is reused. Runs the compiled CLI.
 */

let root: string;
let source: TestServer;
let token: string;
let session: { jwt: string; refreshToken: string };
let deletedTagId: number;
let archive: string;
let target: string;

/** Reads the source answers to compare with, every populate and status the data has. */
const READS = [
  '/api/articles?populate[seo]=true&populate[blocks]=true&populate[tags]=true&populate[category]=true&populate[cover]=true&populate[gallery]=true&sort=id',
  '/api/articles?locale=fr&populate=*',
  '/api/articles?status=draft&sort=id&populate=*',
  '/api/articles?locale=*&sort=id',
  '/api/articles?locale=de&status=draft&populate=*',
  '/api/categories?populate=articles&sort=id',
  '/api/tags?status=draft&sort=id',
  '/api/homepage?populate=hero',
  '/api/specimens?populate=*&sort=id',
  '/api/upload/files?sort=id',
];

async function seed(server: TestServer): Promise<void> {
  await server.server.services.locales.add({ code: 'fr' });
  await server.server.services.locales.add({ code: 'de' });
  token = await server.token('full-access');
  const post = async (path: string, data: unknown) => dataOf(await server.request(path, { method: 'POST', token, json: { data } }), 201);
  const put = async (path: string, data: unknown) => dataOf(await server.request(path, { method: 'PUT', token, json: { data } }));
  const files = await json<FileObject[]>(await postUpload(server, token, [fixturePart('red-400x300.png'), fixturePart('notes.txt'), fixturePart('blue-64x48.jpg')]), 201);
  const [png, txt, jpg] = files.map((f) => f.id);
  const tech = await post('/api/categories', { name: 'Tech' });
  await post('/api/categories', { name: 'Life' });
  const tags: Doc[] = [await post('/api/tags', { label: 'js' }), await post('/api/tags?status=draft', { label: 'draft only' })];
  const doomed = await post('/api/tags', { label: 'deleted' });
  deletedTagId = doomed.id;
  expect((await server.request(`/api/tags/${doomed.documentId}`, { method: 'DELETE', token })).status).toBe(204);
  const article = await post('/api/articles', {
    title: 'Åland',
    views: 7,
    rating: 4.5,
    featured: true,
    publishDate: '2024-02-01',
    category: tech.documentId,
    tags: tags.map((t) => t.documentId),
    seo: { metaTitle: 'meta', metaDescription: 'description' },
    blocks: [{ __component: 'shared.quote', text: 'q', author: 'a' }, { __component: 'shared.rich-text', body: [{ type: 'paragraph', children: [{ type: 'text', text: 'rich' }] }] }],
    cover: png,
    gallery: [png, txt],
    body: [{ type: 'paragraph', children: [{ type: 'text', text: 'hello', bold: true }] }],
  });
  await put(`/api/articles/${article.documentId}?locale=fr`, { title: 'Åland (fr)', seo: { metaTitle: 'méta' } });
  await put(`/api/articles/${article.documentId}?status=draft`, { title: 'Åland, draft edit' });
  await put(`/api/articles/${article.documentId}?locale=de&status=draft`, { title: 'Åland (de, draft only)' });
  await post('/api/articles?status=draft', { title: 'never published', cover: jpg });
  await put('/api/homepage', { headline: 'Welcome', hero: jpg });
  await post('/api/specimens', { s_required: 'big', s_bigint: '9223372036854775807', s_int: 5, s_float: 1.25, s_decimal: 2.5, s_bool: false, s_json: { nested: [1, 'two', null] }, s_comp: [{ text: 't', author: 'x' }], s_media: [txt] });
  const registered = await expectJson<{ jwt: string; refreshToken: string }>(
    await server.request('/api/auth/local/register', { method: 'POST', json: { username: 'ann', email: 'ann@example.com', password: 'secret-1' } }),
    200,
  );
  session = { jwt: registered.jwt, refreshToken: registered.refreshToken };
}

/** Every read of READS as text, and the bytes of every media URL the files list mentions. */
async function capture(server: TestServer): Promise<{ reads: Record<string, string>; media: Record<string, string> }> {
  const reads: Record<string, string> = {};
  for (const path of READS) {
    const res = await server.request(path, { token });
    reads[path] = `${res.status} ${await res.text()}`;
  }
  const media: Record<string, string> = {};
  const files = JSON.parse(reads[READS.at(-1) ?? '']?.slice(4) ?? '[]') as FileObject[];
  for (const file of files) {
    for (const url of [file.url, ...Object.values(file.formats ?? {}).map((f) => f.url)]) {
      const res = await server.request(url);
      media[url] = `${res.status} ${Buffer.from(await res.arrayBuffer()).toString('base64')}`;
    }
  }
  return { reads, media };
}

let before: Awaited<ReturnType<typeof capture>>;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'hearth-backup-'));
  source = await startTestServer({ dataDir: join(root, 'source') });
  await seed(source);
  before = await capture(source);
  await source.close();
  archive = join(root, 'site.tar.gz');
  target = join(root, 'restored');
});
afterAll(() => rm(root, { recursive: true, force: true }));

describe('hearth export, then hearth import into a fresh data dir', () => {
  it('export writes one archive and exits 0; import restores it and exits 0', async () => {
    const exported = await exportTo(join(root, 'source'), archive);
    expect(exported).toMatchObject({ code: 0, stdout: '' });
    expect(exported.stderr).toMatch(/^exported \d+ tables \(\d+ rows\) and 4 media files to /);
    const imported = await importFrom(archive, target);
    expect(imported).toMatchObject({ code: 0, stdout: '' });
    expect(imported.stderr).toMatch(/^imported \d+ tables \(\d+ rows\) and 4 media files into /);
    expect(checkDatabase(target)).toEqual({ integrity: 'ok', foreignKeys: [] });
    // The schemas came along as <data>/schema, the secrets with the owner-only mode.
    const schemaFiles = Object.fromEntries(Object.entries(await treeOf(FIXTURE_PROJECT)).filter(([k]) => k.startsWith('src/') && k.endsWith('.json')));
    expect(await treeOf(join(target, 'schema'))).toEqual(schemaFiles);
    expect((await stat(join(target, 'secrets.json'))).mode & 0o777).toBe(0o600);
    expect(await readFile(join(target, 'secrets.json'), 'utf8')).toBe(await readFile(join(root, 'source', 'secrets.json'), 'utf8'));
  });

  it('a new server on the restored data dir answers every read as the old one did, media bytes included', async () => {
    const restored = await startTestServer({ dataDir: target, schemas: join(target, 'schema') });
    try {
      expect(await capture(restored)).toEqual(before);
      expect(Object.keys(before.media)).toHaveLength(4);
    } finally {
      await restored.close();
    }
  });

  it('keeps the API token and the end-user session working, and never reuses an id', async () => {
    const restored = await startTestServer({ dataDir: target, schemas: join(target, 'schema') });
    try {
      const me = await expectJson<{ username: string }>(await restored.request('/api/users/me', { token: session.jwt }), 200);
      expect(me.username).toBe('ann');
      const refreshed = await restored.request('/api/auth/refresh', { method: 'POST', json: { refreshToken: session.refreshToken } });
      expect(refreshed.status).toBe(200);
      const tag = await dataOf(await restored.request('/api/tags', { method: 'POST', token, json: { data: { label: 'after import' } } }), 201);
      expect(tag.id).toBeGreaterThan(deletedTagId);
    } finally {
      await restored.close();
    }
  });

  it('refuses a non-empty data dir (exit 1, one line) and replaces it with --force', async () => {
    const busy = join(root, 'busy');
    await mkdir(busy);
    await writeFile(join(busy, 'keep.txt'), 'mine');
    const kept = await treeOf(busy);
    const refused = await importFrom(archive, busy);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(`hearth: data directory ${busy} is not empty (use --force to replace it)\n`);
    expect(await treeOf(busy)).toEqual(kept);
    const forced = await importFrom(archive, busy, true);
    expect(forced.code).toBe(0);
    expect(Object.keys(await treeOf(busy))).not.toContain('keep.txt');
    expect(await treeOf(join(busy, 'uploads'))).toEqual(await treeOf(join(target, 'uploads')));
  });
});
