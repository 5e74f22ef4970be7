import { createCipheriv, createDecipheriv, scryptSync, type Cipher, type Decipher } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import { Parser, type ReadEntry } from 'tar';
import { BACKUP_MAX_SMALL_FILE_BYTES } from '../limits.js';
import { isSafeKey } from '../uploads/storage-provider.js';
import { strapiArchiveError } from './jsonl.js';

/**
 * Strapi's archives as `strapi export` writes them: a tar (`.tar`), gzipped (`.tar.gz`), gzipped
 * then encrypted (`.tar.gz.enc`, aes-128-ecb), or the same tree unpacked (`--format dir`).
 */

/** The salt Strapi's data-transfer derives the key with (packages/core/data-transfer/src/utils/encryption/). */
const STRAPI_KDF_SALT = 'strapi-data-transfer';
/** Earlier Strapi 5 releases derived the key with an empty salt: tried when the salted key does not fit. */
const LEGACY_KDF_SALT = '';
const ALGORITHM = 'aes-128-ecb';

/** The aes-128-ecb key `strapi export -k KEY` encrypts with: scrypt(KEY, salt, 16). */
const strapiKey = (key: string, salt: string = STRAPI_KDF_SALT): Buffer => scryptSync(key, salt, 16);

/** The cipher `strapi export -k KEY` encrypts the gzip with (salted key, ECB: no IV). */
export const strapiCipher = (key: string): Cipher => createCipheriv(ALGORITHM, strapiKey(key), null);

/** A decipher for one derived key (ECB: no IV). */
const decipherOf = (derived: Buffer): Decipher => createDecipheriv(ALGORITHM, derived, null);

/** Whether decrypted leading bytes start a gzip stream or a tar (ustar magic at 257). */
function looksLikeArchive(head: Buffer): boolean {
  if (head[0] === 0x1f && head[1] === 0x8b && head[2] === 0x08) return true;
  return head.subarray(257, 262).toString('latin1') === 'ustar';
}

/** The derived key that turns the archive's first blocks into a gzip or tar stream; a wrong key fits neither. */
async function keyFor(file: string, key: string, label: string): Promise<Buffer> {
  const handle = await open(file, 'r');
  let head: Buffer;
  try {
    const buffer = Buffer.alloc(272);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    head = buffer.subarray(0, bytesRead - (bytesRead % 16));
  } finally {
    await handle.close();
  }
  for (const salt of [STRAPI_KDF_SALT, LEGACY_KDF_SALT]) {
    const derived = strapiKey(key, salt);
    const decipher = decipherOf(derived).setAutoPadding(false);
    if (looksLikeArchive(Buffer.concat([decipher.update(head), decipher.final()]))) return derived;
  }
  throw strapiArchiveError(`${basename(label)}: wrong key (the archive does not decrypt to a gzip or tar stream)`);
}

/** What a member path of a Strapi archive may be; anything else is refused by name. */
const MEMBER = /^(?:(schemas|entities|links|configuration)\/\1_\d{5}\.jsonl|metadata\.json|assets\/(?:uploads|metadata)\/[^/]+)$/;

function checkMember(path: string, file: string): void {
  const [top, kind, name] = path.split('/');
  const safe = MEMBER.test(path) && (top !== 'assets' || (name !== undefined && isSafeKey(kind === 'metadata' ? name.replace(/\.json$/, '') : name, false)));
  if (!safe) throw strapiArchiveError(`${basename(file)}: unexpected member ${JSON.stringify(path)}`);
}

/** One unpacking: the members being written and the first failure. */
interface Run {
  readonly dir: string;
  readonly file: string;
  readonly jobs: Promise<void>[];
  readonly open: Set<ReadEntry>;
  readonly seen: Set<string>;
  failure: unknown;
}

function onEntry(run: Run, entry: ReadEntry, fail: (err: unknown) => void): void {
  if (run.failure !== null || entry.type === 'Directory') {
    entry.resume();
    return;
  }
  try {
    if (entry.type !== 'File' && entry.type !== 'OldFile') throw strapiArchiveError(`${basename(run.file)}: member ${JSON.stringify(entry.path)} is a ${entry.type}, not a file`);
    const path = entry.path.replace(/^\.\//, '');
    checkMember(path, run.file);
    if (run.seen.has(path)) throw strapiArchiveError(`${basename(run.file)}: member ${path} appears twice`);
    run.seen.add(path);
    if (path === 'metadata.json' && entry.size > BACKUP_MAX_SMALL_FILE_BYTES) throw strapiArchiveError(`${basename(run.file)}: metadata.json is too large`);
    const target = join(run.dir, path);
    // An entry whose bytes all came has ended; one still open when the parser stops was cut short.
    run.open.add(entry);
    entry.on('end', () => run.open.delete(entry));
    entry.on('error', () => {});
    const job = mkdir(dirname(target), { recursive: true }).then(() => pipeline(entry, createWriteStream(target, { flags: 'wx', mode: 0o644 })));
    run.jobs.push(job.catch(fail));
  } catch (err) {
    entry.resume();
    fail(err);
  }
}

/** Unpacks a (possibly gzipped) tar stream into `dir`, checking each member; a cut-short archive is an error. */
async function untar(source: Readable, file: string, dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  const run: Run = { dir, file, jobs: [], open: new Set(), seen: new Set(), failure: null };
  let stop: (err: unknown) => void = () => {};
  const fail = (err: unknown): void => {
    run.failure ??= err;
    source.unpipe();
    source.destroy();
    for (const entry of run.open) entry.destroy(strapiArchiveError(`${basename(file)}: the archive ends inside ${entry.path}`));
    stop(err);
  };
  const parser = new Parser({ noResume: true, onReadEntry: (entry: ReadEntry) => onEntry(run, entry, fail) });
  const parsed = new Promise<void>((resolve, reject) => {
    stop = reject;
    parser.on('end', () => resolve());
    parser.on('abort', reject);
    parser.on('error', reject);
    parser.on('warn', (code: string, message: unknown) => reject(strapiArchiveError(`${basename(file)}: ${code}: ${message instanceof Error ? message.message : String(message)}`)));
    source.on('error', reject);
  });
  source.pipe(parser);
  // A cut-short tar makes the parser warn (TAR_BAD_ARCHIVE) and a cut-short gzip fails: either
  // fails the run, which ends the open entries so their writes settle.
  await parsed.catch(fail);
  await Promise.all(run.jobs);
  if (run.failure !== null) {
    const err = run.failure;
    throw err instanceof Error && err.message.startsWith('invalid Strapi archive') ? err : strapiArchiveError(`${basename(file)}: ${err instanceof Error ? err.message : String(err)}`);
  }
  // Strapi writes metadata.json last: an archive without it was cut short.
  if (!run.seen.has('metadata.json')) throw strapiArchiveError(`${basename(file)}: metadata.json is missing (the archive is incomplete)`);
}

/** Where the archive's tree is: a folder to read (a `--format dir` export is read in place; `owned` is false then). */
export interface ArchiveTree {
  readonly dir: string;
  readonly owned: boolean;
}

/**
 * Opens a Strapi export: a folder is used as it is; a `.tar`, `.tar.gz` or (with `key`) encrypted
 * `.tar.gz.enc` is decrypted and unpacked into `workDir`. Encryption is told by the `.enc` name, as
 * `strapi import` tells it. Messages name the archive by `name` (an upload's own file name) or the file's.
 */
export async function openStrapiArchive(options: { file: string; key: string | null; workDir: string; name?: string }): Promise<ArchiveTree> {
  const { file, key, workDir } = options;
  const label = options.name ?? file;
  const info = await stat(file).catch(() => null);
  if (info === null) throw strapiArchiveError(`cannot read ${file}`);
  if (info.isDirectory()) {
    const meta = await stat(join(file, 'metadata.json')).catch(() => null);
    if (meta === null) throw strapiArchiveError(`${basename(file)}: metadata.json is missing (not a Strapi export folder)`);
    return { dir: file, owned: false };
  }
  const encrypted = file.endsWith('.enc');
  if (encrypted && key === null) throw strapiArchiveError(`${basename(label)} is encrypted: give its key with --key`);
  let source: Readable = createReadStream(file);
  if (encrypted && key !== null) {
    const decipher = decipherOf(await keyFor(file, key, label));
    source.on('error', (err) => decipher.destroy(err));
    source = source.pipe(decipher);
  }
  await untar(source, label, workDir);
  return { dir: workDir, owned: true };
}
