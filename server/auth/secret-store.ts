import { readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Db } from '../db/database.js';
import { META_TABLE } from '../db/system-tables.js';
import { isRecord } from '../errors/is-record.js';
import type { SecretKey, Secrets } from './secrets.js';

/**
 * Where secrets are kept: `<data>/secrets.json` (mode 0600, carried by export/import) and one
 * `hearth_meta` row per secret, `secret:<key>`, holding its fingerprint and, on PostgreSQL when no
 * variable gave it, the secret itself, so every instance on the database finds it.
 */

/** What the database records of one secret. */
export interface SecretRecord {
  readonly fingerprint: string;
  /** The secret itself, kept only when the database is where instances find it; null otherwise. */
  readonly value: string | null;
}

const PREFIX = 'secret:';
const FILE_KEYS: readonly SecretKey[] = ['apiTokenSalt', 'jwtSecret', 'adminJwtSecret'];
/** A secrets.json value shorter than this was never made by Hearth: it is replaced, as it always was. */
const MIN_FILE_SECRET_LENGTH = 32;

/** The records of every secret, by key; a malformed row counts as none. */
export async function readRecords(trx: Db): Promise<Map<string, SecretRecord>> {
  const rows = await trx.selectFrom(META_TABLE).select(['key', 'value']).where('key', 'like', `${PREFIX}%`).execute();
  const records = new Map<string, SecretRecord>();
  for (const row of rows) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(row.value);
    } catch {
      continue;
    }
    if (!isRecord(parsed) || typeof parsed.fingerprint !== 'string') continue;
    records.set(row.key.slice(PREFIX.length), { fingerprint: parsed.fingerprint, value: typeof parsed.value === 'string' ? parsed.value : null });
  }
  return records;
}

/** Records one secret (insert or replace). */
export async function writeRecord(trx: Db, key: SecretKey, record: SecretRecord): Promise<void> {
  const value = JSON.stringify({ fingerprint: record.fingerprint, value: record.value });
  await trx
    .insertInto(META_TABLE)
    .values({ key: `${PREFIX}${key}`, value })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
    .execute();
}

/** secrets.json as stored (other keys are kept when it is rewritten) and its usable secrets. */
export interface SecretsFile {
  readonly raw: Readonly<Record<string, unknown>>;
  readonly secrets: Partial<Secrets>;
}

/** Reads `<data>/secrets.json`; a missing file has no secrets. */
export async function readSecretsFile(dataDir: string): Promise<SecretsFile> {
  const file = join(dataDir, 'secrets.json');
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(file, 'utf8'));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { raw: {}, secrets: {} };
    throw new Error(`cannot read ${file}: ${(err as Error).message}`, { cause: err });
  }
  if (!isRecord(raw)) return { raw: {}, secrets: {} };
  const secrets: Partial<Record<SecretKey, string>> = {};
  for (const key of FILE_KEYS) {
    const value = raw[key];
    if (typeof value === 'string' && value.length >= MIN_FILE_SECRET_LENGTH) secrets[key] = value;
  }
  return { raw, secrets };
}

/** Writes `<data>/secrets.json` atomically, readable by the owner only. */
export async function writeSecretsFile(dataDir: string, content: Readonly<Record<string, unknown>>): Promise<void> {
  const file = join(dataDir, 'secrets.json');
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify(content, null, 2)}\n`, { mode: 0o600 });
  await rename(temporary, file);
}
