import { lookup } from 'mime-types';

/**
 * Where media bytes live. Every implementation passes the one contract suite in
 * test/uploads/provider-contract.ts; the upload service knows nothing else about storage.
 */

/** A file on local disk to store under a key. */
export interface PutObject {
  /** `[<path>/]<hash><ext>`: only letters, digits, `_`, `-`, `.` and `/` between segments. */
  readonly key: string;
  /** A temp file; it may be moved away (local disk) or left for the caller to delete. */
  readonly source: string;
  readonly mime: string;
  readonly size: number;
}

/** The storage of media objects, addressed by key. */
export interface StorageProvider {
  /** The value of the file's `provider` column (`local`, `aws-s3`), as Strapi names its providers. */
  readonly name: string;
  /** Whether keys may carry a folder prefix (the `path` form field). */
  readonly supportsPaths: boolean;
  /** Whether reads need a presigned URL (`S3_ACL=private`). */
  readonly signsUrls: boolean;
  /** Stores (or overwrites) an object; resolves to its unsigned URL, the one kept in the database. */
  put(object: PutObject): Promise<string>;
  /** Deletes an object; deleting one that does not exist is not an error. */
  remove(key: string): Promise<void>;
  /** The key behind one of this provider's URLs, or null when the URL is not one of its own. */
  keyOf(url: string): string | null;
  /** A URL a client can read the object at: the stored one, or a fresh presigned one. */
  readUrl(key: string): Promise<string>;
  /** Releases connections. */
  close(): void;
}

const SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9_.-]*$/;

/** Whether a key is made of safe segments (no `..`, no empty or hidden segment). */
export function isSafeKey(key: string, allowPrefix: boolean): boolean {
  const segments = key.split('/');
  if (!allowPrefix && segments.length !== 1) return false;
  return segments.every((s) => SEGMENT.test(s) && s !== '..');
}

/** Which inline types browsers may render from the media origin; everything else is served as an attachment. */
export function isInlineSafe(mime: string): boolean {
  const type = mime.split(';')[0]?.trim().toLowerCase() ?? '';
  if (type === 'image/svg+xml') return false;
  return /^(image|video|audio)\//.test(type) || ['text/plain', 'text/csv', 'application/pdf', 'application/json'].includes(type);
}

/**
 * The type `/uploads/<name>` is served with, from the extension alone (the table express's static
 * files use): the sniffer keeps a client's extension only when it implies the type it detected.
 */
export function servedTypeOf(ext: string): string {
  const type = ext === '' ? false : lookup(ext);
  return type === false ? 'application/octet-stream' : type;
}
