import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { errorBody, fixturePart, json, postUpload, type FileObject } from '../uploads/helpers.js';

/** `/uploads/<name>`: static serving of the local provider's files, and HEARTH_PUBLIC_URL. */

/**
 * A GET with the path and headers sent exactly as written (fetch resolves `..` before sending and
 * adds `Cache-Control: no-cache` to conditional requests).
 */
function rawGet(base: string, path: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path, method: 'GET', headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('serving /uploads', () => {
  let server: TestServer;
  let text: FileObject;
  let binary: FileObject;

  beforeAll(async () => {
    server = await startTestServer();
    const token = await server.token('full-access');
    [text, binary] = await json<FileObject[]>(
      await postUpload(server, token, [fixturePart('notes.txt'), { name: 'files', filename: 'blob.dat', bytes: Buffer.from([0, 159, 146, 150, 1, 2]) }]),
      201,
    ) as [FileObject, FileObject];
  });
  afterAll(async () => {
    await server?.close();
  });

  it('serves a file with its type, length, validators and no sniffing', async () => {
    const res = await fetch(`${server.url}${text.url}`);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('hello oracle\n');
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(res.headers.get('content-length')).toBe('13');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('accept-ranges')).toBe('bytes');
    expect(res.headers.get('etag')).toMatch(/^W\/".+"$/);
    expect(new Date(res.headers.get('last-modified') ?? '').getTime()).not.toBeNaN();
    expect(res.headers.get('content-disposition')).toBeNull();
    const etag = res.headers.get('etag') ?? '';
    expect(await rawGet(server.url, text.url, { 'If-None-Match': etag })).toEqual({ status: 304, body: '' });
    expect((await rawGet(server.url, text.url, { 'If-Modified-Since': res.headers.get('last-modified') ?? '' })).status).toBe(304);
    const head = await fetch(`${server.url}${text.url}`, { method: 'HEAD' });
    expect([head.status, head.headers.get('content-length'), await head.text()]).toEqual([200, '13', '']);
  });

  it('answers range requests', async () => {
    const res = await fetch(`${server.url}${text.url}`, { headers: { Range: 'bytes=6-11' } });
    expect(res.status).toBe(206);
    expect(res.headers.get('content-range')).toBe('bytes 6-11/13');
    expect(await res.text()).toBe('oracle');
    const unsatisfiable = await fetch(`${server.url}${text.url}`, { headers: { Range: 'bytes=50-60' } });
    expect([unsatisfiable.status, unsatisfiable.headers.get('content-range')]).toEqual([416, 'bytes */13']);
  });

  it('sends types a browser could render as a page as attachments', async () => {
    const res = await fetch(`${server.url}${binary.url}`);
    expect(binary.ext).toBe('.dat');
    expect(res.headers.get('content-disposition')).toBe('attachment');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('stores and serves bytes it does not recognise as an octet-stream attachment, whatever their name claims', async () => {
    const token = await server.token('full-access');
    const bytes = randomBytes(64 * 1024);
    const [file] = await json<FileObject[]>(await postUpload(server, token, [{ name: 'files', filename: 'report.pdf', bytes, type: 'application/pdf' }]), 201);
    expect(file).toMatchObject({ name: 'report.pdf', mime: 'application/octet-stream', ext: '.bin', url: `/uploads/${file?.hash}.bin` });
    const res = await fetch(`${server.url}${file?.url}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/octet-stream');
    expect(res.headers.get('content-disposition')).toBe('attachment');
    expect(Buffer.from(await res.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it('lists no directory and never leaves the uploads folder', async () => {
    writeFileSync(join(server.dataDir, 'uploads', '.hidden'), 'secret');
    const notFound = errorBody(404, 'NotFoundError', 'Not Found');
    for (const path of ['/uploads', '/uploads/', '/uploads/.hidden', '/uploads/../hearth.db', '/uploads/%2e%2e/hearth.db', '/uploads/..%2fhearth.db', '/uploads/%2e%2e%2fhearth.db', '/uploads/..%5chearth.db', '/uploads/nope.txt']) {
      const res = await rawGet(server.url, path);
      expect({ path, status: res.status }).toEqual({ path, status: 404 });
      expect(JSON.parse(res.body)).toEqual(notFound);
    }
    expect((await fetch(`${server.url}${text.url}`, { method: 'POST' })).status).toBe(404);
  });
});

describe('HEARTH_PUBLIC_URL', () => {
  let server: TestServer;
  let token: string;
  beforeAll(async () => {
    server = await startTestServer({ env: { HEARTH_PUBLIC_URL: 'https://cdn.example.com/' } });
    token = await server.token('full-access');
  });
  afterAll(async () => {
    await server?.close();
  });

  it('makes every returned URL absolute (upload endpoints and populated media) while storing relative ones', async () => {
    const [image] = await json<FileObject[]>(await postUpload(server, token, [fixturePart('red-400x300.png')]), 201);
    if (!image) throw new Error('no upload');
    expect(image.url).toBe(`https://cdn.example.com/uploads/${image.hash}.png`);
    expect(image.formats?.thumbnail?.url).toBe(`https://cdn.example.com/uploads/thumbnail_${image.hash}.png`);
    const [listed] = await json<FileObject[]>(await server.request('/api/upload/files', { token }), 200);
    expect(listed?.url).toBe(image.url);
    const row = await server.server.services.database.db.selectFrom('hearth_files').select('url').where('id', '=', image.id).executeTakeFirst();
    expect(row?.url).toBe(`/uploads/${image.hash}.png`);
    const article = await json<{ data: { cover: FileObject } }>(
      await server.request('/api/articles?status=draft&populate[cover]=true', { method: 'POST', token, json: { data: { title: 'abs', cover: image.id } } }),
      201,
    );
    expect(article.data.cover.url).toBe(image.url);
    expect(article.data.cover.formats?.thumbnail?.url).toBe(image.formats?.thumbnail?.url);
    expect(article.data.cover).not.toHaveProperty('isUrlSigned');
    expect(await (await fetch(`${server.url}/uploads/${image.hash}.png`)).arrayBuffer()).toHaveProperty('byteLength', 233);
  });
});
