import { AppError, validationError } from '../errors/app-error.js';
import { installYupLocale, yup } from '../documents/index.js';
import { MAX_UPLOAD_PATH_LENGTH } from '../limits.js';
import { yupDetails } from '../errors/yup-details.js';

/** What a client may say about a file (`fileInfo`), as Strapi's content-API upload validator accepts it. */
export interface FileInfo {
  readonly name?: string | null;
  readonly alternativeText?: string | null;
  readonly caption?: string | null;
  readonly focalPoint?: { readonly x: number; readonly y: number } | null;
}

/** `ref`/`refId`/`field`: the entry field uploaded files are linked to. */
export interface LinkRequest {
  readonly ref: string;
  readonly refId: string;
  readonly field: string;
}

const fileInfoSchema = yup
  .object({
    name: yup.string().nullable(),
    alternativeText: yup.string().nullable(),
    caption: yup.string().nullable(),
    focalPoint: yup
      .object({ x: yup.number().required(), y: yup.number().required() })
      .nullable()
      .default(undefined),
  })
  .noUnknown();

/** The `details` Strapi gives a failed yup validation (`formatYupErrors`). */
function yupFailure(error: yup.ValidationError): AppError {
  const { message, details } = yupDetails(error, 'Invalid fileInfo');
  return validationError(message, details);
}

/**
 * A multipart `fileInfo` is a JSON string. Strapi answers malformed JSON with a 500; Hearth answers
 * a 400 that names the part.
 */
function parsePart(value: unknown, path: string[]): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch {
    const message = `${path.length > 1 ? `${path[0]}[${path[1]}]` : path[0]} must be a JSON object, but the value is not valid JSON`;
    throw validationError(message, { errors: [{ path, message, name: 'ValidationError', value }] });
  }
}

/**
 * Validates `fileInfo` (one value, or one per file in order) and returns one entry per value given.
 * With several, they are validated as Strapi's multi-upload schema (`fileInfo[i]` paths).
 */
export async function readFileInfos(raw: unknown, fileCount: number): Promise<FileInfo[]> {
  installYupLocale();
  if (raw === undefined || raw === null || raw === '') return [];
  const list = Array.isArray(raw) ? raw : [raw];
  const multi = list.length > 1 || fileCount > 1;
  let parsed = list.map((v, i) => parsePart(v, multi ? ['fileInfo', String(i)] : ['fileInfo']));
  // Several files and one part holding a JSON array: its items are the files' infos, in file order
  // (Strapi's multi-upload schema is an array, and yup casts a JSON string to one).
  const [only] = parsed;
  if (multi && parsed.length === 1 && Array.isArray(only)) parsed = only as unknown[];
  const schema = multi ? yup.object({ fileInfo: yup.array().of(fileInfoSchema) }) : yup.object({ fileInfo: fileInfoSchema });
  try {
    const body = await schema.validate({ fileInfo: multi ? parsed : parsed[0] }, { strict: false, abortEarly: false });
    const value: unknown = body.fileInfo;
    return (Array.isArray(value) ? value : [value]) as FileInfo[];
  } catch (err) {
    if (err instanceof yup.ValidationError) throw yupFailure(err);
    throw err;
  }
}

/** One text field of the form, which must not be repeated. */
export function singleField(fields: Readonly<Record<string, unknown>>, name: string): string | null {
  const value = fields[name];
  if (value === undefined || value === null || value === '') return null;
  if (typeof value !== 'string') throw validationError(`${name} must be a single value`, { source: 'body', param: name });
  return value;
}

/** `ref`, `refId` and `field`: linking happens only when all three are given, as in Strapi. */
export function readLink(fields: Readonly<Record<string, unknown>>): LinkRequest | null {
  const ref = singleField(fields, 'ref');
  const refId = singleField(fields, 'refId');
  const field = singleField(fields, 'field');
  return ref && refId && field ? { ref, refId, field } : null;
}

const PATH_SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9_.-]*$/;

/** The `path` folder prefix (checked only where object storage uses it): slash-separated plain segments. */
export function checkPath(raw: string | null): string | null {
  if (raw === null) return null;
  const path = raw.replace(/^\/+|\/+$/g, '');
  if (path === '') return null;
  const ok = path.length <= MAX_UPLOAD_PATH_LENGTH && path.split('/').every((s) => PATH_SEGMENT.test(s) && s !== '..');
  if (!ok) {
    throw validationError(`Invalid path: use letters, digits, "_", "-" and "." in "/"-separated folders (at most ${MAX_UPLOAD_PATH_LENGTH} characters)`, {
      source: 'body',
      param: 'path',
    });
  }
  return path;
}
