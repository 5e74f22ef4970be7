import { randomBytes } from 'node:crypto';
import { rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Sharp } from 'sharp';
import { AppError } from '../errors/app-error.js';
import { MAX_IMAGE_PIXELS } from '../limits.js';

/**
 * Image handling as Strapi's upload plugin does it (`services/image-manipulation.ts`, with its
 * defaults sizeOptimization on, responsiveDimensions on, autoOrientation off): the original is
 * re-encoded at quality 80 unless that makes it bigger, then a thumbnail and the breakpoints that
 * are smaller than the image are resized from it. Everything is written to the request's temp dir.
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
}

type SharpFactory = typeof import('sharp').default;
let loading: Promise<SharpFactory> | null = null;

/**
 * sharp (libvips: tens of MB of native code) is loaded with the first image, not at start, so cold
 * start and idle memory stay small. Its process-wide cache is turned off: it would keep decoded
 * images in memory and descriptors of deleted temp files open (holding their disk space); Hearth
 * reads each image a few times in a row and never again.
 */
function loadSharp(): Promise<SharpFactory> {
  loading ??= import('sharp').then(({ default: sharp }) => {
    sharp.cache(false);
    return sharp;
  });
  return loading;
}

/** Whether a sniffed MIME type is an image sharp processes. */
export const isProcessedImage = (mime: string): boolean => PROCESSED.has(mime);

const open = async (path: string): Promise<Sharp> => (await loadSharp())(path, { limitInputPixels: MAX_IMAGE_PIXELS, failOn: 'error' });
const tempName = (dir: string, label: string) => join(dir, `${label}-${randomBytes(8).toString('hex')}`);

type OptimizedFormat = 'jpeg' | 'png' | 'webp' | 'tiff' | 'avif';
const isOptimized = (format: string): format is OptimizedFormat => OPTIMIZED.has(format);

/** Re-encodes at quality 80; the output is kept only when it is not larger than the input. */
async function optimize(path: string, format: OptimizedFormat, size: number, dir: string): Promise<{ path: string; size: number }> {
  const out = tempName(dir, 'optimized');
  const info = await (await open(path))[format]({ quality: OPTIMIZE_QUALITY }).toFile(out);
  if (info.size > size) {
    await rm(out, { force: true });
    return { path, size };
  }
  return { path: out, size: info.size };
}

async function resize(path: string, key: string, box: { width: number; height: number }, dir: string): Promise<ImageVariant> {
  const out = tempName(dir, key);
  const info = await (await open(path)).resize({ ...box, fit: 'inside' }).toFile(out);
  return { key, tempPath: out, width: info.width, height: info.height, sizeInBytes: info.size };
}

/**
 * Processes an image already known (by its signature) to be one sharp reads. A file sharp cannot
 * decode is Strapi's 400 `File is not a valid image`.
 */
export async function processImage(path: string, dir: string): Promise<ProcessedImage> {
  let format: string | undefined;
  try {
    format = (await (await open(path)).metadata()).format;
    await (await open(path)).stats();
  } catch (err) {
    throw new AppError('ApplicationError', 'File is not a valid image', {}, { cause: err });
  }
  if (format === undefined) throw new AppError('ApplicationError', 'File is not a valid image', {});
  const original = { path, size: (await stat(path)).size };
  const current = isOptimized(format) ? await optimize(path, format, original.size, dir) : original;
  const { width = 0, height = 0 } = await (await open(current.path)).metadata();
  const variants: ImageVariant[] = [];
  if (RESIZED.has(format)) {
    if (width > THUMBNAIL_BOX.width || height > THUMBNAIL_BOX.height) variants.push(await resize(current.path, 'thumbnail', THUMBNAIL_BOX, dir));
    for (const [key, breakpoint] of BREAKPOINTS) {
      if (breakpoint < width || breakpoint < height) variants.push(await resize(current.path, key, { width: breakpoint, height: breakpoint }, dir));
    }
  }
  return { tempPath: current.path, sizeInBytes: current.size, width, height, variants };
}
