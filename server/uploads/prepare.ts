import type { FileInfo } from './file-info.js';
import { baseNameOf, checkFileName, extensionOf, generateHash } from './file-names.js';
import { isProcessedImage, type ImageProcessor, type ImageVariant } from './image-formats.js';
import { sniffFile } from './sniff.js';

/** A file part as received: written to a temp file, never held in memory. */
export interface IncomingFile {
  /** The temp file (inside the request's temp dir). */
  readonly path: string;
  /** The client's file name: used for `name` and the slug of the hash only. */
  readonly filename: string;
  readonly size: number;
}

/** A received file, checked and processed, ready to be stored. */
export interface PreparedFile {
  readonly name: string;
  readonly info: FileInfo;
  readonly hash: string;
  readonly ext: string;
  readonly mime: string;
  readonly tempPath: string;
  readonly sizeInBytes: number;
  readonly width: number | null;
  readonly height: number | null;
  readonly variants: readonly ImageVariant[];
  /** What image processing left out for the image's size, for the upload's answer; null when nothing. */
  readonly notice: string | null;
}

/**
 * Checks and processes one received file, as Strapi's enhanceAndValidateFile and uploadImage do
 * before any storage write: file name check, type sniffing (denied types refused), stored name,
 * image optimisation and variants. `keep` carries the hash and extension of a file being replaced.
 */
export async function prepareFile(args: {
  file: IncomingFile;
  info: FileInfo;
  workDir: string;
  images: ImageProcessor;
  keep?: { hash: string; ext: string };
}): Promise<PreparedFile> {
  const { file, info, workDir, keep } = args;
  checkFileName(file.filename);
  const clientExt = extensionOf(file.filename);
  const sniffed = await sniffFile(file.path, file.size, clientExt);
  const name = (info.name || file.filename).normalize();
  const ext = keep?.ext ?? sniffed.ext;
  const hash = keep?.hash ?? generateHash(baseNameOf(name, clientExt === '' ? sniffed.ext : clientExt));
  if (!isProcessedImage(sniffed.mime)) {
    return { name, info, hash, ext, mime: sniffed.mime, tempPath: file.path, sizeInBytes: file.size, width: null, height: null, variants: [], notice: null };
  }
  const image = await args.images.process(file.path, workDir);
  return {
    name,
    info,
    hash,
    ext,
    mime: sniffed.mime,
    tempPath: image.tempPath,
    sizeInBytes: image.sizeInBytes,
    width: image.width,
    height: image.height,
    variants: image.variants,
    notice: image.notice,
  };
}
