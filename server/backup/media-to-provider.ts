import { stat } from 'node:fs/promises';
import { FILES_TABLE } from '../db/system-tables.js';
import { join } from 'node:path';
import type { Db } from '../db/database.js';
import { createLocalProvider } from '../uploads/local-provider.js';
import type { StorageProvider } from '../uploads/storage-provider.js';
import { isRecord } from '../errors/is-record.js';

/** What moving an archive's local media into another storage provider needs. */
export interface MediaMove {
  /** The restore's transaction: the file rows are rewritten in it. */
  readonly db: Db;
  /** The provider the restored Hearth stores media with (S3). */
  readonly provider: StorageProvider;
  /** The unpacked archive's `media/` folder. */
  readonly mediaDir: string;
  /** Keys the export found missing on disk: their rows keep their local URLs. */
  readonly missing: ReadonlySet<string>;
}


function parseFormats(value: unknown): Record<string, unknown> | null {
  if (typeof value !== 'string') return null;
  try {
    const parsed: unknown = JSON.parse(value);
    return isRecord(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

/**
 * Puts every local media file the restored rows reference into `provider`, and points the rows
 * at it (url, previewUrl, each format's url, provider name) as if they had been uploaded there:
 * how a Hearth moving up from a workstation gets its media into S3. Objects are stored before
 * the transaction commits; `stored` lists their keys so a failed import can remove them.
 */
export async function moveMediaToProvider(move: MediaMove, stored: string[]): Promise<number> {
  const local = createLocalProvider({ dir: move.mediaDir });
  const urls = new Map<string, string>();
  const put = async (url: unknown, mime: string): Promise<string | null> => {
    const key = typeof url === 'string' ? local.keyOf(url) : null;
    if (key === null || move.missing.has(key)) return null;
    const known = urls.get(key);
    if (known !== undefined) return known;
    const source = join(move.mediaDir, key);
    const moved = await move.provider.put({ key, source, mime, size: (await stat(source)).size });
    stored.push(key);
    urls.set(key, moved);
    return moved;
  };
  const rows = await move.db.selectFrom(FILES_TABLE).select(['id', 'url', 'previewUrl', 'formats', 'mime']).where('provider', '=', local.name).orderBy('id').execute();
  let files = 0;
  for (const row of rows) {
    const mime = row.mime;
    const url = await put(row.url, mime);
    if (url === null) continue;
    const previewUrl = (await put(row.previewUrl, mime)) ?? row.previewUrl;
    const formats = parseFormats(row.formats);
    for (const format of Object.values(formats ?? {})) {
      if (!isRecord(format)) continue;
      const moved = await put(format.url, typeof format.mime === 'string' ? format.mime : mime);
      if (moved !== null) format.url = moved;
    }
    await move.db
      .updateTable(FILES_TABLE)
      .set({ url, previewUrl, provider: move.provider.name, ...(formats === null ? {} : { formats: JSON.stringify(formats) }) })
      .where('id', '=', row.id)
      .execute();
    files++;
  }
  return files;
}
