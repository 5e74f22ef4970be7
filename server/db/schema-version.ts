import { sql } from 'kysely';
import type { Db } from './database.js';
import { META_TABLE } from './system-tables.js';

/**
 * Where the schema set every instance on one PostgreSQL database runs is kept (schema/schema-set.ts
 * writes it): two `hearth_meta` rows, written together in the transaction that migrates the
 * tables. `schema_set_version` is small (`<version>:<hash>`) so it can be read on every write
 * transaction and polled; `schema_set` holds the whole set (JSON).
 */
export const SCHEMA_SET_KEY = 'schema_set';
export const SCHEMA_SET_VERSION_KEY = 'schema_set_version';
/** The channel a committed schema change is announced on (its payload: the version stamp). */
export const SCHEMA_CHANNEL = 'hearth_schema';

/** A schema set's version and the hash of its documents. */
export interface SchemaStamp {
  readonly version: number;
  readonly hash: string;
}

/** `<version>:<hash>` as stored; null for anything else. */
export function parseSchemaStamp(text: string | null | undefined): SchemaStamp | null {
  if (typeof text !== 'string') return null;
  const colon = text.indexOf(':');
  const version = Number(text.slice(0, colon));
  if (colon < 1 || !Number.isSafeInteger(version)) return null;
  return { version, hash: text.slice(colon + 1) };
}

export const formatSchemaStamp = (stamp: SchemaStamp): string => `${stamp.version}:${stamp.hash}`;

/** The statement that reads the stamp (appended to a write transaction's first round trip, postgres.ts). */
export const READ_SCHEMA_STAMP = `SELECT value FROM ${META_TABLE} WHERE key = '${SCHEMA_SET_VERSION_KEY}'`;

/** The database's schema stamp, or null when no set was ever written. */
export async function readSchemaStamp(db: Db): Promise<SchemaStamp | null> {
  const { rows } = await sql.raw<{ value: string }>(READ_SCHEMA_STAMP).execute(db);
  return parseSchemaStamp(rows[0]?.value);
}
