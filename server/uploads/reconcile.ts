import { mkdir, readdir, rename } from 'node:fs/promises';
import { FILES_TABLE } from '../db/system-tables.js';
import { dirname, join } from 'node:path';
import type { Database, Db } from '../db/database.js';
import { createLocalProvider } from './local-provider.js';
import { isSafeKey } from './storage-provider.js';
import { isRecord } from '../errors/is-record.js';

/** What the startup reconciliation of the local media folder needs. */
export interface ReconcileDeps {
  readonly database: Database;
  /** `<data>/uploads`. */
  readonly localDir: string;
  /** `<data>/tmp/uploads`, already cleared of the temp dirs of dead processes. */
  readonly tmpRoot: string;
  readonly log: (message: string) => void;
}


function parseFormats(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch {
    return null;
  }
}

/** Every local media key some file row points at (its url, its preview, each of its formats); backups copy exactly these. */
export async function referencedLocalKeys(db: Db, localDir: string): Promise<Set<string>> {
  const { keyOf } = createLocalProvider({ dir: localDir });
  const keys = new Set<string>();
  const add = (url: unknown) => {
    const key = typeof url === 'string' ? keyOf(url) : null;
    if (key !== null) keys.add(key);
  };
  for await (const row of db.selectFrom(FILES_TABLE).select(['url', 'previewUrl', 'formats']).stream()) {
    add(row.url);
    add(row.previewUrl);
    const formats = parseFormats(row.formats);
    if (isRecord(formats)) for (const format of Object.values(formats)) if (isRecord(format)) add(format.url);
  }
  return keys;
}

/** A name under `dir` that is not taken yet. */
async function freeName(dir: string, name: string): Promise<string> {
  const taken = new Set(await readdir(dir));
  if (!taken.has(name)) return name;
  for (let n = 1; ; n++) if (!taken.has(`${n}-${name}`)) return `${n}-${name}`;
}

/**
 * Moves files of the local media folder that no file row references to `<data>/tmp/orphans/`
 * (logged, never deleted). They are left by a process killed between storing an upload's objects
 * and committing its rows, or between deleting a row and its objects.
 *
 * Runs before the first request. Another live Hearth on the same data dir may be mid-upload: its
 * objects are stored while its request's temp dir exists, so the folder is listed first, then the
 * temp root is checked (any entry left belongs to a live process: skip), then the rows are read.
 * An object listed before that check either still had its temp dir at the check, or its rows were
 * committed before the rows are read.
 */
export async function reconcileLocalUploads(deps: ReconcileDeps): Promise<string[]> {
  const { localDir, tmpRoot, log } = deps;
  const entries = await readdir(localDir, { withFileTypes: true });
  // Only names Hearth could have stored; anything else in the folder is not ours to judge.
  const candidates = entries.filter((e) => e.isFile() && isSafeKey(e.name, false)).map((e) => e.name);
  if (candidates.length === 0) return [];
  if ((await readdir(tmpRoot)).length > 0) {
    log('uploads: another Hearth is uploading into this data dir; the check for orphaned media files was skipped');
    return [];
  }
  const referenced = await referencedLocalKeys(deps.database.db, localDir);
  const orphans = candidates.filter((name) => !referenced.has(name));
  if (orphans.length === 0) return [];
  const orphanDir = join(dirname(tmpRoot), 'orphans');
  await mkdir(orphanDir, { recursive: true });
  for (const name of orphans) {
    const target = join(orphanDir, await freeName(orphanDir, name));
    await rename(join(localDir, name), target);
    log(`uploads: ${name} belongs to no file (an upload or delete was interrupted); moved to ${target}`);
  }
  return orphans;
}
