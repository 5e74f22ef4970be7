import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Db } from '../db/database.js';
import { ADMIN_SESSIONS_TABLE } from '../db/system-tables.js';
import { ADMIN_SESSION_IDLE_MS, ADMIN_SESSION_MAX_MS, ADMIN_SESSION_TOUCH_MS } from '../limits.js';

/** Every session token starts with this, so other bearer strategies' credentials are told apart without a lookup. */
export const SESSION_PREFIX = 'hearth_s_';

/** How a session was opened. */
export type SessionKind = 'password' | 'desktop' | 'register';

/** A live session: which admin, and the row to revoke. */
export interface AdminSession {
  readonly id: number;
  readonly userId: number;
}

/** What a presented session token turned out to be. */
export type SessionCheck = { ok: true; session: AdminSession } | { ok: false; reason: 'invalid' | 'expired' };

/** SHA-256 of the plaintext: the only form a session token is stored in. */
const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');

/**
 * Admin sessions: opaque random tokens stored hashed, with an idle lifetime renewed by use and an
 * absolute one. Revocation deletes the row, so a revoked token fails on its very next request.
 */
export function createSessions(deps: { db: Db; now: () => Date }) {
  const { db, now } = deps;

  async function dropExpired(at: Date): Promise<void> {
    await db
      .deleteFrom(ADMIN_SESSIONS_TABLE)
      .where((eb) =>
        eb.or([
          eb('last_used_at', '<=', new Date(at.getTime() - ADMIN_SESSION_IDLE_MS).toISOString()),
          eb('created_at', '<=', new Date(at.getTime() - ADMIN_SESSION_MAX_MS).toISOString()),
        ]),
      )
      .execute();
  }

  return {
    /** Opens a session and returns its plaintext token (shown to the client once, never stored). */
    async open(userId: number, kind: SessionKind): Promise<string> {
      const at = now();
      await dropExpired(at);
      const token = `${SESSION_PREFIX}${randomBytes(32).toString('base64url')}`;
      await db
        .insertInto(ADMIN_SESSIONS_TABLE)
        .values({ token_hash: hashToken(token), user_id: userId, kind, created_at: at.toISOString(), last_used_at: at.toISOString() })
        .execute();
      return token;
    },

    /** Checks a token: unknown, expired (and then deleted) or live (and then renewed). */
    async verify(token: string): Promise<SessionCheck> {
      if (!token.startsWith(SESSION_PREFIX)) return { ok: false, reason: 'invalid' };
      const hash = hashToken(token);
      const row = await db.selectFrom(ADMIN_SESSIONS_TABLE).selectAll().where('token_hash', '=', hash).executeTakeFirst();
      if (!row) return { ok: false, reason: 'invalid' };
      const stored = Buffer.from(row.token_hash, 'hex');
      const presented = Buffer.from(hash, 'hex');
      if (stored.length !== presented.length || !timingSafeEqual(stored, presented)) return { ok: false, reason: 'invalid' };
      const at = now().getTime();
      const id = row.id;
      const lastUsed = Date.parse(row.last_used_at);
      if (at - lastUsed >= ADMIN_SESSION_IDLE_MS || at - Date.parse(row.created_at) >= ADMIN_SESSION_MAX_MS) {
        await db.deleteFrom(ADMIN_SESSIONS_TABLE).where('id', '=', id).execute();
        return { ok: false, reason: 'expired' };
      }
      if (at - lastUsed >= ADMIN_SESSION_TOUCH_MS) {
        await db.updateTable(ADMIN_SESSIONS_TABLE).set({ last_used_at: new Date(at).toISOString() }).where('id', '=', id).execute();
      }
      return { ok: true, session: { id, userId: row.user_id } };
    },

    /** Ends one session at once. */
    async revoke(sessionId: number): Promise<void> {
      await db.deleteFrom(ADMIN_SESSIONS_TABLE).where('id', '=', sessionId).execute();
    },

    /** Ends every session of an admin (password reset), optionally sparing the one making the change. */
    async revokeUser(userId: number, except: number | null = null): Promise<void> {
      let q = db.deleteFrom(ADMIN_SESSIONS_TABLE).where('user_id', '=', userId);
      if (except !== null) q = q.where('id', '<>', except);
      await q.execute();
    },
  };
}

/** Admin sessions. */
export type Sessions = ReturnType<typeof createSessions>;
