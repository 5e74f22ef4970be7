import { randomBytes, randomUUID } from 'node:crypto';
import type { Selectable } from 'kysely';
import type { Db } from '../db/database.js';
import type { SessionTable } from '../db/system-tables.js';
import { UP_SESSION_SWEEP_EVERY } from '../limits.js';
import { SESSIONS_TABLE } from './models.js';
import type { UserTokens } from './tokens.js';

/** Session lifetimes, in seconds. */
export interface SessionLifespans {
  readonly access: number;
  readonly idle: number;
  readonly max: number;
}

/** What a session shows its owner (`GET /api/auth/sessions`): never a token. */
export interface SessionEntry {
  readonly id: string;
  readonly deviceId: string;
  readonly deviceName?: string;
  readonly current: boolean;
  readonly loginAt?: string;
  readonly lastActiveAt: string;
}

/** A new or rotated refresh token and the session record it names. */
export interface IssuedRefresh {
  readonly token: string;
  readonly sessionId: string;
}

/** A stored session. */
type SessionRow = Selectable<SessionTable>;

const iso = (d: Date) => d.toISOString();
const later = (d: Date, seconds: number) => new Date(d.getTime() + seconds * 1000);

function metadataOf(row: SessionRow): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(row.metadata);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/**
 * Refresh-token sessions as Strapi's session manager keeps them: each refresh token names one
 * record; rotating marks it `rotated` and creates its child in the same family; revoking deletes
 * the family, which also ends the access tokens issued from it. Unlike Strapi (which answers a
 * replayed rotated token with its child), presenting a rotated token again is taken as theft and
 * ends the family, as OAuth's refresh-token rotation does (RFC 6819 5.2.2.3, OAuth 2.1 4.3.1).
 */
export function createSessionManager(deps: { db: Db; tokens: UserTokens; now: () => Date; lifespans: SessionLifespans }) {
  const { db, tokens, now, lifespans } = deps;
  let created = 0;

  const find = (sessionId: string) => db.selectFrom(SESSIONS_TABLE).selectAll().where('session_id', '=', sessionId).executeTakeFirst();
  const tokenFor = (row: SessionRow) =>
    tokens.session({
      type: 'refresh',
      userId: row.user_id,
      sessionId: row.session_id,
      issuedAt: new Date(row.created_at),
      expiresAt: new Date(row.expires_at),
    });

  async function insert(values: { userId: number; deviceId: string; familyId: string | null; metadata: Record<string, unknown>; absolute: Date }): Promise<SessionRow> {
    const at = now();
    const sessionId = randomBytes(16).toString('hex');
    return db
      .insertInto(SESSIONS_TABLE)
      .values({
        session_id: sessionId,
        user_id: values.userId,
        device_id: values.deviceId,
        family_id: values.familyId ?? sessionId,
        child_id: null,
        status: 'active',
        metadata: JSON.stringify(values.metadata),
        expires_at: iso(later(at, lifespans.idle)),
        absolute_expires_at: iso(values.absolute),
        created_at: iso(at),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  async function sweep(): Promise<void> {
    created += 1;
    if (created % UP_SESSION_SWEEP_EVERY !== 0) return;
    await db.deleteFrom(SESSIONS_TABLE).where('absolute_expires_at', '<', iso(now())).execute();
  }

  /** Reuse of a rotated refresh token: every token of its family (refresh and access) ends. */
  async function endFamily(row: SessionRow): Promise<null> {
    await db.deleteFrom(SESSIONS_TABLE).where('family_id', '=', row.family_id).execute();
    return null;
  }

  /** The session a refresh token names, if the token verifies and the session may still issue tokens. */
  async function validate(token: string): Promise<{ userId: number; sessionId: string } | null> {
    const claims = await tokens.verify(token);
    if (typeof claims === 'string' || claims.type !== 'refresh') return null;
    const row = await find(claims.sessionId);
    const at = iso(now());
    if (!row || row.expires_at <= at || row.absolute_expires_at <= at) return null;
    if (row.status !== 'active' || row.user_id !== claims.userId) return null;
    return { userId: claims.userId, sessionId: claims.sessionId };
  }

  return {
    validate,

    /** Opens a session (login, register, password change): a new family. */
    async open(args: { userId: number; deviceId?: string; metadata?: Record<string, unknown> }): Promise<IssuedRefresh> {
      await sweep();
      const row = await insert({
        userId: args.userId,
        deviceId: args.deviceId ?? randomUUID(),
        familyId: null,
        metadata: args.metadata ?? {},
        absolute: later(now(), lifespans.max),
      });
      return { token: await tokenFor(row), sessionId: row.session_id };
    },

    /**
     * Replaces a refresh token by its child; null when it is unknown, expired or revoked. A token
     * already rotated (replayed, or raced by a second rotation) ends its whole family.
     */
    async rotate(token: string): Promise<IssuedRefresh | null> {
      const claims = await tokens.verify(token);
      if (typeof claims === 'string' || claims.type !== 'refresh') return null;
      const current = await find(claims.sessionId);
      if (!current || current.user_id !== claims.userId) return null;
      if (current.status !== 'active') return endFamily(current);
      const at = now();
      if (at.getTime() - Date.parse(current.created_at) > lifespans.idle * 1000) return null;
      if (Date.parse(current.absolute_expires_at) <= at.getTime()) return null;
      // The child exists before its parent is claimed, so a reuse seen once the claim is made ends it too.
      const child = await insert({
        userId: current.user_id,
        deviceId: current.device_id,
        familyId: current.family_id,
        metadata: metadataOf(current),
        absolute: new Date(current.absolute_expires_at),
      });
      // Of two rotations of one token, only one claims it; the other is a reuse.
      const claimed = await db
        .updateTable(SESSIONS_TABLE)
        .set({ status: 'rotated', child_id: child.session_id })
        .where('id', '=', current.id)
        .where('status', '=', 'active')
        .executeTakeFirst();
      if (Number(claimed.numUpdatedRows) !== 1) return endFamily(current);
      return { token: await tokenFor(child), sessionId: child.session_id };
    },

    /** A short-lived access token for the session a valid refresh token names. */
    async accessToken(refreshToken: string): Promise<string | null> {
      const session = await validate(refreshToken);
      if (!session) return null;
      const at = now();
      return tokens.session({ type: 'access', ...session, issuedAt: at, expiresAt: later(at, lifespans.access) });
    },

    /** Whether a session still exists and has not expired (access tokens die with their session). */
    async isActive(sessionId: string): Promise<boolean> {
      const row = await find(sessionId);
      return row !== undefined && row.expires_at > iso(now());
    },

    /** Ends the session family of one of the user's sessions; false when the user has no such session. */
    async revoke(userId: number, sessionId: string): Promise<boolean> {
      const row = await db.selectFrom(SESSIONS_TABLE).select('family_id').where('session_id', '=', sessionId).where('user_id', '=', userId).executeTakeFirst();
      if (!row) return false;
      await db.deleteFrom(SESSIONS_TABLE).where('family_id', '=', row.family_id).execute();
      return true;
    },

    /** Ends every session of a user, or those of one device. */
    async revokeAll(userId: number, deviceId?: string): Promise<void> {
      let q = db.deleteFrom(SESSIONS_TABLE).where('user_id', '=', userId);
      if (deviceId !== undefined) q = q.where('device_id', '=', deviceId);
      await q.execute();
    },

    /** The user's live sessions, the current one first, then the most recently used. */
    async list(userId: number, currentSessionId: string | null): Promise<SessionEntry[]> {
      const at = iso(now());
      const rows = await db
        .selectFrom(SESSIONS_TABLE)
        .selectAll()
        .where('user_id', '=', userId)
        .where('status', '=', 'active')
        .where('expires_at', '>', at)
        .where('absolute_expires_at', '>', at)
        .execute();
      const entries = rows.map((row): SessionEntry => {
        const meta = metadataOf(row);
        return {
          id: row.session_id,
          deviceId: row.device_id,
          ...(typeof meta.deviceName === 'string' ? { deviceName: meta.deviceName } : {}),
          current: currentSessionId !== null && row.session_id === currentSessionId,
          ...(typeof meta.loginAt === 'string' ? { loginAt: meta.loginAt } : {}),
          lastActiveAt: row.created_at,
        };
      });
      return entries.sort((a, b) => (a.current !== b.current ? (a.current ? -1 : 1) : b.lastActiveAt.localeCompare(a.lastActiveAt)));
    },
  };
}

/** The refresh-session manager of users & permissions. */
export type SessionManager = ReturnType<typeof createSessionManager>;
