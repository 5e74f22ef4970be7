import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { fixture, fixturePart, form, json, postUpload, type FileObject } from '../uploads/helpers.js';

/**
 * UPLOAD_MAX_IMAGE_PIXELS: an image over it is stored as received, with its header's width and
 * height and no formats, and the answer says so in a `Hearth-Notice` header (the body keeps
 * Strapi's shape). Images within it are processed as before. The decompression-bomb case, with
 * the server's memory, is test/uploads/image-bombs.test.ts.
 */

let server: TestServer;
let full: string;

beforeAll(async () => {
  server = await startTestServer({ env: { UPLOAD_MAX_IMAGE_PIXELS: '100000' } });
  full = await server.token('full-access');
});
afterAll(async () => {
  await server?.close();
});

describe('UPLOAD_MAX_IMAGE_PIXELS', () => {
  it('stores an image over the limit undecoded, without formats, and says so; one within it is processed', async () => {
    const res = await postUpload(server, full, [fixturePart('red-400x300.png', 'image/png'), fixturePart('blue-64x48.jpg', 'image/jpeg')]);
    expect(res.headers.get('hearth-notice')).toBe('files[0] 400x300 is over UPLOAD_MAX_IMAGE_PIXELS (100000): stored as received, without formats');
    const [big, small] = await json<FileObject[]>(res, 201);
    const original = fixture('red-400x300.png');
    expect(big).toMatchObject({ name: 'red-400x300.png', mime: 'image/png', ext: '.png', width: 400, height: 300, formats: null, size: Math.round(original.length / 10) / 100 });
    expect(readFileSync(join(server.dataDir, 'uploads', `${big?.hash}.png`)).equals(original)).toBe(true);
    expect(small).toMatchObject({ mime: 'image/jpeg', width: 64, height: 48 });
  });

  it('replaces a file with an image over the limit the same way', async () => {
    const [first] = await json<FileObject[]>(await postUpload(server, full, [fixturePart('blue-64x48.jpg', 'image/jpeg')]), 201);
    const res = await postUpload(server, full, [fixturePart('red-400x300.png', 'image/png')], `?id=${first?.id}`);
    expect(res.headers.get('hearth-notice')).toBe('files[0] 400x300 is over UPLOAD_MAX_IMAGE_PIXELS (100000): stored as received, without formats');
    expect(await json<FileObject>(res, 200)).toMatchObject({ id: first?.id, width: 400, height: 300, mime: 'image/png' });
  });

  it('lets a page on another origin read the notice (a bearer call from a local frontend)', async () => {
    const res = await server.request('/api/upload', { method: 'POST', token: full, headers: { Origin: 'http://localhost:5173' }, body: form([fixturePart('red-400x300.png', 'image/png')]) });
    expect(res.status).toBe(201);
    expect(res.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    expect(res.headers.get('access-control-expose-headers')).toBe('Hearth-Notice');
    expect(res.headers.get('hearth-notice')).toMatch(/^files\[0\] 400x300 is over UPLOAD_MAX_IMAGE_PIXELS/);
  });

  it('sends no notice when nothing was left out', async () => {
    const res = await postUpload(server, full, [fixturePart('blue-64x48.jpg', 'image/jpeg')]);
    expect(res.status).toBe(201);
    expect(res.headers.get('hearth-notice')).toBeNull();
  });
});
