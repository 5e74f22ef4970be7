import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { fixture, json, postUpload, type FileObject } from '../uploads/helpers.js';

/** Image processing as Strapi does it: dimensions, size optimisation, thumbnail and breakpoints. */

let server: TestServer;
let full: string;
const stored = (name: string) => join(server.dataDir, 'uploads', name);
const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

async function upload(filename: string, bytes: Buffer, type: string): Promise<FileObject> {
  const [file] = await json<FileObject[]>(await postUpload(server, full, [{ name: 'files', filename, bytes, type }]), 201);
  if (!file) throw new Error('no file');
  return file;
}

const solid = (width: number, height: number) => sharp({ create: { width, height, channels: 3, background: { r: 30, g: 120, b: 200 } } });

beforeAll(async () => {
  server = await startTestServer();
  full = await server.token('full-access');
});
afterAll(async () => {
  await server?.close();
});

describe('formats', () => {
  it('re-encodes a JPEG too large to hold in memory line by line and resizes it, saying so', async () => {
    const noise = { type: 'gaussian', mean: 128, sigma: 8 } as const;
    const original = await sharp({ create: { width: 5472, height: 3648, channels: 3, background: { r: 0, g: 0, b: 0 }, noise } }).jpeg({ quality: 100 }).toBuffer();
    const res = await postUpload(server, full, [{ name: 'files', filename: 'camera.jpg', bytes: original, type: 'image/jpeg' }]);
    expect(res.headers.get('hearth-notice')).toBe('files[0] 5472x3648 is too large to hold in memory: re-encoded line by line (standard Huffman tables), formats resized line by line');
    const [file] = await json<FileObject[]>(res, 201);
    if (!file) throw new Error('no file');
    expect([file.width, file.height, file.mime, file.ext]).toEqual([5472, 3648, 'image/jpeg', '.jpg']);
    const sizes = Object.fromEntries(Object.entries(file.formats ?? {}).map(([key, f]) => [key, [f.width, f.height]]));
    expect(sizes).toEqual({ thumbnail: [234, 156], small: [500, 333], medium: [750, 500], large: [1000, 667] });
    const kept = readFileSync(stored(`${file.hash}.jpg`));
    expect(kept.length).toBeLessThan(original.length / 2);
    expect(file.size).toBe(Math.round(kept.length / 10) / 100);
    expect(await sharp(kept).metadata()).toMatchObject({ width: 5472, height: 3648, format: 'jpeg' });
  });

  it('makes a thumbnail inside 245x156 and every breakpoint smaller than the image, in Strapi order and shape', async () => {
    const file = await upload('Landscape.jpg', await solid(1200, 900).jpeg({ quality: 95 }).toBuffer(), 'image/jpeg');
    expect([file.width, file.height, file.mime, file.ext]).toEqual([1200, 900, 'image/jpeg', '.jpg']);
    const formats = file.formats ?? {};
    expect(Object.keys(formats)).toEqual(['thumbnail', 'small', 'medium', 'large']);
    const boxes = Object.fromEntries(Object.entries(formats).map(([key, f]) => [key, [f.width, f.height]]));
    expect(boxes).toEqual({ thumbnail: [208, 156], large: [1000, 750], medium: [750, 563], small: [500, 375] });
    for (const [key, format] of Object.entries(formats)) {
      expect(Object.keys(format)).toEqual(['name', 'hash', 'ext', 'mime', 'path', 'width', 'height', 'size', 'sizeInBytes', 'url']);
      expect(format).toMatchObject({ name: `${key}_Landscape.jpg`, hash: `${key}_${file.hash}`, ext: '.jpg', mime: 'image/jpeg', path: null, url: `/uploads/${key}_${file.hash}.jpg` });
      const onDisk = stored(`${key}_${file.hash}.jpg`);
      expect(statSync(onDisk).size).toBe(format.sizeInBytes);
      expect(format.size).toBe(Math.round((Number(format.sizeInBytes) / 1000) * 100) / 100);
      const meta = await sharp(onDisk).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', format.width, format.height]);
    }
  });

  it('fits portrait images by their height', async () => {
    const file = await upload('portrait.png', await solid(600, 1100).png().toBuffer(), 'image/png');
    const boxes = Object.fromEntries(Object.entries(file.formats ?? {}).map(([key, f]) => [key, [f.width, f.height]]));
    expect(boxes).toEqual({ thumbnail: [85, 156], large: [545, 1000], medium: [409, 750], small: [273, 500] });
  });

  it('makes no breakpoint the image does not exceed, and no format at all for small images', async () => {
    const exact = await upload('exact.png', await solid(500, 300).png().toBuffer(), 'image/png');
    expect(Object.keys(exact.formats ?? {})).toEqual(['thumbnail']);
    const small = await upload('small.png', await solid(245, 156).png().toBuffer(), 'image/png');
    expect(small.formats).toBeNull();
    expect([small.width, small.height]).toEqual([245, 156]);
  });

  it('resizes GIF and WebP too, keeping their type', async () => {
    const gif = await upload('anim.gif', await solid(400, 300).gif().toBuffer(), 'image/gif');
    expect(gif.formats?.thumbnail).toMatchObject({ mime: 'image/gif', ext: '.gif', width: 208, height: 156 });
    expect((await sharp(stored(`thumbnail_${gif.hash}.gif`)).metadata()).format).toBe('gif');
    const webp = await upload('pic.webp', await solid(800, 600).webp().toBuffer(), 'image/webp');
    expect(Object.keys(webp.formats ?? {})).toEqual(['thumbnail', 'small', 'medium']);
    expect(webp.mime).toBe('image/webp');
  });
});

describe('size optimisation (quality 80)', () => {
  it('stores the re-encoded original when it is smaller', async () => {
    const original = fixture('red-400x300.png');
    const file = await upload('red.png', original, 'image/png');
    const onDisk = readFileSync(stored(`${file.hash}.png`));
    expect(onDisk.length).toBe(233);
    expect(onDisk.length).toBeLessThan(original.length);
    expect(file.size).toBe(0.23);
  });

  it('keeps the original when re-encoding would make it larger', async () => {
    const noisy = await sharp({ create: { width: 300, height: 300, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 60 } } })
      .jpeg({ quality: 5 })
      .toBuffer();
    const reencoded = await sharp(noisy).jpeg({ quality: 80 }).toBuffer();
    expect(reencoded.length).toBeGreaterThan(noisy.length);
    const file = await upload('noisy.jpg', noisy, 'image/jpeg');
    expect(sha(readFileSync(stored(`${file.hash}.jpg`)))).toBe(sha(noisy));
    expect(file.size).toBe(Math.round((noisy.length / 1000) * 100) / 100);
  });

  it('does not re-encode GIFs', async () => {
    const gif = await solid(100, 80).gif().toBuffer();
    const file = await upload('plain.gif', gif, 'image/gif');
    expect(sha(readFileSync(stored(`${file.hash}.gif`)))).toBe(sha(gif));
  });
});
