import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { fixturePart, json, postUpload, type FileObject, type Part } from '../uploads/helpers.js';

// The last upload differences with Strapi 5.54 (issue 16).
let server: TestServer;
let full: string;

beforeAll(async () => {
  server = await startTestServer();
  full = await server.token('full-access');
});
afterAll(() => server.close());

const info = (files: FileObject[]) => files.map((f) => [f.name, f.alternativeText, f.caption]);

describe('fileInfo on POST /api/upload', () => {
  it('accepts one part per file, one JSON array part (file order), or one object for a single file', async () => {
    const two = (...infos: Part[]) => postUpload(server, full, [fixturePart('notes.txt'), fixturePart('blue-64x48.jpg', 'image/jpeg'), ...infos]);
    const expected = [
      ['first.txt', 'a1', null],
      ['blue-64x48.jpg', null, 'c2'],
    ];
    const perFile = await json<FileObject[]>(
      await two({ name: 'fileInfo', value: JSON.stringify({ name: 'first.txt', alternativeText: 'a1' }) }, { name: 'fileInfo', value: JSON.stringify({ caption: 'c2' }) }),
      201,
    );
    expect(info(perFile)).toEqual(expected);
    const array = await json<FileObject[]>(await two({ name: 'fileInfo', value: JSON.stringify([{ name: 'first.txt', alternativeText: 'a1' }, { caption: 'c2' }]) }), 201);
    expect(info(array)).toEqual(expected);
    const shortArray = await json<FileObject[]>(await two({ name: 'fileInfo', value: JSON.stringify([{ caption: 'only first' }]) }), 201);
    expect(info(shortArray)).toEqual([
      ['notes.txt', null, 'only first'],
      ['blue-64x48.jpg', null, null],
    ]);
    const single = await json<FileObject[]>(await postUpload(server, full, [fixturePart('notes.txt'), { name: 'fileInfo', value: JSON.stringify({ caption: 'one' }) }]), 201);
    expect(info(single)).toEqual([['notes.txt', null, 'one']]);
  });

  it('validates the items of a JSON array part with their file index', async () => {
    const res = await postUpload(server, full, [fixturePart('notes.txt'), fixturePart('notes.txt'), { name: 'fileInfo', value: JSON.stringify([{}, { caption: { a: 1 } }]) }]);
    const body = await json<{ data: null; error: { status: number; name: string; message: string; details: { errors: { path: string[] }[] } } }>(res, 400);
    expect(body.error).toMatchObject({ status: 400, name: 'ValidationError', details: { errors: [{ path: ['fileInfo', '1', 'caption'] }] } });
    expect(body.error.message).toMatch(/^fileInfo\[1\]\.caption must be a `string` type/);
  });
});

describe("a media file's related entries", () => {
  it("come ordered by each link's position in its field, with __type as their last key", async () => {
    const uploaded = await json<FileObject[]>(await postUpload(server, full, [fixturePart('notes.txt'), fixturePart('notes.txt')]), 201);
    const [first, second] = uploaded as [FileObject, FileObject];
    const article = async (title: string, media: Record<string, unknown>) =>
      (await json<{ data: { documentId: string } }>(await server.request('/api/articles?status=draft', { method: 'POST', token: full, json: { data: { title, ...media } } }), 201)).data;
    const a = await article('gallery holder', { gallery: [second.id, first.id] });
    const b = await article('cover holder', { cover: first.id });
    const c = await article('gallery start', { gallery: [first.id] });
    const file = await json<{ related: Record<string, unknown>[] }>(await server.request(`/api/upload/files/${first.id}?populate[related]=true`, { token: full }), 200);
    // Positions: b (cover, 1), c (gallery, 1), a (gallery, 2); equal positions in link order.
    expect(file.related.map((r) => r.documentId)).toEqual([b.documentId, c.documentId, a.documentId]);
    for (const entry of file.related) {
      const keys = Object.keys(entry);
      expect([keys[0], keys.at(-1)]).toEqual(['id', '__type']);
      expect(entry.__type).toBe('api::article.article');
    }
  });
});
