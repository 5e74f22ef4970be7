import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collection, dataOf, expectJson, writeProject, type Doc } from '../helpers/project.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { refusal, transferToken } from '../transfer/client.js';
import { fixturePart, json, postUpload, type FileObject } from '../uploads/helpers.js';
import { answers, exportStrapi, importStrapi, serveImported } from './strapi-helpers.js';

/**
 * Hearth -> Strapi archive -> Hearth on content made in Hearth (not from a Strapi import): drafts
 * and published versions in three locales, relations both ways, components, a dynamic zone, media
 * with formats, a single type, values past 2^53, an end user. Every read answers byte for byte as
 * before, media bytes included; an import over a data dir keeps its API tokens working.
 */

let root: string;
let token: string;
let user: { jwt: string };
let before: Record<string, string>;
let sourceDir: string;

const READS = [
  '/api/articles?locale=*&status=draft&populate=*&sort=id',
  '/api/articles?locale=*&status=published&populate=*&sort=id',
  '/api/articles?locale=de&status=draft&populate[seo]=true&populate[blocks]=true&populate[tags]=true',
  '/api/categories?populate=*&sort=id',
  '/api/tags?status=draft&sort=id&populate=*',
  '/api/homepage?populate=*',
  '/api/specimens?populate=*&sort=id',
  '/api/upload/files?sort=id',
  '/api/users?populate=role',
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
  const tags: Doc[] = [await post('/api/tags', { label: 'js' }), await post('/api/tags?status=draft', { label: 'draft only' })];
  const article = await post('/api/articles', {
    title: 'Åland',
    views: 7,
    rating: 4.5,
    category: tech.documentId,
    tags: tags.map((t) => t.documentId),
    seo: { metaTitle: 'meta', metaDescription: 'description' },
    blocks: [{ __component: 'shared.quote', text: 'q', author: 'a' }, { __component: 'shared.rich-text', body: [{ type: 'paragraph', children: [{ type: 'text', text: 'rich' }] }] }],
    cover: png,
    gallery: [txt, png],
  });
  await put(`/api/articles/${article.documentId}?locale=fr`, { title: 'Åland (fr)', seo: { metaTitle: 'méta' } });
  await put(`/api/articles/${article.documentId}?status=draft`, { title: 'Åland, draft edit', tags: [tags[1]?.documentId] });
  await put(`/api/articles/${article.documentId}?locale=de&status=draft`, { title: 'Åland (de, draft only)', blocks: [{ __component: 'shared.quote', text: 'de', author: 'b' }] });
  await post('/api/articles?status=draft', { title: 'never published', cover: jpg });
  await put('/api/homepage', { headline: 'Welcome', hero: jpg });
  await post('/api/specimens', { s_required: 'big', s_bigint: '9223372036854775807', s_timestamp: 1709287200000, s_date: '2024-02-29', s_time: '13:45:30', s_bool: false, s_json: { nested: [1, 'two', null] }, s_comp: [{ text: 't', author: 'x' }], s_media: [txt] });
  user = await expectJson<{ jwt: string }>(await server.request('/api/auth/local/register', { method: 'POST', json: { username: 'ann', email: 'ann@example.com', password: 'secret-1' } }), 200);
}

/** The reads, and the bytes behind every file URL they mention. */
async function capture(server: TestServer): Promise<Record<string, string>> {
  const out = await answers(server, READS);
  const files = JSON.parse(out['/api/upload/files?sort=id']?.slice(4) ?? '[]') as FileObject[];
  for (const file of files) {
    for (const url of [file.url, ...Object.values(file.formats ?? {}).map((f) => f.url)]) {
      const res = await server.request(url);
      out[url] = `${res.status} ${Buffer.from(await res.arrayBuffer()).toString('base64')}`;
    }
  }
  return out;
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'hearth-strapi-round-'));
  sourceDir = join(root, 'source');
  const source = await startTestServer({ dataDir: sourceDir, database: 'sqlite' });
  try {
    await seed(source);
    before = await capture(source);
  } finally {
    await source.close();
  }
});

afterAll(() => rm(root, { recursive: true, force: true }));

describe('Hearth -> Strapi archive -> Hearth', () => {
  it('answers every read, and serves every media byte, as the data dir it was exported from', async () => {
    const file = join(root, 'site.tar.gz');
    const exported = await exportStrapi(sourceDir, file);
    expect(exported.code).toBe(0);
    const imported = await importStrapi(file, join(root, 'copy'));
    expect(imported.code).toBe(0);
    const copy = await serveImported(join(root, 'copy'));
    try {
      expect(await capture(copy)).toEqual(before);
      // The end user logs in with the password they chose in Hearth.
      const login = await copy.request('/api/auth/local', { method: 'POST', json: { identifier: 'ann', password: 'secret-1' } });
      expect(login.status).toBe(200);
    } finally {
      await copy.close();
    }
  });

  it("imported over a data dir with --force, keeps that data dir's admin side: its API and transfer tokens still work", async () => {
    const file = join(root, 'again.tar');
    expect((await exportStrapi(sourceDir, file)).code).toBe(0);
    const transfer = await transferToken(sourceDir, 'pull');
    const refused = await importStrapi(file, sourceDir);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('holds content');
    expect((await importStrapi(file, sourceDir, '--force')).code).toBe(0);
    const server = await serveImported(sourceDir);
    try {
      const res = await server.request('/api/articles?locale=*&status=draft&populate=*&sort=id', { token });
      expect(`${res.status} ${await res.text()}`).toBe(before['/api/articles?locale=*&status=draft&populate=*&sort=id']);
      // The transfer token made on the replaced data dir still opens a pull (101), as an unknown one would not (401).
      expect((await refusal(server.url, 'pull', transfer)).status).toBe(101);
      expect((await refusal(server.url, 'pull', 'not-a-token')).status).toBe(401);
      // End-user sessions are not in Strapi archives: the user logs in again.
      expect((await server.request('/api/users/me', { token: user.jwt })).status).toBe(401);
      expect((await server.request('/api/auth/local', { method: 'POST', json: { identifier: 'ann', password: 'secret-1' } })).status).toBe(200);
    } finally {
      await server.close();
    }
  });

  it('carries morph relations (morphToMany, morphToOne and their inverse sides) in their order', async () => {
    const schemas = await writeProject({
      types: {
        note: collection('note', 'notes', { body: { type: 'text' }, targets: { type: 'relation', relation: 'morphToMany' }, subject: { type: 'relation', relation: 'morphToOne' } }),
        tag: collection('tag', 'tags', { name: { type: 'string' }, notes: { type: 'relation', relation: 'morphMany', target: 'api::note.note', morphBy: 'targets' } }),
        post: collection('post', 'posts', { title: { type: 'string' } }, { draftAndPublish: true }),
      },
    });
    const dataDir = join(root, 'morphs');
    const server = await startTestServer({ dataDir, schemas, database: 'sqlite' });
    const reads = ['/api/notes?populate=*&sort=id', '/api/tags?populate=*&sort=id', '/api/posts?status=draft&sort=id'];
    let expected: Record<string, string>;
    try {
      const auth = await server.token('full-access');
      const post = async (path: string, data: unknown) => dataOf(await server.request(path, { method: 'POST', token: auth, json: { data } }), 201);
      const a = await post('/api/tags', { name: 'a' });
      const b = await post('/api/tags', { name: 'b' });
      const p = await post('/api/posts', { title: 'p' });
      await post('/api/notes', { body: 'n1', targets: [{ __type: 'api::tag.tag', id: b.id }, { __type: 'api::post.post', documentId: p.documentId }, { __type: 'api::tag.tag', id: a.id }], subject: { __type: 'api::tag.tag', id: a.id } });
      await post('/api/notes', { body: 'n2', targets: [{ __type: 'api::tag.tag', id: a.id }] });
      expected = await answers(server, reads);
    } finally {
      await server.close();
    }
    expect(expected['/api/notes?populate=*&sort=id']).toContain('"__type":"api::post.post"');
    const file = join(root, 'morphs.tar.gz');
    expect((await exportStrapi(dataDir, file)).code).toBe(0);
    expect((await importStrapi(file, join(root, 'morphs-copy'))).code).toBe(0);
    const copy = await serveImported(join(root, 'morphs-copy'));
    try {
      expect(await answers(copy, reads)).toEqual(expected);
    } finally {
      await copy.close();
    }
  });
});
