import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { isSafeKey, type PutObject, type StorageProvider } from './storage-provider.js';

/** URL prefix the local files are served under (by server/http/static-uploads.ts). */
export const LOCAL_URL_PREFIX = '/uploads/';

/**
 * The default provider: files in `<data>/uploads`, served at `/uploads/<name>`. The temp file is
 * renamed into place (temp files live in the same data dir, so this is atomic and copies nothing).
 */
export function createLocalProvider(deps: { dir: string }): StorageProvider {
  const { dir } = deps;
  const pathOf = (key: string): string => {
    if (!isSafeKey(key, false)) throw new Error(`unsafe local storage key: ${JSON.stringify(key)}`);
    return join(dir, key);
  };

  async function moveInto(source: string, target: string): Promise<void> {
    try {
      await rename(source, target);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
      // A data dir spread over two file systems: copy, then drop the temp file.
      await pipeline(createReadStream(source), createWriteStream(target));
      await rm(source, { force: true });
    }
  }

  return {
    name: 'local',
    supportsPaths: false,
    signsUrls: false,
    async put(object: PutObject): Promise<string> {
      const target = pathOf(object.key);
      await mkdir(dir, { recursive: true });
      await moveInto(object.source, target);
      return `${LOCAL_URL_PREFIX}${object.key}`;
    },
    async remove(key: string): Promise<void> {
      await rm(pathOf(key), { force: true });
    },
    keyOf(url: string): string | null {
      const path = url.split('?')[0] ?? '';
      if (!path.startsWith(LOCAL_URL_PREFIX)) return null;
      let key: string;
      try {
        key = decodeURIComponent(path.slice(LOCAL_URL_PREFIX.length));
      } catch {
        return null;
      }
      return isSafeKey(key, false) ? key : null;
    },
    async readUrl(key: string): Promise<string> {
      pathOf(key);
      return `${LOCAL_URL_PREFIX}${key}`;
    },
    close() {},
  };
}
