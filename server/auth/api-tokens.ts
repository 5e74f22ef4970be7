import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Selectable } from 'kysely';
import type { Db } from '../db/database.js';
import { fieldError } from '../errors/app-error.js';
import { API_TOKENS_TABLE, type ApiTokenTable } from '../db/system-tables.js';
import { TOKEN_LAST_USED_REFRESH_MS } from '../limits.js';

/** The kinds of API token, as Strapi's. */
export const TOKEN_TYPES = ['read-only', 'full-access', 'custom'] as const;
/** One kind of API token. */
export type TokenType = (typeof TOKEN_TYPES)[number];
/** Lifespans the UI offers; any whole number of days is accepted. */
export const TOKEN_LIFESPAN_DAYS = [7, 30, 90] as const;
const DAY_MS = 24 * 60 * 60 * 1000;

/** An API token as stored, never with its plaintext. */
export interface ApiToken {
  readonly id: number;
  readonly name: string;
  readonly description: string;
  readonly type: TokenType;
  /** Actions a `custom` token may perform. */
  readonly permissions: readonly string[];
  readonly lifespan: number | null;
  readonly expiresAt: string | null;
  readonly lastUsedAt: string | null;
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** What a presented plaintext turned out to be. */
export type TokenCheck = { ok: true; token: ApiToken } | { ok: false; reason: 'invalid' | 'expired' };

/** HMAC-SHA512 of the plaintext under the per-install salt: the only form a token is stored in. */
export function hashAccessKey(accessKey: string, salt: string): string {
  return createHmac('sha512', salt).update(accessKey).digest('hex');
}

function toToken(row: Selectable<ApiTokenTable>): ApiToken {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    type: row.type as TokenType,
    permissions: JSON.parse(row.permissions) as string[],
    lifespan: row.lifespan,
    expiresAt: row.expires_at,
    lastUsedAt: row.last_used_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** What a new token is made of. */
export interface CreateTokenInput {
  readonly name: string;
  readonly description?: string;
  readonly type: TokenType;
  readonly permissions?: readonly string[];
  /** Whole days; undefined or null means the token never expires. */
  readonly lifespanDays?: number | null;
}

/** API tokens: creation (plaintext returned once), verification, listing, revocation, regeneration. */
export function createTokenService(deps: { db: Db; salt: string; now: () => Date }) {
  const { db, salt, now } = deps;

  function checkInput(input: CreateTokenInput): void {
    if (input.name.trim() === '') throw fieldError(['name'], 'a token needs a name');
    if (!(TOKEN_TYPES as readonly string[]).includes(input.type)) {
      throw fieldError(['type'], `token type must be one of ${TOKEN_TYPES.join(', ')}`);
    }
    if (input.type === 'custom' && (input.permissions ?? []).length === 0) {
      throw fieldError(['permissions'], 'a custom token needs at least one action');
    }
    const days = input.lifespanDays;
    if (days !== undefined && days !== null && (!Number.isInteger(days) || days <= 0)) {
      throw fieldError(['lifespan'], 'lifespan must be a whole number of days');
    }
  }

  async function checkNameFree(name: string, exceptId: number | null): Promise<void> {
    let q = db.selectFrom(API_TOKENS_TABLE).select('id').where('name', '=', name);
    if (exceptId !== null) q = q.where('id', '<>', exceptId);
    if (await q.executeTakeFirst()) throw fieldError(['name'], 'Name already taken');
  }

  const newAccessKey = () => randomBytes(128).toString('hex');

  return {
    /** Creates a token; the returned plaintext is the only time it is ever available. */
    async create(input: CreateTokenInput): Promise<{ token: ApiToken; accessKey: string }> {
      checkInput(input);
      await checkNameFree(input.name, null);
      const accessKey = newAccessKey();
      const at = now();
      const lifespan = input.lifespanDays ? input.lifespanDays * DAY_MS : null;
      const row = await db
        .insertInto(API_TOKENS_TABLE)
        .values({
          name: input.name,
          description: input.description ?? '',
          type: input.type,
          access_key_hash: hashAccessKey(accessKey, salt),
          permissions: JSON.stringify(input.type === 'custom' ? [...(input.permissions ?? [])] : []),
          lifespan,
          expires_at: lifespan === null ? null : new Date(at.getTime() + lifespan).toISOString(),
          last_used_at: null,
          created_at: at.toISOString(),
          updated_at: at.toISOString(),
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return { token: toToken(row), accessKey };
    },

    /** Looks a presented plaintext up by its keyed hash; the hashes are compared in constant time. */
    async verify(accessKey: string): Promise<TokenCheck> {
      const hash = hashAccessKey(accessKey, salt);
      const row = await db.selectFrom(API_TOKENS_TABLE).selectAll().where('access_key_hash', '=', hash).executeTakeFirst();
      if (!row) return { ok: false, reason: 'invalid' };
      const stored = Buffer.from(row.access_key_hash, 'hex');
      const presented = Buffer.from(hash, 'hex');
      if (stored.length !== presented.length || !timingSafeEqual(stored, presented)) return { ok: false, reason: 'invalid' };
      const token = toToken(row);
      const at = now();
      if (token.expiresAt !== null && Date.parse(token.expiresAt) <= at.getTime()) return { ok: false, reason: 'expired' };
      if (token.lastUsedAt === null || at.getTime() - Date.parse(token.lastUsedAt) > TOKEN_LAST_USED_REFRESH_MS) {
        await db.updateTable(API_TOKENS_TABLE).set({ last_used_at: at.toISOString() }).where('id', '=', token.id).execute();
      }
      return { ok: true, token };
    },

    /** Every token, sorted by name (as the admin lists them). */
    async list(): Promise<ApiToken[]> {
      const rows = await db.selectFrom(API_TOKENS_TABLE).selectAll().orderBy('name').orderBy('id').execute();
      return rows.map(toToken);
    },

    /** Changes a token's name, description, type or actions; its secret and lifespan stay. */
    async update(id: number, input: Partial<Pick<CreateTokenInput, 'name' | 'description' | 'type' | 'permissions'>>): Promise<ApiToken | undefined> {
      const row = await db.selectFrom(API_TOKENS_TABLE).selectAll().where('id', '=', id).executeTakeFirst();
      if (!row) return undefined;
      const current = toToken(row);
      const next: CreateTokenInput = {
        name: input.name ?? current.name,
        description: input.description ?? current.description,
        type: input.type ?? current.type,
        permissions: input.permissions ?? (input.type === undefined || input.type === 'custom' ? current.permissions : []),
      };
      checkInput(next);
      await checkNameFree(next.name, id);
      await db
        .updateTable(API_TOKENS_TABLE)
        .set({
          name: next.name,
          description: next.description ?? '',
          type: next.type,
          permissions: JSON.stringify(next.type === 'custom' ? [...(next.permissions ?? [])] : []),
          updated_at: now().toISOString(),
        })
        .where('id', '=', id)
        .execute();
      const updated = await db.selectFrom(API_TOKENS_TABLE).selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      return toToken(updated);
    },

    async get(id: number): Promise<ApiToken | undefined> {
      const row = await db.selectFrom(API_TOKENS_TABLE).selectAll().where('id', '=', id).executeTakeFirst();
      return row ? toToken(row) : undefined;
    },

    /** Deletes a token; it stops working at once. */
    async revoke(id: number): Promise<boolean> {
      const result = await db.deleteFrom(API_TOKENS_TABLE).where('id', '=', id).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    /** Replaces a token's secret; the old plaintext stops working. */
    async regenerate(id: number): Promise<string | undefined> {
      const accessKey = newAccessKey();
      const result = await db
        .updateTable(API_TOKENS_TABLE)
        .set({ access_key_hash: hashAccessKey(accessKey, salt), updated_at: now().toISOString() })
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0 ? accessKey : undefined;
    },
  };
}

/** API tokens. */
export type TokenService = ReturnType<typeof createTokenService>;

/** Whether a token of this type and permission list may perform an action (Strapi's scopes). */
export function tokenAllows(token: ApiToken, action: string): boolean {
  switch (token.type) {
    case 'full-access':
      return true;
    case 'read-only':
      return action.endsWith('.find') || action.endsWith('.findOne');
    case 'custom':
      return token.permissions.includes(action);
  }
}
