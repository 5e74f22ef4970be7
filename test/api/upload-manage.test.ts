import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { countRows, errorBody, fixturePart, json, leftovers, postUpload, type FileObject } from '../uploads/helpers.js';

/** Updating file info, replacing binaries, linking to entries (`ref`/`refId`/`field`) and deleting files. */

let server: TestServer;
let full: string;
const stored = (name: string) => join(server.dataDir, 'uploads', name);
const uploadOne = async (part = fixturePart('notes.txt')) => (await json<FileObject[]>(await postUpload(server, full, [part]), 201))[0] as FileObject;

async function draftArticle(title: string): Promise<{ id: number; documentId: string }> {
  const res = await server.request('/api/articles?status=draft', { method: 'POST', token: full, json: { data: { title } } });
  return (await json<{ data: { id: number; documentId: string } }>(res, 201)).data;
}

async function mediaOf(documentId: string): Promise<{ cover: FileObject | null; gallery: FileObject[] }> {
  const res = await server.request(`/api/articles/${documentId}?status=draft&populate[0]=cover&populate[1]=gallery&fields[0]=title`, { token: full });
  return (await json<{ data: { cover: FileObject | null; gallery: FileObject[] } }>(res, 200)).data;
}

beforeAll(async () => {
  server = await startTestServer();
  full = await server.token('full-access');
});
afterAll(async () => {
  await server?.close();
});

describe('updating file info (POST /api/upload?id=)', () => {
  it('changes only the values given, by multipart or JSON', async () => {
    const file = await uploadOne();
    const first = await postUpload(server, full, [{ name: 'fileInfo', value: JSON.stringify({ alternativeText: 'alt', caption: 'cap' }) }], `?id=${file.id}`);
    expect(await json(first, 200)).toMatchObject({ id: file.id, name: 'notes.txt', alternativeText: 'alt', caption: 'cap', url: file.url, isUrlSigned: false });
    const second = await server.request(`/api/upload?id=${file.id}`, { method: 'POST', token: full, json: { fileInfo: { name: 'renamed.txt', caption: null } } });
    const updated = await json<FileObject>(second, 200);
    expect(updated).toMatchObject({ name: 'renamed.txt', alternativeText: 'alt', caption: 'cap', hash: file.hash, url: file.url });
    expect(updated.updatedAt).not.toBe(file.updatedAt);
    expect(updated.createdAt).toBe(file.createdAt);
  });

  it('answers an unknown or non-numeric id with 404 Entity not found, and a repeated id with 400', async () => {
    const notFound = errorBody(404, 'NotFoundError', 'Entity not found');
    expect(await json(await postUpload(server, full, [{ name: 'fileInfo', value: '{}' }], '?id=99999'), 404)).toEqual(notFound);
    expect(await json(await server.request('/api/upload?id=abc', { method: 'POST', token: full, json: { fileInfo: {} } }), 404)).toEqual(notFound);
    expect(await json(await server.request('/api/upload?id=1&id=2', { method: 'POST', token: full, json: {} }), 400)).toEqual(
      errorBody(400, 'ValidationError', 'File id is required and must be a single value'),
    );
  });
});

describe('replacing a file (POST /api/upload?id= with a file)', () => {
  it('keeps hash, extension and URL, and drops formats the new binary no longer has', async () => {
    const big = await sharp({ create: { width: 1200, height: 900, channels: 3, background: { r: 200, g: 40, b: 40 } } }).png().toBuffer();
    const image = await uploadOne({ name: 'files', filename: 'big.png', bytes: big, type: 'image/png' });
    expect(Object.keys(image.formats ?? {})).toEqual(['thumbnail', 'small', 'medium', 'large']);
    const replaced = await json<FileObject>(
      await postUpload(server, full, [fixturePart('red-400x300.png'), { name: 'fileInfo', value: '{"caption":"now red"}' }], `?id=${image.id}`),
      200,
    );
    expect(replaced).toMatchObject({ id: image.id, hash: image.hash, ext: '.png', url: image.url, name: 'red-400x300.png', caption: 'now red', width: 400, height: 300 });
    expect(Object.keys(replaced.formats ?? {})).toEqual(['thumbnail']);
    expect(replaced.formats?.thumbnail?.url).toBe(image.formats?.thumbnail?.url);
    for (const gone of ['large', 'medium', 'small']) expect(existsSync(stored(`${gone}_${image.hash}.png`))).toBe(false);
    expect(readFileSync(stored(`${image.hash}.png`)).length).toBe(233);
    const text = await json<FileObject>(await postUpload(server, full, [fixturePart('notes.txt')], `?id=${image.id}`), 200);
    expect(text).toMatchObject({ ext: '.png', mime: 'text/plain', width: null, height: null, formats: {}, url: image.url });
    expect(existsSync(stored(`thumbnail_${image.hash}.png`))).toBe(false);
    expect((await leftovers(server)).temp).toEqual([]);
  });

  it('refuses several files, an unknown id and a denied type, changing nothing', async () => {
    const file = await uploadOne();
    const before = await leftovers(server);
    expect(await json(await postUpload(server, full, [fixturePart('notes.txt'), fixturePart('notes.txt')], `?id=${file.id}`), 400)).toEqual(
      errorBody(400, 'ValidationError', 'Cannot replace a file with multiple ones'),
    );
    expect(await json(await postUpload(server, full, [fixturePart('notes.txt')], '?id=99999'), 404)).toEqual(errorBody(404, 'NotFoundError', 'Entity not found'));
    expect(await json(await postUpload(server, full, [fixturePart('evil.svg')], `?id=${file.id}`), 400)).toEqual(
      errorBody(400, 'ValidationError', "File type 'image/svg+xml' is not allowed"),
    );
    expect(await leftovers(server)).toEqual(before);
    expect(readFileSync(stored(`${file.hash}.txt`), 'utf8')).toBe('hello oracle\n');
  });
});

describe('linking uploads to an entry (ref, refId, field)', () => {
  it('appends to a multiple media field and replaces a single one, by the numeric row id', async () => {
    const article = await draftArticle('linked');
    const link = (field: string) => [
      { name: 'ref', value: 'api::article.article' },
      { name: 'refId', value: String(article.id) },
      { name: 'field', value: field },
    ];
    const [a, b] = await json<FileObject[]>(await postUpload(server, full, [fixturePart('notes.txt'), fixturePart('blue-64x48.jpg'), ...link('gallery')]), 201);
    const [c] = await json<FileObject[]>(await postUpload(server, full, [fixturePart('notes.txt'), ...link('gallery')]), 201);
    const [cover1] = await json<FileObject[]>(await postUpload(server, full, [fixturePart('blue-64x48.jpg'), ...link('cover')]), 201);
    const [cover2] = await json<FileObject[]>(await postUpload(server, full, [fixturePart('red-400x300.png'), ...link('cover')]), 201);
    const media = await mediaOf(article.documentId);
    expect(media.gallery.map((f) => f.id)).toEqual([a?.id, b?.id, c?.id]);
    expect(media.cover?.id).toBe(cover2?.id);
    expect(media.cover).not.toHaveProperty('isUrlSigned');
    expect(cover1?.id).not.toBe(cover2?.id);
  });

  it('populates media for a caller holding only the content-type find (media needs no upload permission, as in Strapi)', async () => {
    const article = await draftArticle('with cover');
    const link = [
      { name: 'ref', value: 'api::article.article' },
      { name: 'refId', value: String(article.id) },
      { name: 'field', value: 'cover' },
    ];
    const [cover] = await json<FileObject[]>(await postUpload(server, full, [fixturePart('blue-64x48.jpg'), ...link]), 201);
    const reader = await server.token('custom', ['api::article.article.find', 'api::article.article.findOne']);
    const res = await server.request(`/api/articles/${article.documentId}?status=draft&populate=*`, { token: reader });
    const body = await json<{ data: { cover: FileObject | null } }>(res, 200);
    expect(body.data.cover?.id).toBe(cover?.id);
  });

  it.each([
    ['an unknown model', 'api::nope.nope', '1', 'gallery', 'ref', 'Invalid ref: "api::nope.nope" is not a content-type or component uid'],
    ['a field that is not media', 'api::article.article', '1', 'title', 'field', 'Invalid field: "title" is not a media attribute of api::article.article'],
    ['a non-numeric refId', 'api::article.article', 'abc', 'gallery', 'refId', 'Invalid refId: expected the numeric id of an entry of api::article.article'],
    ['a missing entry', 'api::article.article', '99999', 'gallery', 'refId', 'Invalid refId: api::article.article has no entry with id 99999'],
  ])('refuses %s with a 400 and stores nothing', async (_what, ref, refId, field, param, message) => {
    const before = await leftovers(server);
    const res = await postUpload(server, full, [fixturePart('notes.txt'), { name: 'ref', value: ref }, { name: 'refId', value: refId }, { name: 'field', value: field }]);
    expect(await json(res, 400)).toEqual(errorBody(400, 'ValidationError', message, { source: 'body', param }));
    expect(await leftovers(server)).toEqual(before);
  });

  it('ignores `path` on the local provider, whatever it holds', async () => {
    for (const path of ['some/folder', '../../etc']) {
      const [file] = await json<FileObject[]>(await postUpload(server, full, [fixturePart('notes.txt'), { name: 'path', value: path }]), 201);
      expect(file?.url).toBe(`/uploads/${file?.hash}.txt`);
    }
  });
});

describe('deleting a file (DELETE /api/upload/files/:id)', () => {
  it('answers 200 with the file and removes its row, its objects, its formats and its links', async () => {
    const article = await draftArticle('to lose media');
    const [image] = await json<FileObject[]>(
      await postUpload(server, full, [fixturePart('red-400x300.png'), { name: 'ref', value: 'api::article.article' }, { name: 'refId', value: String(article.id) }, { name: 'field', value: 'gallery' }]),
      201,
    );
    if (!image) throw new Error('no upload');
    const links = () => countRows(server, 'hearth_files_related');
    const linksBefore = await links();
    const res = await server.request(`/api/upload/files/${image.id}`, { method: 'DELETE', token: full });
    expect(await json(res, 200)).toEqual({ ...image, isUrlSigned: false });
    expect(existsSync(stored(`${image.hash}.png`))).toBe(false);
    expect(existsSync(stored(`thumbnail_${image.hash}.png`))).toBe(false);
    expect(await links()).toBe(linksBefore - 1);
    expect((await mediaOf(article.documentId)).gallery).toEqual([]);
    expect((await server.request(`/api/upload/files/${image.id}`, { token: full })).status).toBe(404);
  });

  it('answers an unknown or non-numeric id with 404 file.notFound and a read-only token with 403', async () => {
    const notFound = errorBody(404, 'NotFoundError', 'file.notFound');
    expect(await json(await server.request('/api/upload/files/99999', { method: 'DELETE', token: full }), 404)).toEqual(notFound);
    expect(await json(await server.request('/api/upload/files/abc', { method: 'DELETE', token: full }), 404)).toEqual(notFound);
    const file = await uploadOne();
    const readOnly = await server.token('read-only');
    expect(await json(await server.request(`/api/upload/files/${file.id}`, { method: 'DELETE', token: readOnly }), 403)).toEqual(errorBody(403, 'ForbiddenError', 'Forbidden'));
    expect(existsSync(stored(`${file.hash}.txt`))).toBe(true);
  });
});

describe('filters through media fields', () => {
  it('count documents once, however many of their files match', async () => {
    const [red, blue] = await json<FileObject[]>(await postUpload(server, full, [fixturePart('red-400x300.png', 'image/png'), fixturePart('blue-64x48.jpg', 'image/jpeg')]), 201);
    if (!red || !blue) throw new Error('upload answered no files');
    const galleries = { 'Media count A': [red.id, blue.id], 'Media count B': [red.id], 'Media count C': [blue.id] };
    for (const [title, gallery] of Object.entries(galleries)) {
      const res = await server.request('/api/articles', { method: 'POST', token: full, json: { data: { title, gallery, cover: gallery[0] } } });
      expect(res.status).toBe(201);
    }
    const list = async (filter: string) => {
      const res = await server.request(`/api/articles?filters[title][$startsWith]=Media count&${filter}&fields[0]=title&sort=title:asc&pagination[pageSize]=100`, { token: full });
      const page = await json<{ data: { title: string }[]; meta: { pagination: { total: number } } }>(res, 200);
      return { titles: page.data.map((d) => d.title), total: page.meta.pagination.total };
    };
    expect(await list(`filters[gallery][name][$eq]=${red.name}`)).toEqual({ titles: ['Media count A', 'Media count B'], total: 2 });
    expect(await list(`filters[cover][name][$eq]=${blue.name}`)).toEqual({ titles: ['Media count C'], total: 1 });
  });
});
