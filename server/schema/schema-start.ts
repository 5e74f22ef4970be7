import { readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Database } from '../db/database.js';
import { isRecord } from '../errors/is-record.js';
import type { SchemaStamp } from '../db/schema-version.js';
import { configError } from '../errors/app-error.js';
import { docsOf } from './builder.js';
import type { Registry } from './registry.js';
import { documentsOf, hashOf, readSchemaSet, registryOfSet, schemaSetOf, writeSchemaSet } from './schema-set.js';
import { fileChanges, writeFiles } from './schema-writer.js';

/** What wins when an instance starts with a schemas folder that differs from the database's set (`--schema-source`, `HEARTH_SCHEMA_SOURCE`). */
export type SchemaSource = 'database' | 'folder';

/** How an instance starts: the schemas it syncs and serves first, their stamp, and a folder to apply as a new version once it runs. */
export interface SchemaStart {
  readonly registry: Registry;
  /** The database's stamp of `registry`; null on SQLite, where the folder is the truth as before. */
  readonly stamp: SchemaStamp | null;
  /** `--schema-source folder` with a differing folder: applied as the next version through the schema controller. */
  readonly pending: Registry | null;
}

/** The file in an instance's data dir that records the set it last ran (version and hash): the base a start compares with. */
const BASE_FILE = 'schema-set.json';

/** The set this data dir's instance last ran, or null (never ran one, or an unreadable file). */
async function readBase(dataDir: string): Promise<SchemaStamp | null> {
  try {
    const parsed: unknown = JSON.parse(await readFile(join(dataDir, BASE_FILE), 'utf8'));
    return isRecord(parsed) && typeof parsed.version === 'number' && typeof parsed.hash === 'string' ? { version: parsed.version, hash: parsed.hash } : null;
  } catch {
    return null;
  }
}

/** Records the set this instance runs (replaced atomically). */
export async function recordSchemaBase(dataDir: string, stamp: SchemaStamp): Promise<void> {
  const file = join(dataDir, BASE_FILE);
  await writeFile(`${file}.tmp`, `${JSON.stringify({ version: stamp.version, hash: stamp.hash })}\n`);
  await rename(`${file}.tmp`, file);
}

/**
 * What wins when neither `--schema-source` nor HEARTH_SCHEMA_SOURCE says: the folder when it was
 * edited since this instance last ran (its data dir's record) while the database's set stayed the
 * one it ran then (a hand edit made while it was stopped, as on one workstation); else the database.
 */
function defaultSource(base: SchemaStamp | null, folderHash: string, stored: SchemaStamp): { source: SchemaSource; why: string } {
  if (base !== null && base.hash !== folderHash && base.version === stored.version && base.hash === stored.hash) {
    return { source: 'folder', why: `the folder was edited since this instance last ran version ${base.version}, which the database still has` };
  }
  return {
    source: 'database',
    why: base === null ? 'this data dir never ran a schema set' : `the database moved on since this instance last ran version ${base.version}`,
  };
}

/**
 * Decides, under the write lock, what a starting instance runs. No set in the database: the
 * folder becomes version 1. The same set: nothing to do. A different one: `database` adopts the
 * database's set and rewrites the folder's differing files; `folder` starts on the database's set
 * and applies the folder as the next version (so every other instance follows). Without a flag,
 * defaultSource decides. One line says which happened. SQLite keeps the folder as its only truth.
 */
export async function startSchemaSet(args: {
  database: Database;
  folder: Registry;
  schemasDir: string;
  dataDir: string;
  source: SchemaSource | null;
  instance: string;
  now: () => Date;
  log: (message: string) => void;
}): Promise<SchemaStart> {
  const { database, folder, schemasDir, log } = args;
  if (database.kind !== 'postgres') return { registry: folder, stamp: null, pending: null };
  const hash = hashOf(documentsOf(folder));
  const found = await database.db.transaction().execute(async (trx) => {
    const set = await readSchemaSet(trx);
    if (set !== null) return set;
    await writeSchemaSet(trx, database.kind, schemaSetOf(folder, { version: 1, writtenAt: args.now().toISOString(), writtenBy: args.instance }));
    return null;
  });
  if (found === null) {
    log(`schemas: the database had no schema set; ${schemasDir} is its version 1`);
    await recordSchemaBase(args.dataDir, { version: 1, hash });
    return { registry: folder, stamp: { version: 1, hash }, pending: null };
  }
  const stamp = { version: found.version, hash: found.hash };
  if (found.hash === hash) {
    log(`schemas: ${schemasDir} is the database's schema set (version ${found.version})`);
    await recordSchemaBase(args.dataDir, stamp);
    return { registry: folder, stamp, pending: null };
  }
  let stored: Registry;
  try {
    stored = registryOfSet(found, folder);
  } catch (err) {
    throw configError(
      `the database's schema set (version ${found.version}, written by ${found.writtenBy}) cannot be read by this instance: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
  const where = `${schemasDir} differs from the database's schema set (version ${found.version}, written by ${found.writtenBy || 'an instance'} at ${found.writtenAt || 'an unknown time'})`;
  const chosen =
    args.source === null ? defaultSource(await readBase(args.dataDir), hash, stamp) : { source: args.source, why: `--schema-source ${args.source}` };
  if (chosen.source === 'folder') {
    log(`schemas: ${where}; applying the folder as version ${found.version + 1} (${chosen.why})`);
    return { registry: stored, stamp, pending: folder };
  }
  const changes = await fileChanges(schemasDir, docsOf(folder), docsOf(stored));
  await writeFiles(schemasDir, changes);
  const files = changes.filter((c) => c.path.endsWith('.json')).length;
  log(
    `schemas: ${where}; adopted the database's set and rewrote ${files} schema file(s) of the folder (${chosen.why}; --schema-source folder applies the folder instead)`,
  );
  await recordSchemaBase(args.dataDir, stamp);
  return { registry: stored, stamp, pending: null };
}
