import { constants } from 'node:fs';
import { copyFile, link, mkdir, readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { loadProjectFiles } from './schema-files.js';

/**
 * The export's staging folder, `<data>/tmp/export-<pid>-<random>/`: what goes into the archive is
 * gathered there first (media as hard links, so nothing is copied and a file deleted meanwhile by
 * a running server keeps its bytes), then packed in one go.
 */

/** The prefix of staging folders, with the exporting process's pid so a dead one's can be told apart. */
export const EXPORT_STAGE_PREFIX = 'export-';

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Removes staging folders of exports whose process died (a live concurrent export keeps its own). */
export async function removeStaleStages(tmpDir: string): Promise<void> {
  let names: string[];
  try {
    names = await readdir(tmpDir);
  } catch {
    return;
  }
  for (const name of names) {
    const pid = Number(new RegExp(`^${EXPORT_STAGE_PREFIX}(\\d+)-`).exec(name)?.[1]);
    if (Number.isInteger(pid) && pid !== process.pid && !isAlive(pid)) await rm(join(tmpDir, name), { recursive: true, force: true });
  }
}

/** Media staged for the archive. */
export interface StagedMedia {
  readonly files: number;
  readonly bytes: number;
  /** Keys a row referenced that were not on disk. */
  readonly missing: readonly string[];
}

const LINK_UNSUPPORTED = new Set(['EXDEV', 'EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'EMLINK']);

/** Hard-links (or, across file systems, copies) each media file into `target`. */
export async function stageMedia(keys: Iterable<string>, localDir: string, target: string): Promise<StagedMedia> {
  await rm(target, { recursive: true, force: true });
  await mkdir(target, { recursive: true });
  let files = 0;
  let bytes = 0;
  const missing: string[] = [];
  for (const key of [...keys].sort()) {
    const from = join(localDir, key);
    const to = join(target, key);
    try {
      await link(from, to);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? '';
      if (code === 'ENOENT') {
        missing.push(key);
        continue;
      }
      if (!LINK_UNSUPPORTED.has(code)) throw err;
      await copyFile(from, to, constants.COPYFILE_FICLONE);
    }
    files++;
    bytes += (await stat(to)).size;
  }
  return { files, bytes, missing };
}

/** Copies a Strapi project's schema files (only those: never its node_modules) into `target`; resolves to how many. */
export async function stageSchema(root: string, target: string): Promise<number> {
  const files = await loadProjectFiles(root);
  for (const file of files) {
    await mkdir(join(target, file, '..'), { recursive: true });
    await copyFile(join(root, file), join(target, file));
  }
  return files.length;
}
