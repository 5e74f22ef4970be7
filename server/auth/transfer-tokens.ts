import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { Selectable } from 'kysely';
import type { Database } from '../db/database.js';
import { createIdTable, internalType } from '../db/ddl.js';
import { TRANSFER_TOKENS_TABLE, type TransferTokenTable } from '../db/system-tables.js';
import { hashAccessKey } from './api-tokens.js';

/**
 * Strapi's admin transfer tokens: what `strapi transfer --to/--from-token` presents. They are not
 * API tokens (a content-API call never accepts one, and the reverse), so they live in their own
 * table, stored as a keyed hash like API tokens, with Strapi's permissions `push` and `pull`.
 */

/** What `--access` takes: one direction, or both (`full`, as the admin UI's "Full access"). */
export const TRANSFER_ACCESS = ['push', 'pull', 'full'] as const;
/** One `--access` value. */
export type TransferAccess = (typeof TRANSFER_ACCESS)[number];
/** A transfer direction, as Strapi's transfer-token permissions name it. */
export type TransferPermission = 'push' | 'pull';

const TABLE = TRANSFER_TOKENS_TABLE;

/** A transfer token as stored, never with its plaintext. */
export interface TransferToken {
  readonly id: number;
  readonly name: string;
  readonly permissions: readonly TransferPermission[];
  readonly createdAt: string;
}

const permissionsOf = (access: TransferAccess): TransferPermission[] => (access === 'full' ? ['push', 'pull'] : [access]);

function toToken(row: Selectable<TransferTokenTable>): TransferToken {
  const parsed: unknown = JSON.parse(row.permissions);
  const permissions = Array.isArray(parsed) ? parsed.filter((p): p is TransferPermission => p === 'push' || p === 'pull') : [];
  return { id: row.id, name: row.name, permissions, createdAt: row.created_at };
}

/** Creates the table when a data dir has none yet (both databases), as the migrations make API tokens'. */
export async function ensureTransferTokenTable(database: Pick<Database, 'db' | 'kind'>): Promise<void> {
  const { db, kind } = database;
  const names = new Set((await db.introspection.getTables()).map((t) => t.name));
  if (names.has(TABLE)) return;
  const text = internalType(kind, 'text');
  await createIdTable(kind, db, TABLE, (t) =>
    t
      .addColumn('name', text, (c) => c.notNull().unique())
      .addColumn('access_key_hash', text, (c) => c.notNull().unique())
      .addColumn('permissions', text, (c) => c.notNull())
      .addColumn('created_at', text, (c) => c.notNull())
      .addColumn('last_used_at', text),
  );
}

/** Transfer tokens: creation (plaintext returned once) and verification for a direction. */
export function createTransferTokenService(deps: { database: Database; salt: string; now: () => Date }) {
  const { database, salt, now } = deps;
  const { db } = database;
  // Their own salt (TRANSFER_TOKEN_SALT, else derived from the API token salt: auth/secrets.ts), as Strapi's: an API token's hash never matches one.
  const keyed = (accessKey: string) => hashAccessKey(accessKey, salt);
  let ready: Promise<void> | null = null;
  const table = () => (ready ??= ensureTransferTokenTable(database));
  return {
    /** Creates a token; the plaintext is returned this once. A taken name is refused. */
    async create(input: { name: string; access: TransferAccess }): Promise<{ token: TransferToken; accessKey: string }> {
      if (input.name.trim() === '') throw new Error('a transfer token needs a name');
      await table();
      const taken = await db.selectFrom(TABLE).select('id').where('name', '=', input.name).executeTakeFirst();
      if (taken) throw new Error(`a transfer token named "${input.name}" already exists`);
      const accessKey = randomBytes(64).toString('hex');
      const row = await db
        .insertInto(TABLE)
        .values({ name: input.name, access_key_hash: keyed(accessKey), permissions: JSON.stringify(permissionsOf(input.access)), created_at: now().toISOString(), last_used_at: null })
        .returningAll()
        .executeTakeFirstOrThrow();
      return { token: toToken(row), accessKey };
    },

    /** The token a presented plaintext is; null when it is none. */
    async verify(accessKey: string): Promise<TransferToken | null> {
      await table();
      const hash = keyed(accessKey);
      const row = await db.selectFrom(TABLE).selectAll().where('access_key_hash', '=', hash).executeTakeFirst();
      if (!row) return null;
      const stored = Buffer.from(row.access_key_hash, 'hex');
      const presented = Buffer.from(hash, 'hex');
      if (stored.length !== presented.length || !timingSafeEqual(stored, presented)) return null;
      const token = toToken(row);
      await db.updateTable(TABLE).set({ last_used_at: now().toISOString() }).where('id', '=', token.id).execute();
      return token;
    },
  };
}

/** Transfer tokens. */
export type TransferTokenService = ReturnType<typeof createTransferTokenService>;
