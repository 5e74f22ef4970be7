import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STRAPI_FIXTURES_DIR } from '../helpers/transcripts.js';
import { filesUnder } from './helpers.js';
import { serveForMemory, withPeakRss, type ServedHearth } from './served.js';

/**
 * Uploads are streamed, never buffered: a 300 MB file sent to a real `hearth serve` child process
 * (the compiled CLI, as users run it) must not grow that process's resident memory by 64 MB, and
 * one byte over UPLOAD_SIZE_LIMIT is a 413 that leaves no file, temp file or row behind.
 * The file is generated at test time; `npm test` builds dist/ first.
 */

const LIMIT = 300 * 1024 * 1024;
const MAX_RSS_GROWTH = 64 * 1024 * 1024;
const BOUNDARY = '----hearth-stream-test';

let work: string;
let dataDir: string;
let bigFile: string;
let served: ServedHearth;

async function generate(path: string, size: number): Promise<void> {
  const chunk = randomBytes(1024 * 1024);
  async function* chunks() {
    for (let left = size; left > 0; left -= chunk.length) yield left >= chunk.length ? chunk : chunk.subarray(0, left);
  }
  await pipeline(chunks(), createWriteStream(path));
}

/** Streams a multipart upload of `path` (plus `extra` bytes) and resolves with status and body. */
function streamUpload(path: string, size: number, extra: Buffer): Promise<{ status: number; body: string }> {
  const head = Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="files"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${BOUNDARY}--\r\n`);
  const url = new URL('/api/upload', served.base);
  return new Promise((done, fail) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        headers: {
          Authorization: `Bearer ${served.token}`,
          'Content-Type': `multipart/form-data; boundary=${BOUNDARY}`,
          'Content-Length': head.length + size + extra.length + tail.length,
        },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => done({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', fail);
    req.write(head);
    const file = createReadStream(path);
    file.pipe(req, { end: false });
    file.on('error', fail);
    file.on('end', () => req.end(Buffer.concat([extra, tail])));
  });
}

/** Runs an upload while sampling the server's RSS; resolves with the response and the peak growth. */
async function measured(path: string, size: number, extra: Buffer) {
  const { result: res, baseline, peak } = await withPeakRss(served.pid, 25, () => streamUpload(path, size, extra));
  return { res, baseline, peak, growth: peak - baseline };
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'hearth-stream-'));
  dataDir = join(work, 'data');
  bigFile = join(work, 'big.bin');
  served = await serveForMemory(dataDir, { UPLOAD_SIZE_LIMIT: String(LIMIT), HEARTH_DATA: dataDir });
  await generate(bigFile, LIMIT);
  // Warm up: the first upload loads the multipart, sniffing and image code paths.
  const notes = join(STRAPI_FIXTURES_DIR, 'notes.txt');
  const warm = await streamUpload(notes, (await stat(notes)).size, Buffer.alloc(0));
  expect(warm.status).toBe(201);
}, 180_000);

afterAll(async () => {
  await served?.stop();
  if (work) await rm(work, { recursive: true, force: true });
});

describe('streaming uploads to `hearth serve`', () => {
  it('takes a 300 MB file at the limit with RSS growth under 64 MB', async () => {
    const { res, baseline, peak, growth } = await measured(bigFile, LIMIT, Buffer.alloc(0));
    process.stdout.write(`\n300 MB upload: RSS baseline ${(baseline / 2 ** 20).toFixed(1)} MB, peak ${(peak / 2 ** 20).toFixed(1)} MB, growth ${(growth / 2 ** 20).toFixed(1)} MB\n`);
    expect(res.status).toBe(201);
    const [file] = JSON.parse(res.body) as { hash: string; ext: string; size: number }[];
    expect(file).toMatchObject({ ext: '.bin', size: Math.round((LIMIT / 1000) * 100) / 100 });
    expect((await stat(join(dataDir, 'uploads', `${file?.hash}.bin`))).size).toBe(LIMIT);
    expect(growth).toBeLessThan(MAX_RSS_GROWTH);
  }, 180_000);

  it('answers one byte over the limit with 413 and leaves no file, temp file or row', async () => {
    const uploadsBefore = await filesUnder(join(dataDir, 'uploads'));
    const { res, growth } = await measured(bigFile, LIMIT, Buffer.from('x'));
    process.stdout.write(`\n300 MB + 1 byte upload: RSS growth ${(growth / 2 ** 20).toFixed(1)} MB\n`);
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body)).toEqual({ data: null, error: { status: 413, name: 'PayloadTooLargeError', message: 'FileTooBig', details: {} } });
    expect(await filesUnder(join(dataDir, 'uploads'))).toEqual(uploadsBefore);
    expect(await readdir(join(dataDir, 'tmp', 'uploads'))).toEqual([]);
    const listed = await fetch(`${served.base}/api/upload/files?fields[0]=name`, { headers: { Authorization: `Bearer ${served.token}` } });
    expect(((await listed.json()) as unknown[]).length).toBe(2);
    expect(growth).toBeLessThan(MAX_RSS_GROWTH);
  }, 180_000);
});
