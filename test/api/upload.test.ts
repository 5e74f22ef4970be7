import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { countRows, errorBody, filesUnder, fixture, fixturePart, json, leftovers, postUpload, type FileObject } from '../uploads/helpers.js';

/**
 * `POST /api/upload`: uploads, file info, types, names and the failures that must leave nothing
 * behind, against a real server with real multipart requests.
 */

let server: TestServer;
let full: string;
const uploadsDir = () => join(server.dataDir, 'uploads');

beforeAll(async () => {
  server = await startTestServer();
  full = await server.token('full-access');
});
afterAll(async () => {
  await server?.close();
});

describe('uploading files', () => {
  it('stores each part under <slug>_<10 hex><ext> in the "API Uploads" folder and answers 201 with the files', async () => {
    const files = await json<FileObject[]>(await postUpload(server, full, [fixturePart('red-400x300.png', 'image/png'), fixturePart('notes.txt', 'text/plain')]), 201);
    expect(files.map((f) => [f.name, f.mime, f.ext, f.width, f.height])).toEqual([
      ['red-400x300.png', 'image/png', '.png', 400, 300],
      ['notes.txt', 'text/plain', '.txt', null, null],
    ]);
    const [red, notes] = files as [FileObject, FileObject];
    expect(red.hash).toMatch(/^red_400x300_[0-9a-f]{10}$/);
    expect(notes.hash).toMatch(/^notes_[0-9a-f]{10}$/);
    expect(Object.keys(red)).toEqual([
      'id', 'documentId', 'name', 'alternativeText', 'caption', 'focalPoint', 'width', 'height', 'formats', 'hash', 'ext', 'mime', 'size',
      'url', 'previewUrl', 'provider', 'provider_metadata', 'createdAt', 'updatedAt', 'publishedAt', 'isUrlSigned',
    ]);
    expect(red).toMatchObject({ size: 0.23, url: `/uploads/${red.hash}.png`, provider: 'local', provider_metadata: null, previewUrl: null, isUrlSigned: false });
    expect(red.formats?.thumbnail).toEqual({
      name: 'thumbnail_red-400x300.png', hash: `thumbnail_${red.hash}`, ext: '.png', mime: 'image/png', path: null,
      width: 208, height: 156, size: 0.87, sizeInBytes: 871, url: `/uploads/thumbnail_${red.hash}.png`,
    });
    expect(notes).toMatchObject({ formats: null, size: 0.01 });
    expect(readFileSync(join(uploadsDir(), `${notes.hash}.txt`), 'utf8')).toBe('hello oracle\n');
    expect(existsSync(join(uploadsDir(), `thumbnail_${red.hash}.png`))).toBe(true);
    const folders = await server.server.services.database.db.selectFrom('hearth_upload_folders').selectAll().execute();
    expect(folders.map((f) => [f.name, f.path, f.parent_id])).toEqual([['API Uploads', '/1', null]]);
    const rows = await server.server.services.database.db.selectFrom('hearth_files').select(['folder_id', 'folderPath']).where('id', 'in', [red.id, notes.id]).execute();
    expect(rows).toEqual([{ folder_id: folders[0]?.id, folderPath: '/1' }, { folder_id: folders[0]?.id, folderPath: '/1' }]);
    expect((await leftovers(server)).temp).toEqual([]);
  });

  it('applies one fileInfo per file, in order, and reuses the API Uploads folder', async () => {
    const files = await json<FileObject[]>(
      await postUpload(server, full, [
        fixturePart('blue-64x48.jpg', 'image/jpeg'),
        fixturePart('notes.txt'),
        { name: 'fileInfo', value: JSON.stringify({ name: 'Blue Box.jpg', alternativeText: 'a blue box', focalPoint: { x: 10, y: 20 } }) },
        { name: 'fileInfo', value: JSON.stringify({ caption: 'second' }) },
      ]),
      201,
    );
    expect(files.map((f) => [f.name, f.alternativeText, f.caption, f.focalPoint])).toEqual([
      ['Blue Box.jpg', 'a blue box', null, { x: 10, y: 20 }],
      ['notes.txt', null, 'second', null],
    ]);
    expect(files[0]?.hash).toMatch(/^Blue_Box_[0-9a-f]{10}$/);
    expect(await countRows(server, 'hearth_upload_folders')).toBe(1);
  });

  it('names stored files from a slug of the client name only', async () => {
    const files = await json<FileObject[]>(
      await postUpload(server, full, [{ name: 'files', filename: 'Ünïcode fileName (1) & co.TXT', bytes: Buffer.from('text'), type: 'text/plain' }]),
      201,
    );
    expect(files[0]).toMatchObject({ name: 'Ünïcode fileName (1) & co.TXT', ext: '.TXT', mime: 'text/plain' });
    expect(files[0]?.hash).toMatch(/^Unicode_file_Name_1_and_co_[0-9a-f]{10}$/);
    expect(existsSync(join(uploadsDir(), `${files[0]?.hash}.TXT`))).toBe(true);
  });

  it('refuses client file names a file system could not hold', async () => {
    const before = await leftovers(server);
    const res = await postUpload(server, full, [{ name: 'files', filename: 'a<b>.txt', bytes: Buffer.from('x') }]);
    expect(await json(res, 400)).toEqual(errorBody(400, 'ApplicationError', 'File name contains invalid characters'));
    expect(await leftovers(server)).toEqual(before);
  });

  it('takes the type from the content, not from the claim, and stores an extension that agrees with it', async () => {
    const files = await json<FileObject[]>(
      await postUpload(server, full, [
        { name: 'files', filename: 'photo.txt', bytes: fixture('red-400x300.png'), type: 'text/plain' },
        { name: 'files', filename: 'image.png', bytes: Buffer.from('just words'), type: 'image/png' },
        { name: 'files', filename: 'page.html', bytes: Buffer.from('plain text, not markup'), type: 'text/html' },
        { name: 'files', filename: 'data.bin', bytes: Buffer.from([0, 1, 2, 3, 255]), type: 'image/png' },
      ]),
      201,
    );
    expect(files.map((f) => [f.mime, f.ext, f.width])).toEqual([
      ['image/png', '.png', 400],
      ['text/plain', '.txt', null],
      ['text/plain', '.txt', null],
      ['application/octet-stream', '.bin', null],
    ]);
  });

  it.each([
    ['an SVG, as Strapi', 'evil.svg', fixture('evil.svg'), 'image/svg+xml'],
    ['an SVG claiming to be a PNG', 'evil.png', fixture('evil.svg'), 'image/svg+xml'],
    ['HTML claiming to be text', 'page.txt', Buffer.from('<!DOCTYPE html><html><script>alert(1)</script></html>'), 'text/html'],
    ['XHTML', 'page.xml', Buffer.from('<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><body/></html>'), 'application/xhtml+xml'],
  ])('refuses %s with Strapi 400 and leaves nothing behind', async (_what, filename, bytes, mime) => {
    const before = await leftovers(server);
    const res = await postUpload(server, full, [fixturePart('notes.txt'), { name: 'files', filename, bytes, type: 'image/png' }]);
    expect(await json(res, 400)).toEqual(errorBody(400, 'ValidationError', `File type '${mime}' is not allowed`));
    expect(await leftovers(server)).toEqual(before);
  });

  it('refuses an image sharp cannot decode and leaves nothing behind', async () => {
    const before = await leftovers(server);
    const broken = Buffer.concat([fixture('red-400x300.png').subarray(0, 60), Buffer.alloc(100, 7)]);
    const res = await postUpload(server, full, [{ name: 'files', filename: 'broken.png', bytes: broken, type: 'image/png' }]);
    expect(await json(res, 400)).toEqual(errorBody(400, 'ApplicationError', 'File is not a valid image'));
    expect(await leftovers(server)).toEqual(before);
  });

  it('answers "Files are empty" without a file part, with only an empty file, and for a JSON body', async () => {
    const empty = errorBody(400, 'ValidationError', 'Files are empty');
    expect(await json(await postUpload(server, full, [{ name: 'foo', value: 'bar' }]), 400)).toEqual(empty);
    expect(await json(await postUpload(server, full, [{ name: 'files', filename: 'empty.txt', bytes: new Uint8Array(0) }]), 400)).toEqual(empty);
    expect(await json(await server.request('/api/upload', { method: 'POST', token: full, json: { fileInfo: {} } }), 400)).toEqual(empty);
    expect((await leftovers(server)).temp).toEqual([]);
  });

  it('ignores file parts under other names than `files`', async () => {
    const before = await leftovers(server);
    const res = await postUpload(server, full, [{ name: 'other', filename: 'x.txt', bytes: Buffer.from('x') }]);
    expect(await json(res, 400)).toEqual(errorBody(400, 'ValidationError', 'Files are empty'));
    expect(await leftovers(server)).toEqual(before);
  });

  it('validates fileInfo as Strapi does (unknown keys dropped, wrong types refused), and answers malformed JSON with a 400 (Strapi: 500)', async () => {
    const [lenient] = await json<FileObject[]>(
      await postUpload(server, full, [fixturePart('notes.txt'), { name: 'fileInfo', value: JSON.stringify({ caption: 'kept', folder: 3, nope: 1 }) }]),
      201,
    );
    expect(lenient).toMatchObject({ caption: 'kept', name: 'notes.txt' });
    const before = await leftovers(server);
    const wrongType = await postUpload(server, full, [fixturePart('notes.txt'), fixturePart('notes.txt'), { name: 'fileInfo', value: '{}' }, { name: 'fileInfo', value: '{"caption":{"a":1}}' }]);
    expect(await json(wrongType, 400)).toMatchObject({
      data: null,
      error: { status: 400, name: 'ValidationError', message: expect.stringMatching(/^fileInfo\[1\]\.caption must be a `string` type/), details: { errors: [{ path: ['fileInfo', '1', 'caption'] }] } },
    });
    const malformed = await postUpload(server, full, [fixturePart('notes.txt'), { name: 'fileInfo', value: 'not json' }]);
    const message = 'fileInfo must be a JSON object, but the value is not valid JSON';
    expect(await json(malformed, 400)).toEqual(
      errorBody(400, 'ValidationError', message, { errors: [{ path: ['fileInfo'], message, name: 'ValidationError', value: 'not json' }] }),
    );
    expect(await leftovers(server)).toEqual(before);
  });

  it('checks permissions before reading the body', async () => {
    const findOnly = await server.token('custom', ['plugin::upload.content-api.find']);
    const uploadOnly = await server.token('custom', ['plugin::upload.content-api.upload']);
    const forbidden = errorBody(403, 'ForbiddenError', 'Forbidden');
    expect(await json(await postUpload(server, undefined, [fixturePart('notes.txt')]), 403)).toEqual(forbidden);
    expect(await json(await postUpload(server, findOnly, [fixturePart('notes.txt')]), 403)).toEqual(forbidden);
    expect(await json(await postUpload(server, 'not-a-token', [fixturePart('notes.txt')]), 401)).toMatchObject({ error: { name: 'UnauthorizedError' } });
    expect((await json<FileObject[]>(await postUpload(server, uploadOnly, [fixturePart('notes.txt')]), 201)).length).toBe(1);
  });

  it('answers other methods with 405 and Allow', async () => {
    const res = await server.request('/api/upload', { method: 'PUT', token: full });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
    expect((await server.request('/api/upload/files/1', { method: 'PUT', token: full })).headers.get('allow')).toBe('HEAD, GET, DELETE');
  });
});

describe('an aborted upload', () => {
  /** Polls a condition until it holds (the server cleans up asynchronously after the client is gone). */
  async function until(what: string, check: () => Promise<boolean>): Promise<void> {
    const deadline = Date.now() + 10_000;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  it('leaves no file, temp file or row when the client goes away mid-part', async () => {
    const before = await leftovers(server);
    const tmp = join(server.dataDir, 'tmp', 'uploads');
    const { hostname, port } = new URL(server.url);
    const socket = connect(Number(port), hostname);
    socket.on('error', () => {});
    socket.write(
      `POST /api/upload HTTP/1.1\r\nHost: ${hostname}:${port}\r\nAuthorization: Bearer ${full}\r\n` +
        'Content-Type: multipart/form-data; boundary=XYZ\r\nContent-Length: 10000000\r\n\r\n' +
        '--XYZ\r\nContent-Disposition: form-data; name="files"; filename="cut.txt"\r\nContent-Type: text/plain\r\n\r\n',
    );
    socket.write('a'.repeat(256 * 1024));
    await until('the part to reach a temp file', async () => {
      const dirs = await readdir(tmp);
      return dirs.length > 0 && (await Promise.all(dirs.map((d) => readdir(join(tmp, d))))).some((entries) => entries.length > 0);
    });
    socket.destroy();
    await until('the temp dir to be removed', async () => (await readdir(tmp)).length === 0);
    expect(await leftovers(server)).toEqual(before);
  });
});

describe('temp files of a process that died mid-upload', () => {
  it('are removed at start, while those of a live process sharing the data dir are kept', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'hearth-stale-'));
    const tmp = join(dataDir, 'tmp', 'uploads');
    const dead = join(tmp, 'req-2147483000-abc');
    const live = join(tmp, `req-${process.ppid}-def`);
    for (const dir of [dead, live]) {
      await mkdir(dir, { recursive: true });
      await writeFile(join(dir, 'part-1'), 'partial');
    }
    const restarted = await startTestServer({ dataDir });
    try {
      expect(await readdir(tmp)).toEqual([`req-${process.ppid}-def`]);
    } finally {
      await restarted.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

describe('the size limit (UPLOAD_SIZE_LIMIT)', () => {
  let small: TestServer;
  beforeAll(async () => {
    small = await startTestServer({ env: { UPLOAD_SIZE_LIMIT: '1000' } });
  });
  afterAll(async () => {
    await small?.close();
  });

  it('accepts a file of exactly the limit and answers one byte more with 413 FileTooBig, leaving nothing', async () => {
    const token = await small.token('full-access');
    const ok = await postUpload(small, token, [{ name: 'files', filename: 'a.txt', bytes: Buffer.alloc(1000, 97) }]);
    expect((await json<FileObject[]>(ok, 201))[0]).toMatchObject({ size: 1 });
    const before = await leftovers(small);
    const res = await postUpload(small, token, [fixturePart('notes.txt'), { name: 'files', filename: 'b.txt', bytes: Buffer.alloc(1001, 97) }]);
    expect(await json(res, 413)).toEqual(errorBody(413, 'PayloadTooLargeError', 'FileTooBig'));
    expect(await leftovers(small)).toEqual(before);
    expect(await filesUnder(join(small.dataDir, 'tmp'))).toEqual([]);
  });
});
