import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Parser, type ReadEntry } from 'tar';
import { AppError } from '../errors/app-error.js';
import { SCHEMA_VERSION } from '../db/migrations.js';
import { BACKUP_MAX_SMALL_FILE_BYTES } from '../limits.js';
import { isSafeKey } from '../uploads/storage-provider.js';
import { archiveError, parseManifest, type Manifest } from './manifest.js';
import { isSchemaDirPath, isSchemaFilePath } from './schema-files.js';

/** An archive checked and unpacked into a staging folder. */
export interface Unpacked {
  readonly dir: string;
  readonly manifest: Manifest;
  readonly mediaKeys: ReadonlySet<string>;
}

interface State {
  manifest: Manifest | null;
  readonly seen: Set<string>;
  readonly mediaKeys: Set<string>;
  schemaFiles: number;
}

/** An entry path made of plain segments: not absolute, no `..`, no `.`, no backslash, no drive letter, no NUL. */
function plainPath(raw: string, isDir: boolean): string {
  const path = isDir ? raw.replace(/\/$/, '') : raw;
  const segments = path.split('/');
  const bad = path === '' || /[\\\u0000]/.test(path) || /^[A-Za-z]:/.test(path) || segments.some((s) => s === '' || s === '.' || s === '..');
  if (bad) throw archiveError(`unsafe entry path ${JSON.stringify(raw)}`);
  return path;
}

/** The schema version an archive must have for this build to restore it. */
function checkSchemaVersion(manifest: Manifest): void {
  if (manifest.schemaVersion > SCHEMA_VERSION) {
    throw archiveError(`written by a newer Hearth (${manifest.hearthVersion}, schema version ${manifest.schemaVersion}; this build knows up to ${SCHEMA_VERSION})`);
  }
  if (manifest.schemaVersion < SCHEMA_VERSION) {
    throw archiveError(`schema version ${manifest.schemaVersion} is older than this build's (${SCHEMA_VERSION}); import it with Hearth ${manifest.hearthVersion}, then start that data dir with this build to upgrade it`);
  }
}

/** Where a file entry goes, or null for a folder entry; throws on anything an export never writes. */
function placeEntry(entry: ReadEntry, state: State): { path: string; small: boolean } | null {
  const isDir = entry.type === 'Directory';
  if (!isDir && entry.type !== 'File' && entry.type !== 'OldFile') throw archiveError(`entry ${JSON.stringify(entry.path)} is a ${entry.type}, not a file or folder`);
  const path = plainPath(entry.path, isDir);
  if (state.seen.has(path)) throw archiveError(`entry ${path} appears twice`);
  state.seen.add(path);
  const { manifest } = state;
  if (manifest === null) {
    if (path !== 'manifest.json' || isDir) throw archiveError('manifest.json must be the first entry');
    return { path, small: true };
  }
  const [top, ...rest] = path.split('/');
  const inner = rest.join('/');
  if (isDir) {
    if ((top === 'tables' || top === 'media') && rest.length === 0) return null;
    if (top === 'schema' && manifest.schema !== null && (rest.length === 0 || isSchemaDirPath(inner))) return null;
  } else if (path === 'secrets.json' && manifest.secrets) {
    return { path, small: true };
  } else if (top === 'tables' && manifest.tables.some((t) => t.file === path)) {
    return { path, small: false };
  } else if (top === 'media' && rest.length === 1 && isSafeKey(inner, false)) {
    state.mediaKeys.add(inner);
    return { path, small: false };
  } else if (top === 'schema' && manifest.schema !== null && isSchemaFilePath(inner)) {
    state.schemaFiles++;
    return { path, small: true };
  }
  throw archiveError(`unexpected entry ${path}`);
}

/** Reads the first entry, the manifest, and checks it before the next entry is looked at (`fail` at once on a bad one). */
function readManifest(entry: ReadEntry, state: State, fail: (err: unknown) => void): Promise<void> {
  const chunks: Buffer[] = [];
  return new Promise((resolve, reject) => {
    entry.on('data', (c: Buffer) => chunks.push(c));
    entry.on('error', reject);
    entry.on('end', () => {
      try {
        let parsed: unknown;
        try {
          parsed = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        } catch {
          throw archiveError('manifest.json is not JSON');
        }
        const manifest = parseManifest(parsed);
        checkSchemaVersion(manifest);
        state.manifest = manifest;
        resolve();
      } catch (err) {
        fail(err);
        reject(err);
      }
    });
  });
}

/** Checks the archive held everything its manifest promised, and nothing it did not. */
function checkComplete(state: State): Manifest {
  const { manifest } = state;
  if (manifest === null) throw archiveError('manifest.json is missing');
  for (const table of manifest.tables) if (!state.seen.has(table.file)) throw archiveError(`${table.file} is missing`);
  if (state.mediaKeys.size !== manifest.media.files) throw archiveError(`holds ${state.mediaKeys.size} media files, its manifest says ${manifest.media.files}`);
  if (state.schemaFiles !== (manifest.schema?.files ?? 0)) throw archiveError(`holds ${state.schemaFiles} schema files, its manifest says ${manifest.schema?.files ?? 0}`);
  if (manifest.secrets && !state.seen.has('secrets.json')) throw archiveError('secrets.json is missing');
  return manifest;
}

/** One unpacking run: the entries being written, their jobs, and the first failure. */
interface Run {
  readonly dir: string;
  readonly state: State;
  readonly jobs: Promise<void>[];
  readonly writing: Set<ReadEntry>;
  failure: unknown;
  fail(err: unknown): void;
}

/** Handles one entry: checks where it goes, then writes it (or reads it, for the manifest); entries not kept are drained. */
function onEntry(run: Run, entry: ReadEntry): void {
  if (run.failure !== null) {
    entry.resume();
    return;
  }
  try {
    const place = placeEntry(entry, run.state);
    if (place === null) {
      entry.resume();
      return;
    }
    if (place.small && entry.size > BACKUP_MAX_SMALL_FILE_BYTES) throw archiveError(`${place.path} is too large`);
    const target = join(run.dir, place.path);
    run.writing.add(entry);
    entry.on('error', () => {}); // Reported through the job's own rejection.
    const job =
      place.path === 'manifest.json'
        ? readManifest(entry, run.state, (err) => run.fail(err))
        : mkdir(dirname(target), { recursive: true }).then(() => pipeline(entry, createWriteStream(target, { flags: 'wx', mode: place.path === 'secrets.json' ? 0o600 : 0o644 })));
    run.jobs.push(job.catch((err: unknown) => run.fail(err)).finally(() => run.writing.delete(entry)));
  } catch (err) {
    entry.resume();
    run.fail(err);
  }
}

/** Resolves when the parser has seen the whole archive; rejects when it aborts (a broken gzip stream never 'end's) or warns. */
function parsing(parser: Parser, source: NodeJS.ReadableStream, onStop: (stop: (err: unknown) => void) => void): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    onStop(reject);
    parser.on('end', () => resolve());
    parser.on('abort', reject);
    parser.on('error', reject);
    parser.on('warn', (code: string, message: unknown) => reject(archiveError(`${code}: ${message instanceof Error ? message.message : String(message)}`)));
    source.on('error', reject);
  });
}

/**
 * Checks and unpacks an archive into `dir` (a staging folder, never the data dir): the manifest
 * must come first with a known format version and a schema version this build restores; every
 * entry must be a plain file or folder at a path an export writes (no `..`, no absolute path, no
 * link of any kind); and everything the manifest lists must be there.
 */
export async function unpackArchive(file: string, dir: string): Promise<Unpacked> {
  const source = createReadStream(file);
  let stop: (err: unknown) => void = () => {};
  const run: Run = {
    dir,
    state: { manifest: null, seen: new Set(), mediaKeys: new Set(), schemaFiles: 0 },
    jobs: [],
    writing: new Set(),
    failure: null,
    fail(err) {
      run.failure ??= err;
      source.unpipe();
      source.destroy();
      // An entry cut short never ends: fail its write too (with an error, so its pipeline settles).
      for (const entry of run.writing) entry.destroy(archiveError('the archive ends inside an entry'));
      stop(err);
    },
  };
  // noResume: an entry's bytes wait until its file is open.
  const parser = new Parser({ noResume: true, onReadEntry: (entry: ReadEntry) => onEntry(run, entry) });
  const parsed = parsing(parser, source, (s) => (stop = s));
  await mkdir(dir, { recursive: true });
  source.pipe(parser);
  await parsed.catch((err: unknown) => run.fail(err));
  await Promise.all(run.jobs);
  const { failure } = run;
  if (failure !== null) throw failure instanceof AppError ? failure : archiveError(failure instanceof Error ? failure.message : String(failure));
  return { dir, manifest: checkComplete(run.state), mediaKeys: run.state.mediaKeys };
}
