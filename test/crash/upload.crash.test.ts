import { copyFile, mkdir, readdir, readFile, rm, stat } from 'node:fs/promises';
import { request, type ClientRequest } from 'node:http';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServeProcess } from '../helpers/cli.js';
import { STRAPI_FIXTURES_DIR } from '../helpers/transcripts.js';
import { filesUnder, fixture, form, type FileObject } from '../uploads/helpers.js';
import { checkDatabase, freshDataDir, fullAccessToken, killHard, serveOn, stopGracefully, waitFor } from './helpers.js';

/**
 * A real `hearth serve` is killed with SIGKILL while a large multipart upload is half sent and
 * small uploads run beside it. After a restart on the same data dir: no temp leftovers, every
 * media file belongs to a row and every row's files exist (an object stored for an upload whose
 * rows never committed is moved to `<data>/tmp/orphans/`), and the database passes integrity_check.
 */

const BOUNDARY = '----hearth-crash-test';
const CLAIMED_SIZE = 64 * 1024 * 1024;
const SENT_BEFORE_KILL = 8 * 1024 * 1024;
const SMALL_UPLOADS_BEFORE_KILL = 12;
const PNG = 'red-400x300.png';

let dataDir: string;
let token: string;
let serve: ServeProcess;

beforeAll(async () => {
  dataDir = await freshDataDir('crash-upload');
  token = await fullAccessToken(dataDir);
  serve = await serveOn(dataDir);
});
afterAll(async () => {
  await killHard(serve);
  await rm(dirname(dataDir), { recursive: true, force: true });
});

/** Starts a multipart upload claiming CLAIMED_SIZE bytes, sends `sent` of them and then stalls, as a slow client does. */
function stalledUpload(base: string, sent: number): ClientRequest {
  const url = new URL('/api/upload', base);
  const head = Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="files"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`);
  const req = request({
    host: url.hostname,
    port: url.port,
    path: url.pathname,
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': `multipart/form-data; boundary=${BOUNDARY}`, 'Content-Length': head.length + CLAIMED_SIZE + 100 },
  });
  req.on('error', () => {}); // The server dies under it.
  req.write(head);
  const chunk = Buffer.alloc(256 * 1024, 7);
  for (let n = 0; n < sent; n += chunk.length) req.write(chunk);
  return req;
}

/** Uploads small files (an image with a thumbnail, a text file) until told to stop; resolves with the acknowledged ones. */
async function smallUploads(base: string, until: () => boolean, acked: FileObject[]): Promise<void> {
  for (let i = 0; !until(); i++) {
    const name = i % 2 === 0 ? PNG : 'notes.txt';
    let res: Response;
    try {
      res = await fetch(`${base}/api/upload`, { method: 'POST', headers: { Authorization: `Bearer ${token}` }, body: form([{ name: 'files', filename: name, bytes: fixture(name) }]) });
    } catch {
      return;
    }
    if (res.status !== 201) throw new Error(`upload answered ${res.status}: ${await res.text()}`);
    acked.push(...((await res.json()) as FileObject[]));
  }
}

/** The size of the largest temp part file under `<data>/tmp/uploads`. */
async function largestTempPart(): Promise<number> {
  let largest = 0;
  for (const file of await filesUnder(join(dataDir, 'tmp', 'uploads'))) {
    // A small upload's part can be moved into place between the listing and the stat.
    const size = await stat(join(dataDir, 'tmp', 'uploads', file)).then((s) => s.size, () => 0);
    largest = Math.max(largest, size);
  }
  return largest;
}

const keyOf = (url: string) => url.replace(/^\/uploads\//, '');

/** Every file row (bare list of the upload API) and the media keys they reference. */
async function rowsAndKeys(base: string): Promise<{ files: FileObject[]; keys: Set<string> }> {
  const files = (await (await fetch(`${base}/api/upload/files`, { headers: { Authorization: `Bearer ${token}` } })).json()) as FileObject[];
  const keys = new Set<string>();
  for (const file of files) {
    keys.add(keyOf(file.url));
    for (const format of Object.values(file.formats ?? {})) keys.add(keyOf(format.url));
  }
  return { files, keys };
}

describe('SIGKILL during uploads', () => {
  it('leaves no temp file, no orphaned media file and no row without its file', async () => {
    const acked: FileObject[] = [];
    let killed = false;
    const big = stalledUpload(serve.url, SENT_BEFORE_KILL);
    const loads = [0, 1, 2, 3].map(() => smallUploads(serve.url, () => killed, acked));
    try {
      await waitFor('the large upload to reach the disk and small uploads to be acknowledged', async () => (await largestTempPart()) >= SENT_BEFORE_KILL / 2 && acked.length >= SMALL_UPLOADS_BEFORE_KILL);
    } finally {
      killed = true;
      await killHard(serve);
      await Promise.all(loads);
      big.destroy();
    }
    // The scenario happened: the dead process left its half-received upload behind.
    expect((await readdir(join(dataDir, 'tmp', 'uploads'))).length).toBeGreaterThan(0);
    // As if the process had died between storing an object and committing its row.
    await copyFile(join(STRAPI_FIXTURES_DIR, 'blue-64x48.jpg'), join(dataDir, 'uploads', 'planted_0123456789.jpg'));

    serve = await serveOn(dataDir);
    expect(await readdir(join(dataDir, 'tmp', 'uploads'))).toEqual([]);
    const { files, keys } = await rowsAndKeys(serve.url);
    const onDisk = await filesUnder(join(dataDir, 'uploads'));
    expect(onDisk).toEqual([...keys].sort());
    expect(files.map((f) => f.id)).toEqual(expect.arrayContaining(acked.map((f) => f.id)));
    for (const file of acked) {
      const res = await fetch(`${serve.url}${file.url}`);
      expect(res.status).toBe(200);
      const bytes = Buffer.from(await res.arrayBuffer());
      // Images are re-encoded on upload (as Strapi's size optimisation does); text is stored as sent.
      if (file.mime === 'text/plain') expect(bytes.equals(fixture(file.name))).toBe(true);
      else expect(bytes.length).toBeGreaterThan(0);
    }
    expect(await readFile(join(dataDir, 'tmp', 'orphans', 'planted_0123456789.jpg'))).toEqual(fixture('blue-64x48.jpg'));
    expect(serve.stderr()).toContain('planted_0123456789.jpg belongs to no file');

    expect(await stopGracefully(serve)).toBe(0);
    expect(checkDatabase(dataDir)).toEqual({ integrity: [{ integrity_check: 'ok' }], foreignKeys: [] });
  });

  it('leaves unreferenced files alone while another live Hearth has an upload in flight', async () => {
    const otherUpload = join(dataDir, 'tmp', 'uploads', `req-${process.pid}-inflight`);
    await mkdir(otherUpload, { recursive: true });
    await copyFile(join(STRAPI_FIXTURES_DIR, 'notes.txt'), join(dataDir, 'uploads', 'stored_abcdef0123.txt'));
    serve = await serveOn(dataDir);
    expect(await filesUnder(join(dataDir, 'uploads'))).toContain('stored_abcdef0123.txt');
    expect(serve.stderr()).toContain('check for orphaned media files was skipped');
    expect(await stopGracefully(serve)).toBe(0);

    await rm(otherUpload, { recursive: true });
    serve = await serveOn(dataDir);
    expect(await filesUnder(join(dataDir, 'uploads'))).not.toContain('stored_abcdef0123.txt');
    expect(await stopGracefully(serve)).toBe(0);
  });
});
