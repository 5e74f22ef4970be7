import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import BetterSqlite3 from 'better-sqlite3';
import { Header, list } from 'tar';
import { main } from '../../server/cli.js';
import { runHearth, withEnv, type RunResult } from '../helpers/cli.js';
import { filesUnder } from '../uploads/helpers.js';

/** `hearth export --file F --data DIR` (the compiled CLI). */
export const exportTo = (dataDir: string, file: string): Promise<RunResult> => runHearth(['export', '--file', file, '--data', dataDir]);

/** `hearth import --file F --data DIR [--force]` (the compiled CLI). */
export const importFrom = (file: string, dataDir: string, force = false): Promise<RunResult> =>
  runHearth(['import', '--file', file, '--data', dataDir, ...(force ? ['--force'] : [])]);

/**
 * Runs `hearth <args>` in this process (the same `main` the binary runs), for the many short runs of
 * a table of cases; `env` is set in process.env while it runs.
 */
export function runInProcess(args: string[], env: NodeJS.ProcessEnv = {}): Promise<RunResult> {
  return withEnv(env, async () => {
    let stdout = '';
    let stderr = '';
    const code = await main(args, { out: (t) => (stdout += t), err: (t) => (stderr += t) });
    return { code, stdout, stderr };
  });
}

/** Every file under a folder with the sha-256 of its bytes: equal before and after means untouched. */
export async function treeOf(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const file of await filesUnder(dir)) out[file] = createHash('sha256').update(await readFile(join(dir, file))).digest('hex');
  return out;
}

/** One entry of a hand-made tar archive. */
export interface TarEntry {
  readonly path: string;
  readonly type?: 'File' | 'Directory' | 'SymbolicLink' | 'Link';
  readonly body?: Buffer;
  readonly linkpath?: string;
}

/** Every entry of an archive, with its bytes, in order. */
export async function entriesOf(file: string): Promise<TarEntry[]> {
  const entries: { path: string; type: TarEntry['type']; chunks: Buffer[] }[] = [];
  await list({
    file,
    onReadEntry(entry) {
      const item = { path: entry.path, type: entry.type === 'Directory' ? ('Directory' as const) : ('File' as const), chunks: [] as Buffer[] };
      entries.push(item);
      entry.on('data', (c: Buffer) => item.chunks.push(c));
    },
  });
  return entries.map((e) => ({ path: e.path, type: e.type, body: Buffer.concat(e.chunks) }));
}

/** Writes a `.tar.gz` of exactly these entries, whatever their paths or types (for tampered archives). */
export async function writeTarGz(file: string, entries: readonly TarEntry[]): Promise<void> {
  const blocks: Buffer[] = [];
  for (const entry of entries) {
    const body = entry.body ?? Buffer.alloc(0);
    const type = entry.type ?? 'File';
    const header = new Header({ path: entry.path, mode: type === 'Directory' ? 0o755 : 0o644, size: type === 'File' ? body.length : 0, type, linkpath: entry.linkpath ?? '', mtime: new Date(0), uid: 0, gid: 0 });
    const block = Buffer.alloc(512);
    header.encode(block, 0);
    blocks.push(block);
    if (type === 'File') blocks.push(body, Buffer.alloc((512 - (body.length % 512)) % 512));
  }
  blocks.push(Buffer.alloc(1024));
  await writeFile(file, gzipSync(Buffer.concat(blocks)));
}

/** `PRAGMA integrity_check` and `PRAGMA foreign_key_check` of a data dir's database, opened read-only. */
export function checkDatabase(dataDir: string): { integrity: unknown; foreignKeys: unknown[] } {
  const db = new BetterSqlite3(join(dataDir, 'hearth.db'), { readonly: true, fileMustExist: true });
  try {
    return { integrity: db.pragma('integrity_check', { simple: true }), foreignKeys: db.pragma('foreign_key_check') as unknown[] };
  } finally {
    db.close();
  }
}
