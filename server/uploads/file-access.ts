import type { StorageProvider } from './storage-provider.js';
import { isRecord } from '../errors/is-record.js';


/** How file objects leave Hearth: URLs made absolute with HEARTH_PUBLIC_URL, or presigned for private storage. */
export interface FileUrls {
  /** Completes file objects in place (the document service's FileAccess hook). */
  present(files: Record<string, unknown>[]): Promise<void>;
  /** The URL a client gets for a stored URL. */
  presentUrl(url: string): Promise<string>;
  /** Whether `present` leaves every file as stored (no HEARTH_PUBLIC_URL, no signed URLs). */
  readonly asStored: boolean;
}

/**
 * Finishes file objects for responses, on upload endpoints and in media populated into entries
 * alike: with `S3_ACL=private` every URL of this provider (the file's and each format's) becomes a
 * fresh presigned URL; relative `/uploads/...` URLs get the HEARTH_PUBLIC_URL prefix. Only the
 * keys present are touched, so `fields` selections stay as they were asked for.
 */
export function createFileUrls(deps: { provider: StorageProvider; publicUrl: string | null }): FileUrls {
  const { provider, publicUrl } = deps;

  async function presentUrl(url: string): Promise<string> {
    if (provider.signsUrls) {
      const key = provider.keyOf(url);
      if (key !== null) return provider.readUrl(key);
    }
    return publicUrl !== null && url.startsWith('/') ? `${publicUrl}${url}` : url;
  }

  async function present(files: Record<string, unknown>[]): Promise<void> {
    for (const file of files) {
      if (typeof file.url === 'string') file.url = await presentUrl(file.url);
      if (!isRecord(file.formats)) continue;
      for (const format of Object.values(file.formats)) {
        if (isRecord(format) && typeof format.url === 'string') format.url = await presentUrl(format.url);
      }
    }
  }

  return { present, presentUrl, asStored: !provider.signsUrls && publicUrl === null };
}
