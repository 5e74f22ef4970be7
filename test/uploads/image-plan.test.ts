import { describe, expect, it } from 'vitest';
import { planImage, wholeImageCost, type ImageHeader } from '../../server/uploads/image-plan.js';
import { DEFAULT_UPLOAD_MAX_IMAGE_PIXELS, IMAGE_WHOLE_IMAGE_BYTES } from '../../server/limits.js';
import { insideSize } from '../../server/uploads/image-formats.js';
import { createWorkQueue } from '../../server/uploads/work-queue.js';

/** What each image gets, from its header alone: table of header -> plan. */

const limits = { maxPixels: DEFAULT_UPLOAD_MAX_IMAGE_PIXELS, wholeImageBytes: IMAGE_WHOLE_IMAGE_BYTES };
const image = (format: string, width: number, height: number, more: Partial<ImageHeader> = {}): ImageHeader => ({
  format,
  width,
  height,
  channels: 3,
  depth: 'uchar',
  isProgressive: false,
  ...more,
});

describe('image plans', () => {
  it.each([
    ['a 12 MP phone JPEG', image('jpeg', 4032, 3024), 'full'],
    ['a 4 MP WebP', image('webp', 2000, 2000), 'full'],
    ['a 12 MP PNG', image('png', 4000, 3000), 'full'],
    ['a 20 MP camera JPEG', image('jpeg', 5472, 3648), 'streamed'],
    ['a 10 MP WebP', image('webp', 4000, 2600), 'streamed'],
    ['a 24 MP PNG', image('png', 6000, 4000), 'streamed'],
    ['a 45 MP camera JPEG', image('jpeg', 8192, 5464), 'streamed'],
    ['a 24 MP 16-bit RGBA PNG', image('png', 6000, 4000, { channels: 4, depth: 'ushort' }), 'streamed'],
    ['an 81 MP PNG', image('png', 9000, 9000), 'streamed'],
    ['a 45 MP progressive JPEG (decoded whole)', image('jpeg', 8192, 5464, { isProgressive: true }), 'stored'],
    ['a 45 MP interlaced PNG (decoded whole)', image('png', 8192, 5464, { isProgressive: true }), 'stored'],
    ['a 30 MP GIF (decoded whole)', image('gif', 6000, 5000, { channels: 4 }), 'stored'],
    ['a 30 MP TIFF', image('tiff', 6000, 5000), 'stored'],
    ['the 16000x16000 PNG bomb', image('png', 16000, 16000), 'stored'],
    ['100 MP exactly', image('png', 10000, 10000), 'streamed'],
    ['one pixel over 100 MP', image('png', 100_000_001, 1), 'stored'],
  ])('%s: %s', (_what, header, kind) => {
    expect(planImage(header, limits).kind).toBe(kind);
  });

  it('says what was left out and why', () => {
    expect(planImage(image('png', 16000, 16000), limits)).toEqual({
      kind: 'stored',
      notice: '16000x16000 is over UPLOAD_MAX_IMAGE_PIXELS (100000000): stored as received, without formats',
    });
    expect(planImage(image('png', 9000, 9000), limits)).toEqual({
      kind: 'streamed',
      notice: '9000x9000 is too large to hold in memory: stored as received (not re-encoded), formats resized line by line',
    });
    expect(planImage(image('jpeg', 400, 300), { ...limits, maxPixels: 100_000 })).toMatchObject({ kind: 'stored' });
  });

  it('counts the wider of the validity decode and the re-encode', () => {
    expect(wholeImageCost(image('jpeg', 1000, 1000))).toBe(9_000_000);
    expect(wholeImageCost(image('png', 1000, 1000, { channels: 4, depth: 'ushort' }))).toBe(12_000_000);
    expect(wholeImageCost(image('webp', 1000, 1000))).toBe(24_000_000);
  });
});

describe('sizes of formats resized from the largest one', () => {
  it.each([
    [{ width: 1200, height: 900 }, { width: 245, height: 156 }, { width: 208, height: 156 }],
    [{ width: 1200, height: 900 }, { width: 750, height: 750 }, { width: 750, height: 563 }],
    [{ width: 5472, height: 3648 }, { width: 500, height: 500 }, { width: 500, height: 333 }],
    [{ width: 3648, height: 5472 }, { width: 245, height: 156 }, { width: 104, height: 156 }],
    [{ width: 100_000, height: 10 }, { width: 245, height: 156 }, { width: 245, height: 1 }],
  ])('%j inside %j is %j, as sharp resizes the original', (size, box, expected) => {
    expect(insideSize(size, box)).toEqual(expected);
  });
});

describe('work queue', () => {
  it('runs at most `limit` tasks at once, in arrival order, and frees the slot when one fails', async () => {
    const queue = createWorkQueue(1);
    let running = 0;
    let most = 0;
    const order: number[] = [];
    const task = (n: number, fail = false) => async () => {
      running++;
      most = Math.max(most, running);
      await new Promise((r) => setImmediate(r));
      running--;
      order.push(n);
      if (fail) throw new Error(`task ${n}`);
      return n;
    };
    const results = await Promise.allSettled([queue.run(task(1)), queue.run(task(2, true)), queue.run(task(3)), queue.run(task(4))]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
    expect(order).toEqual([1, 2, 3, 4]);
    expect(most).toBe(1);
  });
});
