import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writePngBomb } from '../../bench/lib/png-bomb.js';
import type { FileObject } from './helpers.js';
import { serveForMemory, withPeakRss, type ServedHearth } from './served.js';

/**
 * Decompression bombs sent to a real `hearth serve` child process (the compiled CLI, as users run
 * it; `npm test` builds dist/ first): a PNG of under 1 MB that decodes to 768 MB is stored without
 * being decoded, an 81-megapixel one gets its formats from line-by-line resizes, and the server's
 * resident memory stays under 300 MB throughout, for one upload or three at once.
 */

const MAX_RSS = 300 * 1024 * 1024;

let work: string;
let served: ServedHearth;
let bomb: Buffer;
let large: Buffer;

async function upload(bytes: Buffer, filename: string): Promise<{ status: number; notices: string | null; files: FileObject[] }> {
  const body = new FormData();
  body.append('files', new Blob([bytes], { type: 'image/png' }), filename);
  const res = await fetch(`${served.base}/api/upload`, { method: 'POST', headers: { Authorization: `Bearer ${served.token}` }, body });
  const text = await res.text();
  if (res.status !== 201) throw new Error(`upload answered ${res.status}: ${text}`);
  return { status: res.status, notices: res.headers.get('hearth-notice'), files: JSON.parse(text) as FileObject[] };
}

/** Runs uploads while sampling the server's RSS every 10 ms; resolves with their results and the peak. */
const measured = <T>(work: () => Promise<T>) => withPeakRss(served.pid, 10, work);

const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MB`;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'hearth-bombs-'));
  const dataDir = join(work, 'data');
  // The default pixel limit, whatever the environment running the tests says.
  served = await serveForMemory(dataDir, { HEARTH_DATA: dataDir, UPLOAD_MAX_IMAGE_PIXELS: undefined });
  await writePngBomb(join(work, 'bomb.png'), 16000, 16000);
  await writePngBomb(join(work, 'large.png'), 9000, 9000);
  bomb = await readFile(join(work, 'bomb.png'));
  large = await readFile(join(work, 'large.png'));
  expect(bomb.length).toBeLessThan(1024 * 1024);
}, 120_000);

afterAll(async () => {
  await served?.stop();
  if (work) await rm(work, { recursive: true, force: true });
});

describe('image decompression bombs sent to `hearth serve`', () => {
  it('stores a 16000x16000 PNG over UPLOAD_MAX_IMAGE_PIXELS as received, without formats, and says so', async () => {
    const { result, peak } = await measured(() => upload(bomb, 'bomb.png'));
    process.stdout.write(`\n16000x16000 PNG bomb: RSS peak ${mb(peak)}\n`);
    const [file] = result.files;
    expect(file).toMatchObject({ name: 'bomb.png', mime: 'image/png', ext: '.png', width: 16000, height: 16000, formats: null, size: Math.round(bomb.length / 10) / 100 });
    expect(result.notices).toBe('files[0] 16000x16000 is over UPLOAD_MAX_IMAGE_PIXELS (100000000): stored as received, without formats');
    const stored = await fetch(`${served.base}${file?.url}`);
    expect(Buffer.from(await stored.arrayBuffer()).equals(bomb)).toBe(true);
    expect(peak).toBeLessThan(MAX_RSS);
  }, 120_000);

  it('takes three bombs at once the same way', async () => {
    const { result, peak } = await measured(() => Promise.all([1, 2, 3].map((n) => upload(bomb, `bomb-${n}.png`))));
    process.stdout.write(`\n3 PNG bombs at once: RSS peak ${mb(peak)}\n`);
    for (const r of result) expect(r.files[0]).toMatchObject({ width: 16000, height: 16000, formats: null });
    expect(peak).toBeLessThan(MAX_RSS);
  }, 120_000);

  it('gives an 81-megapixel PNG under the limit its formats from line-by-line resizes, three at once', async () => {
    const { result, peak } = await measured(() => Promise.all([1, 2, 3].map((n) => upload(large, `large-${n}.png`))));
    process.stdout.write(`\n3 PNGs of 9000x9000 at once: RSS peak ${mb(peak)}\n`);
    for (const r of result) {
      const [file] = r.files;
      expect(file).toMatchObject({ width: 9000, height: 9000, size: Math.round(large.length / 10) / 100 });
      const sizes = Object.fromEntries(Object.entries(file?.formats ?? {}).map(([key, f]) => [key, [f.width, f.height]]));
      expect(sizes).toEqual({ thumbnail: [156, 156], small: [500, 500], medium: [750, 750], large: [1000, 1000] });
      expect(r.notices).toBe('files[0] 9000x9000 is too large to hold in memory: stored as received (not re-encoded), formats resized line by line');
    }
    expect(peak).toBeLessThan(MAX_RSS);
  }, 180_000);
});
