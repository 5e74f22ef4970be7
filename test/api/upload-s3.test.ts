import { createHash } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { fixture, fixturePart, json, postUpload, type FileObject } from '../uploads/helpers.js';
import { S3_ACCESS_KEY, S3_REGION, S3_SECRET_KEY, s3EnvOf, startTestS3, type TestS3 } from '../uploads/s3-gateway.js';

/**
 * The upload API on S3-compatible storage (UPLOAD_PROVIDER=s3), against s3rver on loopback behind
 * the gateway that verifies signatures and enforces ACLs. With S3_ACL=private, every URL a client
 * is given, by the upload endpoints or in media populated into entries, is a fresh presigned one.
 */

let s3: TestS3;
const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

const s3Env = (acl: string, expires?: number): NodeJS.ProcessEnv =>
  s3EnvOf(s3, { S3_ACL: acl, ...(expires === undefined ? {} : { S3_SIGNED_URL_EXPIRES: String(expires) }) });

/** Every `url` value anywhere in a response body. */
function urlsIn(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(urlsIn);
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, v]) => (key === 'url' && typeof v === 'string' ? [v] : urlsIn(v)));
}

const unsigned = (url: string) => url.split('?')[0] ?? url;
const bytesAt = async (url: string) => Buffer.from(await (await fetch(url)).arrayBuffer());

beforeAll(async () => {
  s3 = await startTestS3('hearth-media');
});
afterAll(async () => {
  await s3?.close();
});

describe('S3 with S3_ACL=private', () => {
  let server: TestServer;
  let token: string;
  beforeAll(async () => {
    server = await startTestServer({ env: s3Env('private') });
    token = await server.token('full-access');
  });
  afterAll(async () => {
    await server?.close();
  });

  it('writes every object private and answers with presigned URLs that read them', async () => {
    const files = await json<FileObject[]>(await postUpload(server, token, [fixturePart('red-400x300.png'), fixturePart('notes.txt')]), 201);
    const [red, notes] = files as [FileObject, FileObject];
    expect(red).toMatchObject({ provider: 'aws-s3', isUrlSigned: true, size: 0.23 });
    expect(unsigned(red.url)).toBe(`${s3.endpoint}/hearth-media/${red.hash}.png`);
    for (const url of urlsIn(files)) {
      expect(new URL(url).searchParams.get('X-Amz-Expires')).toBe('900');
      expect(url).toContain('X-Amz-Signature=');
    }
    expect((await bytesAt(red.url)).length).toBe(233);
    expect(sha(await bytesAt(notes.url))).toBe(sha(fixture('notes.txt')));
    expect((await fetch(red.formats?.thumbnail?.url ?? '')).status).toBe(200);
    for (const url of urlsIn(files)) expect((await fetch(unsigned(url))).status).toBe(403);
    const puts = s3.requests.filter((r) => r.method === 'PUT');
    expect(puts.length).toBeGreaterThanOrEqual(3);
    expect(puts.every((r) => r.acl === 'private')).toBe(true);
    const rows = await server.server.services.database.db.selectFrom('hearth_files').select('url').execute();
    expect(rows.every((r) => !String(r.url).includes('?'))).toBe(true);
  });

  it('never returns an unsigned URL: lists, pages, reads, updates, replacements and populated media', async () => {
    const [file] = await json<FileObject[]>(await postUpload(server, token, [fixturePart('red-400x300.png')]), 201);
    if (!file) throw new Error('no upload');
    const bodies = [
      await json(await server.request('/api/upload/files', { token }), 200),
      await json(await server.request('/api/upload/files/page', { token }), 200),
      await json(await server.request(`/api/upload/files/${file.id}?populate=*`, { token }), 200),
      await json(await postUpload(server, token, [{ name: 'fileInfo', value: '{"caption":"c"}' }], `?id=${file.id}`), 200),
      await json(await postUpload(server, token, [fixturePart('blue-64x48.jpg')], `?id=${file.id}`), 200),
    ];
    const article = await json<{ data: { documentId: string } }>(
      await server.request('/api/articles?status=draft', { method: 'POST', token, json: { data: { title: 's3', cover: file.id, gallery: [file.id] } } }),
      201,
    );
    const entry = await json<{ data: { cover: FileObject; gallery: FileObject[] } }>(
      await server.request(`/api/articles/${article.data.documentId}?status=draft&populate[0]=cover&populate[1]=gallery`, { token }),
      200,
    );
    expect(entry.data.cover).not.toHaveProperty('isUrlSigned');
    bodies.push(entry);
    const urls = bodies.flatMap(urlsIn);
    expect(urls.length).toBeGreaterThan(5);
    for (const url of urls) expect(new URL(url).searchParams.has('X-Amz-Signature')).toBe(true);
    expect((await fetch(entry.data.cover.url)).status).toBe(200);
    for (const body of bodies.slice(0, 5)) expect(JSON.stringify(body)).toContain('"isUrlSigned":true');
  });

  it('keeps the object key on replace and removes objects, formats and stale formats from the bucket', async () => {
    const [image] = await json<FileObject[]>(await postUpload(server, token, [fixturePart('red-400x300.png'), { name: 'path', value: 'site/2024' }]), 201);
    if (!image) throw new Error('no upload');
    expect(unsigned(image.url)).toBe(`${s3.endpoint}/hearth-media/site/2024/${image.hash}.png`);
    expect(image.formats?.thumbnail).toMatchObject({ path: 'site/2024' });
    const oldThumb = image.formats?.thumbnail?.url ?? '';
    const replaced = await json<FileObject>(await postUpload(server, token, [fixturePart('notes.txt')], `?id=${image.id}`), 200);
    expect(unsigned(replaced.url)).toBe(unsigned(image.url));
    expect(replaced.formats).toEqual({});
    expect(await (await fetch(replaced.url)).text()).toBe('hello oracle\n');
    expect((await fetch(oldThumb)).status).toBe(404);
    const deleted = await json<FileObject>(await server.request(`/api/upload/files/${image.id}`, { method: 'DELETE', token }), 200);
    expect(deleted.isUrlSigned).toBe(true);
    expect((await fetch(replaced.url)).status).toBe(404);
  });

  it('refuses a `path` that is not plain folder names, storing nothing', async () => {
    const puts = s3.requests.filter((r) => r.method === 'PUT').length;
    for (const path of ['../up', 'a/../b', 'a b', '.hidden/x']) {
      const res = await postUpload(server, token, [fixturePart('notes.txt'), { name: 'path', value: path }]);
      expect(await json(res, 400)).toMatchObject({ error: { status: 400, name: 'ValidationError', details: { source: 'body', param: 'path' } } });
    }
    expect(s3.requests.filter((r) => r.method === 'PUT').length).toBe(puts);
  });

  it('removes what it stored when a later storage write fails, leaving no object, row or temp file', async () => {
    const client = new S3Client({ region: S3_REGION, endpoint: s3.endpoint, forcePathStyle: true, credentials: { accessKeyId: S3_ACCESS_KEY, secretAccessKey: S3_SECRET_KEY } });
    const keys = async () => ((await client.send(new ListObjectsV2Command({ Bucket: s3.bucket }))).Contents ?? []).map((o) => o.Key).sort();
    const rows = async () => (await server.server.services.database.db.selectFrom('hearth_files').select('id').execute()).length;
    const [keysBefore, rowsBefore] = [await keys(), await rows()];
    s3.failPuts = /^thumbnail_/;
    try {
      const res = await postUpload(server, token, [fixturePart('notes.txt'), fixturePart('red-400x300.png')]);
      expect(await json(res, 500)).toEqual({ data: null, error: { status: 500, name: 'InternalServerError', message: 'Internal Server Error' } });
    } finally {
      s3.failPuts = null;
    }
    const failed = s3.requests.filter((r) => r.status === 500);
    expect(failed.length).toBeGreaterThan(0);
    expect(await keys()).toEqual(keysBefore);
    expect(await rows()).toBe(rowsBefore);
    expect(await readdir(join(server.dataDir, 'tmp', 'uploads'))).toEqual([]);
    client.destroy();
  });

  it('refuses a tampered signature', async () => {
    const [file] = await json<FileObject[]>(await postUpload(server, token, [fixturePart('notes.txt')]), 201);
    const url = new URL(file?.url ?? '');
    const signature = url.searchParams.get('X-Amz-Signature') ?? '';
    url.searchParams.set('X-Amz-Signature', `${signature.slice(0, -1)}${signature.endsWith('0') ? '1' : '0'}`);
    const res = await fetch(url);
    expect(res.status).toBe(403);
    expect(await res.text()).toContain('SignatureDoesNotMatch');
  });
});

describe('S3 signed URL lifetime (S3_SIGNED_URL_EXPIRES)', () => {
  it('hands out URLs that stop working after the configured seconds', async () => {
    const server = await startTestServer({ env: s3Env('private', 1) });
    try {
      const token = await server.token('full-access');
      const [file] = await json<FileObject[]>(await postUpload(server, token, [fixturePart('notes.txt')]), 201);
      const url = new URL(file?.url ?? '');
      expect(url.searchParams.get('X-Amz-Expires')).toBe('1');
      const signedAt = Date.parse((url.searchParams.get('X-Amz-Date') ?? '').replace(/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/, '$1-$2-$3T$4:$5:$6Z'));
      // X-Amz-Date has whole seconds: wait past the signing second plus the 1 s lifetime.
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, signedAt + 2100 - Date.now())));
      const res = await fetch(url);
      expect(res.status).toBe(403);
      expect(await res.text()).toContain('Request has expired');
    } finally {
      await server.close();
    }
  });
});

describe('S3 with S3_ACL=public-read', () => {
  it('writes public objects and answers with their plain URLs', async () => {
    const server = await startTestServer({ env: s3Env('public-read') });
    try {
      const token = await server.token('full-access');
      const [file] = await json<FileObject[]>(await postUpload(server, token, [fixturePart('notes.txt')]), 201);
      expect(file).toMatchObject({ provider: 'aws-s3', isUrlSigned: false, url: `${s3.endpoint}/hearth-media/${file?.hash}.txt` });
      expect(s3.acls.get(`${file?.hash}.txt`)).toBe('public-read');
      expect(await (await fetch(file?.url ?? '')).text()).toBe('hello oracle\n');
    } finally {
      await server.close();
    }
  });
});
