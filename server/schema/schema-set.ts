import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { Database, Db } from '../db/database.js';
import { formatSchemaStamp, SCHEMA_CHANNEL, SCHEMA_SET_KEY, SCHEMA_SET_VERSION_KEY, type SchemaStamp } from '../db/schema-version.js';
import { META_TABLE } from '../db/system-tables.js';
import { AppError } from '../errors/app-error.js';
import { isRecord } from '../errors/is-record.js';
import { isJson, type Json } from './builder-input.js';
import { docsOf, registryOf } from './builder.js';
import type { Registry } from './registry.js';

/**
 * Team mode (PostgreSQL): the schema set every instance on the database runs. The database holds
 * the truth, versioned: `hearth_meta.schema_set` (the content types and components, as their
 * schema.json documents) and `schema_set_version` (`<version>:<hash>`), both written in the
 * transaction that migrates the tables, under the write lock, and announced on `hearth_schema` at
 * commit. Each instance follows it (admin/schema-controller.ts) and mirrors it into its own
 * schemas folder. Plugin extensions and custom-field tables stay the folder's own.
 */

/** The documents a schema set holds, by uid (sorted, so equal sets hash equally). */
export interface SchemaDocuments {
  readonly contentTypes: Readonly<Record<string, Json>>;
  readonly components: Readonly<Record<string, Json>>;
}

/** One version of the schema set, as stored. */
export interface SchemaSet extends SchemaStamp, SchemaDocuments {
  readonly writtenAt: string;
  /** The instance that wrote it (its heartbeat id, db/instances.ts). */
  readonly writtenBy: string;
}

const byUid = (docs: ReadonlyMap<string, Json>): Record<string, Json> => Object.fromEntries([...docs].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));

/** The content types and components a registry runs (the builder's documents). */
export function documentsOf(registry: Registry): SchemaDocuments {
  const docs = docsOf(registry);
  return { contentTypes: byUid(docs.contentTypes), components: byUid(docs.components) };
}

/** A short hash of the documents (attribute order counts: it is the answers' key order). */
export function hashOf(documents: SchemaDocuments): string {
  return createHash('sha256')
    .update(JSON.stringify([documents.contentTypes, documents.components]))
    .digest('hex')
    .slice(0, 16);
}

export const sameStamp = (a: SchemaStamp | null, b: SchemaStamp | null): boolean => a !== null && b !== null && a.version === b.version && a.hash === b.hash;

const documentsIn = (value: unknown): Record<string, Json> | null =>
  isRecord(value) && Object.values(value).every(isJson) ? (value as Record<string, Json>) : null;

/** The database's schema set, or null when none was written (or the row is not one). */
export async function readSchemaSet(db: Db): Promise<SchemaSet | null> {
  const row = await db.selectFrom(META_TABLE).select('value').where('key', '=', SCHEMA_SET_KEY).executeTakeFirst();
  if (row === undefined) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(row.value);
  } catch {
    return null;
  }
  if (!isRecord(parsed) || typeof parsed.version !== 'number' || typeof parsed.hash !== 'string') return null;
  const contentTypes = documentsIn(parsed.contentTypes);
  const components = documentsIn(parsed.components);
  if (contentTypes === null || components === null) return null;
  const text = (v: unknown) => (typeof v === 'string' ? v : '');
  return { version: parsed.version, hash: parsed.hash, writtenAt: text(parsed.writtenAt), writtenBy: text(parsed.writtenBy), contentTypes, components };
}

/** Writes a new version of the set (both rows) and, on PostgreSQL, announces it at commit. Inside the migrating transaction. */
export async function writeSchemaSet(db: Db, kind: Database['kind'], set: SchemaSet): Promise<void> {
  const rows = [
    { key: SCHEMA_SET_KEY, value: JSON.stringify(set) },
    { key: SCHEMA_SET_VERSION_KEY, value: formatSchemaStamp(set) },
  ];
  for (const row of rows) {
    await db
      .insertInto(META_TABLE)
      .values(row)
      .onConflict((oc) => oc.column('key').doUpdateSet({ value: row.value }))
      .execute();
  }
  if (kind === 'postgres') await sql`SELECT pg_notify(${SCHEMA_CHANNEL}, ${formatSchemaStamp(set)})`.execute(db);
}

/** The set a registry is, as version `version`. */
export function schemaSetOf(registry: Registry, args: { version: number; writtenAt: string; writtenBy: string }): SchemaSet {
  const documents = documentsOf(registry);
  return { version: args.version, hash: hashOf(documents), writtenAt: args.writtenAt, writtenBy: args.writtenBy, ...documents };
}

/** The registry of a stored set, read with `base`'s plugin extensions, custom fields and built-in models (this instance's). */
export function registryOfSet(set: SchemaDocuments, base: Registry): Registry {
  return registryOf({
    ...docsOf(base),
    contentTypes: new Map(Object.entries(set.contentTypes).map(([uid, doc]) => [uid, structuredClone(doc)])),
    components: new Map(Object.entries(set.components).map(([uid, doc]) => [uid, structuredClone(doc)])),
  });
}

/** A write planned under schemas another change replaced before it could run: nothing was written; sent again, it runs under the new ones. */
export const schemaChangedError = (): AppError =>
  new AppError('ConflictError', 'The content types changed while this request was handled; send it again', { schemaChanged: true });

/** SQLSTATEs of a statement planned under schemas whose tables changed since: undefined_column, undefined_table. */
const RACE_CODES: ReadonlySet<string> = new Set(['42703', '42P01']);

/** Whether an error (or one of its causes) says the request ran under schemas that changed under it. */
export function isSchemaRace(err: unknown): boolean {
  for (let cause = err, depth = 0; cause instanceof Error && depth < 5; cause = cause.cause, depth++) {
    if (cause instanceof AppError && cause.name === 'ConflictError' && isRecord(cause.details) && cause.details.schemaChanged === true) return true;
    if ('code' in cause && typeof cause.code === 'string' && RACE_CODES.has(cause.code)) return true;
  }
  return false;
}
