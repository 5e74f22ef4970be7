import { randomBytes } from 'node:crypto';
import { rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Sharp } from 'sharp';
import { AppError } from '../errors/app-error.js';
import { IMAGE_THREADS, IMAGE_WHOLE_IMAGE_BYTES, IMAGE_WORK_CONCURRENCY } from '../limits.js';
import { planImage, type ImageHeader, type ImageLimits } from './image-plan.js';
import { createWorkQueue } from './work-queue.js';

/**
 * Image handling as Strapi's upload plugin does it (`services/image-manipulation.ts`, with its
 * defaults sizeOptimization on, responsiveDimensions on, autoOrientation off): the original is
 * re-encoded at quality 80 unless that makes it bigger, then a thumbnail and the breakpoints that
 * are smaller than the image are resized from it. Everything is written to the request's temp dir.
 * How much of that an image gets is planned from its header first (image-plan.ts): decompression
 * bombs are never decoded, and images too large to hold in memory are only resized line by line.
 */

/** Strapi's thumbnail box: the image is fit inside it. */
export const THUMBNAIL_BOX = { width: 245, height: 156 } as const;
/**
 * Strapi's default breakpoints (`plugin::upload.breakpoints`), in the order its responses list
 * them: Strapi adds each format to `formats` when its upload finishes, smallest first, so bodies
 * read thumbnail, small, medium, large (whichever exist).
 */
export const BREAKPOINTS: readonly (readonly [string, number])[] = [
  ['small', 500],
  ['medium', 750],
  ['large', 1000],
];
/** The quality Strapi's size optimisation re-encodes with. */
export const OPTIMIZE_QUALITY = 80;

/** MIME types sharp reads for dimensions (Strapi's FORMATS_TO_PROCESS without SVG, which is refused). */
const PROCESSED = new Set(['image/jpeg', 'image/png', 'image/webp', 'image/tiff', 'image/gif', 'image/avif']);
/** Formats that get a thumbnail and breakpoints (FORMATS_TO_RESIZE). */
const RESIZED = new Set(['jpeg', 'png', 'webp', 'tiff', 'gif']);
/** Formats re-encoded by the size optimisation (FORMATS_TO_OPTIMIZE). */
const OPTIMIZED = new Set(['jpeg', 'png', 'webp', 'tiff', 'avif']);

/** One generated variant, before it is stored. */
export interface ImageVariant {
  /** `thumbnail`, `large`, `medium` or `small`. */
  readonly key: string;
  readonly tempPath: string;
  readonly width: number;
  readonly height: number;
  readonly sizeInBytes: number;
}

/** The processed original and its variants. */
export interface ProcessedImage {
  /** The file to store as the original: the optimised one when that was smaller. */
  readonly tempPath: string;
  readonly sizeInBytes: number;
  readonly width: number;
  readonly height: number;
  readonly variants: readonly ImageVariant[];
  /** What was left out for the image's size (not re-encoded, no formats), for the upload's answer; null when nothing. */
  readonly notice: string | null;
}

type SharpFactory = typeof import('sharp').default;
let loading: Promise<SharpFactory> | null = null;

/**
 * sharp (libvips: tens of MB of native code) is loaded with the first image, not at start, so cold
 * start and idle memory stay small. Its process-wide cache is turned off: it would keep decoded
 * images in memory and descriptors of deleted temp files open (holding their disk space); Hearth
 * reads each image a few times in a row and never again. Its worker threads are capped: each holds
 * buffers of the image being processed.
 */
function loadSharp(): Promise<SharpFactory> {
  loading ??= import('sharp').then(({ default: sharp }) => {
    sharp.cache(false);
    sharp.concurrency(Math.min(sharp.concurrency(), IMAGE_THREADS));
    return sharp;
  });
  return loading;
}

/** Whether a sniffed MIME type is an image sharp processes. */
export const isProcessedImage = (mime: string): boolean => PROCESSED.has(mime);

const tempName = (dir: string, label: string) => join(dir, `${label}-${randomBytes(8).toString('hex')}`);
const notAnImage = (cause?: unknown) => new AppError('ApplicationError', 'File is not a valid image', {}, cause === undefined ? undefined : { cause });

type OptimizedFormat = 'jpeg' | 'png' | 'webp' | 'tiff' | 'avif';
const isOptimized = (format: string): format is OptimizedFormat => OPTIMIZED.has(format);

/** The variants an image of this size gets, in the order formats are listed (thumbnail first). */
function variantBoxes(format: string, width: number, height: number): [string, { width: number; height: number }][] {
  if (!RESIZED.has(format)) return [];
  const boxes: [string, { width: number; height: number }][] = [];
  if (width > THUMBNAIL_BOX.width || height > THUMBNAIL_BOX.height) boxes.push(['thumbnail', THUMBNAIL_BOX]);
  for (const [key, breakpoint] of BREAKPOINTS) {
    if (breakpoint < width || breakpoint < height) boxes.push([key, { width: breakpoint, height: breakpoint }]);
  }
  return boxes;
}

/** The size sharp's `fit: 'inside'` gives an image of `size` resized into `box` (the larger ratio sets the scale). */
export function insideSize(size: { width: number; height: number }, box: { width: number; height: number }): { width: number; height: number } {
  const factor = Math.max(size.width / box.width, size.height / box.height);
  return size.width / box.width >= size.height / box.height
    ? { width: box.width, height: Math.max(1, Math.round(size.height / factor)) }
    : { width: Math.max(1, Math.round(size.width / factor)), height: box.height };
}

/** The header, read without decoding a pixel (so with no pixel limit: the plan applies it). */
async function readHeader(sharp: SharpFactory, path: string): Promise<ImageHeader> {
  let meta: Awaited<ReturnType<Sharp['metadata']>>;
  try {
    meta = await sharp(path, { limitInputPixels: false }).metadata();
  } catch (err) {
    throw notAnImage(err);
  }
  const { format, width, height } = meta;
  if (format === undefined || !width || !height) throw notAnImage();
  return { format, width, height, channels: meta.channels, depth: meta.depth, isProgressive: meta.isProgressive };
}

/** Sharp's processing steps for one image, every decode bounded by `maxPixels`. */
function steps(sharp: SharpFactory, maxPixels: number, dir: string) {
  const open = (path: string, sequentialRead = false): Sharp => sharp(path, { limitInputPixels: maxPixels, failOn: 'error', sequentialRead });

  /**
   * Re-encodes at quality 80; the output is kept only when it is not larger than the input. A JPEG
   * too large to hold in memory (`sequentialRead`) is re-encoded line by line, with libjpeg's
   * standard Huffman tables (optimised ones need every coefficient of the image in memory first;
   * the file comes out about 5% larger than Strapi's).
   */
  async function optimize(path: string, format: OptimizedFormat, size: number, sequentialRead = false): Promise<{ path: string; size: number }> {
    const out = tempName(dir, 'optimized');
    const image = open(path, sequentialRead);
    const encoded = sequentialRead ? image.jpeg({ quality: OPTIMIZE_QUALITY, optimiseCoding: false }) : image[format]({ quality: OPTIMIZE_QUALITY });
    const info = await encoded.toFile(out);
    if (info.size > size) {
      await rm(out, { force: true });
      return { path, size };
    }
    return { path: out, size: info.size };
  }

  /** Fits the image inside `box`, or with `fit: 'fill'` gives it exactly that size. */
  async function resize(path: string, key: string, box: { width: number; height: number }, sequentialRead = false, fit: 'inside' | 'fill' = 'inside'): Promise<ImageVariant> {
    const out = tempName(dir, key);
    const info = await open(path, sequentialRead).resize({ ...box, fit }).toFile(out);
    return { key, tempPath: out, width: info.width, height: info.height, sizeInBytes: info.size };
  }

  return { open, optimize, resize };
}

/** Strapi's processing: a full decode as a validity check, the quality-80 re-encode, then the formats. */
async function processFully(sharp: SharpFactory, header: ImageHeader, path: string, dir: string, maxPixels: number): Promise<ProcessedImage> {
  const { open, optimize, resize } = steps(sharp, maxPixels, dir);
  try {
    await open(path).stats();
  } catch (err) {
    throw notAnImage(err);
  }
  const original = { path, size: (await stat(path)).size };
  const current = isOptimized(header.format) ? await optimize(path, header.format, original.size) : original;
  const { width = 0, height = 0 } = await open(current.path).metadata();
  const variants: ImageVariant[] = [];
  for (const [key, box] of variantBoxes(header.format, width, height)) variants.push(await resize(current.path, key, box));
  return { tempPath: current.path, sizeInBytes: current.size, width, height, variants, notice: null };
}

/**
 * An image too large to hold in memory: decoded line by line only. A JPEG is re-encoded that way
 * (optimize, line by line); a PNG or WebP is kept as received (their encoders need the whole image). The
 * image is decoded once into its largest format, the smaller ones are resized from that. A decoding
 * error on the way (a truncated file) is still a 400.
 */
async function processStreamed(sharp: SharpFactory, header: ImageHeader, path: string, dir: string, maxPixels: number): Promise<ProcessedImage> {
  const { optimize, resize } = steps(sharp, maxPixels, dir);
  const boxes = variantBoxes(header.format, header.width, header.height);
  const largest = boxes.reduce<(typeof boxes)[number] | undefined>((top, box) => (top === undefined || box[1].width > top[1].width ? box : top), undefined);
  const original = { path, size: (await stat(path)).size };
  let current = original;
  let source: ImageVariant | null = null;
  try {
    if (header.format === 'jpeg') current = await optimize(path, 'jpeg', original.size, true);
    if (largest) source = await resize(current.path, largest[0], largest[1], true);
  } catch (err) {
    throw notAnImage(err);
  }
  const variants: ImageVariant[] = [];
  for (const [key, box] of boxes) {
    // Smaller formats come from the largest one, at the size a resize of the original would give.
    if (source) variants.push(key === source.key ? source : await resize(source.tempPath, key, insideSize(header, box), false, 'fill'));
  }
  const { width, height } = header;
  return { tempPath: current.path, sizeInBytes: current.size, width, height, variants, notice: null };
}

/**
 * Processes an image already known (by its signature) to be one sharp reads, as far as its plan
 * allows (see image-plan.ts). A file sharp cannot decode is Strapi's 400 `File is not a valid image`.
 */
export async function processImage(path: string, dir: string, limits: ImageLimits): Promise<ProcessedImage> {
  const sharp = await loadSharp();
  const header = await readHeader(sharp, path);
  const plan = planImage(header, limits);
  switch (plan.kind) {
    case 'full':
      return processFully(sharp, header, path, dir, limits.maxPixels);
    case 'streamed':
      return { ...(await processStreamed(sharp, header, path, dir, limits.maxPixels)), notice: plan.notice };
    case 'stored':
      return { tempPath: path, sizeInBytes: (await stat(path)).size, width: header.width, height: header.height, variants: [], notice: plan.notice };
  }
}

/** Image processing with its limits, one image at a time per server (IMAGE_WORK_CONCURRENCY). */
export interface ImageProcessor {
  process(path: string, dir: string): Promise<ProcessedImage>;
}

/** The image processor of one running Hearth: `maxPixels` is UPLOAD_MAX_IMAGE_PIXELS. */
export function createImageProcessor(options: { maxPixels: number }): ImageProcessor {
  const queue = createWorkQueue(IMAGE_WORK_CONCURRENCY);
  const limits: ImageLimits = { maxPixels: options.maxPixels, wholeImageBytes: IMAGE_WHOLE_IMAGE_BYTES };
  return { process: (path, dir) => queue.run(() => processImage(path, dir, limits)) };
}
