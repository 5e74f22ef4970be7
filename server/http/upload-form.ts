import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Request, Response } from 'express';
import type { MulterError } from 'multer';
import { AppError, validationError } from '../errors/app-error.js';
import { MAX_UPLOAD_FIELD_BYTES, MAX_UPLOAD_FIELDS, MAX_UPLOAD_FILES } from '../limits.js';
import { assertJsonDepth } from './json-depth.js';
import type { IncomingFile } from '../uploads/prepare.js';
import { UPLOAD_TEMP_PREFIX } from '../uploads/uploads.js';
import { isRecord } from '../errors/is-record.js';

/** A parsed multipart upload: its text fields and its `files` parts, each already on disk. */
export interface UploadForm {
  readonly fields: Readonly<Record<string, unknown>>;
  readonly files: readonly IncomingFile[];
  /** The request's temp dir; the caller removes it when done, whatever happens. */
  readonly dir: string;
}


/** Strapi's answer to a file over the size limit (`ctx.payloadTooLarge('FileTooBig')`). */
const fileTooBig = () => new AppError('PayloadTooLargeError', 'FileTooBig', {});

const LIMIT_MESSAGES: Readonly<Record<string, string>> = {
  LIMIT_FILE_COUNT: `Too many files: at most ${MAX_UPLOAD_FILES} per request`,
  LIMIT_FIELD_COUNT: `Too many form fields: at most ${MAX_UPLOAD_FIELDS} per request`,
  LIMIT_PART_COUNT: `Too many form parts: at most ${MAX_UPLOAD_FILES + MAX_UPLOAD_FIELDS} per request`,
  LIMIT_FIELD_VALUE: `A form field is too large: at most ${MAX_UPLOAD_FIELD_BYTES} bytes`,
  LIMIT_FIELD_KEY: 'A form field name is too long',
};

/** Multer's and busboy's failures as Strapi-style errors; file-system failures stay 500s. */
function toAppError(err: unknown, multerError: typeof MulterError): unknown {
  if (err instanceof multerError) {
    if (err.code === 'LIMIT_FILE_SIZE') return fileTooBig();
    const limit = LIMIT_MESSAGES[err.code];
    if (limit) return new AppError('PayloadTooLargeError', limit, {});
    return validationError(`Invalid multipart body: ${err.message}`);
  }
  if (err instanceof Error && typeof (err as NodeJS.ErrnoException).code === 'string') return err;
  if (err instanceof Error) return validationError(`Invalid multipart body: ${err.message}`);
  return err;
}

/** The header an upload's answer says what image processing left out with, one per notice; the Strapi-shaped body stays Strapi's. */
export const NOTICE_HEADER = 'Hearth-Notice';

/** Adds one NOTICE_HEADER per notice to an upload's answer. */
export function appendNotices(res: Response, notices: readonly string[]): void {
  for (const notice of notices) res.append(NOTICE_HEADER, notice);
}

const looksLikeJson = (text: string) => /^\s*[[{]/.test(text);

/**
 * Form fields that carry JSON text (`fileInfo`, one or one per file) are checked for nesting
 * before anything parses them. The structure around them comes from field names (`fileInfo[0]`),
 * which busboy bounds in length.
 */
function checkJsonFields(value: unknown, name: string): void {
  if (typeof value === 'string') {
    if (looksLikeJson(value)) assertJsonDepth(value, name);
  } else if (typeof value === 'object' && value !== null) {
    for (const [key, inner] of Object.entries(value)) checkJsonFields(inner, Array.isArray(value) ? `${name}[${key}]` : `${name}.${key}`);
  }
}

/**
 * Reads a multipart upload, streaming every `files` part to its own temp file in a fresh
 * directory under `tmpRoot` (in the data dir, so stored files are then renamed, not copied).
 * Nothing is buffered: memory stays flat whatever the size. A part over `sizeLimit` is a 413
 * `FileTooBig`, answered once the rest of the body has been drained; on any failure the temp dir
 * is gone before this rejects. File parts under other names are skipped, as Strapi ignores them.
 */
export async function readUploadForm(req: Request, res: Response, options: { tmpRoot: string; sizeLimit: number }): Promise<UploadForm> {
  // Loaded with the first upload: a server that never receives one never pays for multer and busboy.
  const { default: multer } = await import('multer');
  const dir = await mkdtemp(join(options.tmpRoot, `${UPLOAD_TEMP_PREFIX}${process.pid}-`));
  const parse = multer({
    storage: multer.diskStorage({
      destination: dir,
      filename: (_req, _file, cb) => cb(null, `part-${randomBytes(8).toString('hex')}`),
    }),
    limits: {
      fileSize: options.sizeLimit,
      files: MAX_UPLOAD_FILES,
      fields: MAX_UPLOAD_FIELDS,
      fieldSize: MAX_UPLOAD_FIELD_BYTES,
      parts: MAX_UPLOAD_FILES + MAX_UPLOAD_FIELDS,
    },
    defParamCharset: 'utf8',
    fileFilter: (_req, file, cb) => cb(null, file.fieldname === 'files'),
  }).any();
  try {
    await new Promise<void>((resolve, reject) => {
      parse(req, res, (err?: unknown) => (err === undefined || err === null ? resolve() : reject(err)));
    });
  } catch (err) {
    await rm(dir, { recursive: true, force: true });
    throw toAppError(err, multer.MulterError);
  }
  const body: unknown = req.body;
  try {
    if (isRecord(body)) for (const [name, value] of Object.entries(body)) checkJsonFields(value, name);
  } catch (err) {
    await rm(dir, { recursive: true, force: true });
    throw err;
  }
  const received: unknown = req.files;
  const files = Array.isArray(received) ? (received as Express.Multer.File[]) : [];
  return {
    fields: isRecord(body) ? body : {},
    files: files.map((f) => ({ path: f.path, filename: f.originalname, size: f.size })),
    dir,
  };
}
