/**
 * How much of Strapi's image processing an image may get, decided from its header alone (no pixel
 * decoded), so that one upload, however small on disk, cannot take the server's memory: a 730 kB
 * PNG of 16000x16000 pixels decodes to 768 MB.
 */

/** What sharp reads from an image's header (`metadata()`). */
export interface ImageHeader {
  readonly format: string;
  readonly width: number;
  readonly height: number;
  readonly channels: number;
  /** libvips band format: `uchar`, `ushort`, `float`, ... */
  readonly depth: string;
  /** Progressive JPEG or interlaced PNG: decoded as a whole, never line by line. */
  readonly isProgressive: boolean;
}

/** The limits an image is planned against. */
export interface ImageLimits {
  /** UPLOAD_MAX_IMAGE_PIXELS: above it nothing is decoded. */
  readonly maxPixels: number;
  /** Memory the steps that hold a whole decoded image may take. */
  readonly wholeImageBytes: number;
}

/**
 * - `full`: Strapi's processing (full decode as a validity check, re-encode at quality 80, formats).
 * - `streamed`: formats from resizes that decode line by line; a JPEG is re-encoded the same way,
 *   other originals are kept as received.
 * - `stored`: nothing decoded; stored as received, with the header's width and height, no formats.
 */
export type ImagePlan =
  | { readonly kind: 'full' }
  | { readonly kind: 'streamed'; readonly notice: string }
  | { readonly kind: 'stored'; readonly notice: string };

/**
 * Bytes per pixel the whole-image steps of a format take, measured with sharp 0.35 as the RSS
 * growth of a fresh `hearth serve` over one upload of noise (sharp's own loading included): a 20 MP
 * JPEG grew it by 178 MB, a 24 MP PNG by 195 MB (palette quantisation holds an RGBA copy), a 10 MP
 * WebP by 257 MB (libwebp holds ARGB and YUV pictures and its analysis). `decode` is the validity
 * check as a multiple of the decoded image, which counts for deep images (16-bit, alpha). TIFF,
 * GIF and AVIF are not measured: they take WebP's figures, the largest.
 */
const COST: Readonly<Record<string, { readonly decode: number; readonly encode: number }>> = {
  jpeg: { decode: 1.5, encode: 9 },
  png: { decode: 1.5, encode: 8 },
  webp: { decode: 3, encode: 24 },
};
const UNMEASURED = { decode: 3, encode: 24 } as const;

/** Formats libvips decodes line by line (unless progressive or interlaced), so a resize needs little memory. */
const STREAMED = new Set(['jpeg', 'png', 'webp']);

/** Bytes of one sample of a libvips band format; unknown formats count as the widest. */
function sampleBytes(depth: string): number {
  if (depth === 'uchar' || depth === 'char') return 1;
  if (depth === 'ushort' || depth === 'short') return 2;
  if (depth === 'uint' || depth === 'int' || depth === 'float') return 4;
  return 8;
}

/** Memory the whole-image steps of `full` would take for this image, in bytes. */
export function wholeImageCost(header: ImageHeader): number {
  const pixels = header.width * header.height;
  const cost = COST[header.format] ?? UNMEASURED;
  return Math.max(pixels * header.channels * sampleBytes(header.depth) * cost.decode, pixels * cost.encode);
}

/** The plan for one image; notices say what was left out and why, for the upload's answer. */
export function planImage(header: ImageHeader, limits: ImageLimits): ImagePlan {
  const pixels = header.width * header.height;
  const size = `${header.width}x${header.height}`;
  if (pixels > limits.maxPixels) {
    return { kind: 'stored', notice: `${size} is over UPLOAD_MAX_IMAGE_PIXELS (${limits.maxPixels}): stored as received, without formats` };
  }
  if (wholeImageCost(header) <= limits.wholeImageBytes) return { kind: 'full' };
  if (STREAMED.has(header.format) && !header.isProgressive) {
    const original = header.format === 'jpeg' ? 're-encoded line by line (standard Huffman tables)' : 'stored as received (not re-encoded)';
    return { kind: 'streamed', notice: `${size} is too large to hold in memory: ${original}, formats resized line by line` };
  }
  return { kind: 'stored', notice: `${size} ${header.format} can only be decoded whole and is too large to hold in memory: stored as received, without formats` };
}
