import { randomUUID } from 'node:crypto';
import type { UsersConfig } from '../config.js';
import { AppError, notFound, unauthorized } from '../errors/app-error.js';
import { UP_LEGACY_JWT_LIFESPAN_S } from '../limits.js';
import type { Logger } from '../logger.js';
import { deviceName } from './device-name.js';
import type { SessionEntry, SessionManager } from './sessions.js';
import type { UserIdentity } from './strategy.js';
import type { UserTokens } from './tokens.js';
import { isRecord } from '../errors/is-record.js';

/** Tokens handed to a user: an access JWT, and in refresh mode the refresh token of a new session. */
export interface IssuedTokens {
  readonly jwt: string;
  readonly refreshToken?: string;
}

/** What opening a session records about the client. */
export interface ClientInfo {
  readonly deviceId?: string;
  readonly userAgent?: string;
}


/** `deviceId` from a body, as Strapi's `extractDeviceId` reads it: a non-empty string or nothing. */
export function deviceIdOf(body: unknown): string | undefined {
  const id = isRecord(body) ? body.deviceId : undefined;
  return typeof id === 'string' && id.length > 0 ? id : undefined;
}

/**
 * Issuing, refreshing and revoking end-user tokens in the configured mode: one 30-day JWT in
 * `legacy-support`, access tokens plus rotating refresh sessions in `refresh` (whose own routes
 * answer 404 in legacy mode, as Strapi's do).
 */
export function createSessionFlows(deps: { config: UsersConfig; tokens: UserTokens; sessions: SessionManager; now: () => Date; log: Logger }) {
  const { config, tokens, sessions } = deps;
  const refreshMode = config.jwtManagement === 'refresh';

  function requireRefreshMode(): void {
    if (!refreshMode) throw notFound();
  }

  function requireIdentity(identity: UserIdentity | undefined): UserIdentity {
    if (!identity) throw unauthorized('Missing authentication');
    return identity;
  }

  const flows = {
    refreshMode,

    /** Tokens for a user who just proved who they are: a new session in refresh mode. */
    async issue(userId: number, client: ClientInfo): Promise<IssuedTokens> {
      if (!refreshMode) return { jwt: await tokens.legacy(userId, UP_LEGACY_JWT_LIFESPAN_S) };
      const name = deviceName(client.userAgent);
      const metadata = { loginAt: deps.now().toISOString(), ...(name ? { deviceName: name } : {}) };
      const refresh = await sessions.open({ userId, deviceId: client.deviceId ?? randomUUID(), metadata });
      const jwt = await sessions.accessToken(refresh.token);
      if (jwt === null) throw new AppError('ApplicationError', 'Invalid credentials');
      return { jwt, refreshToken: refresh.token };
    },

    /** After a password change or reset: every session of the user ends, and a new one opens. */
    async reissue(userId: number, client: ClientInfo): Promise<IssuedTokens> {
      if (refreshMode) await sessions.revokeAll(userId);
      return flows.issue(userId, client);
    },

    /** `POST /api/auth/refresh`: rotates the refresh token and issues an access token. */
    async refresh(token: unknown): Promise<{ jwt: string; refreshToken: string }> {
      requireRefreshMode();
      if (typeof token !== 'string' || token === '') throw new AppError('BadRequestError', 'Missing refresh token', {});
      const rotated = await sessions.rotate(token);
      const jwt = rotated ? await sessions.accessToken(rotated.token) : null;
      if (!rotated || jwt === null) throw unauthorized('Invalid refresh token');
      return { jwt, refreshToken: rotated.token };
    },

    /** `POST /api/auth/logout`: the current session by default, one device, or every session (`scope: 'all'`). */
    async logout(args: { identity: UserIdentity | undefined; body: unknown; presentedToken: string | undefined }): Promise<void> {
      requireRefreshMode();
      const { userId, sessionId } = requireIdentity(args.identity);
      const scope = isRecord(args.body) ? args.body.scope : undefined;
      const deviceId = deviceIdOf(args.body);
      try {
        if (scope === 'all') return await sessions.revokeAll(userId);
        if (deviceId !== undefined) return await sessions.revokeAll(userId, deviceId);
        const named = args.presentedToken ? await sessions.validate(args.presentedToken) : null;
        const current = named?.sessionId ?? sessionId;
        if (current !== null) await sessions.revoke(userId, current);
        else await sessions.revokeAll(userId);
      } catch (err) {
        deps.log(`UP logout failed: ${err instanceof Error ? err.message : String(err)}`);
      }
    },

    /** `GET /api/auth/sessions`. */
    async list(identity: UserIdentity | undefined): Promise<SessionEntry[]> {
      requireRefreshMode();
      const { userId, sessionId } = requireIdentity(identity);
      return sessions.list(userId, sessionId);
    },

    /** `DELETE /api/auth/sessions/:sessionId`. */
    async revoke(identity: UserIdentity | undefined, sessionId: string): Promise<void> {
      requireRefreshMode();
      const { userId } = requireIdentity(identity);
      if (!(await sessions.revoke(userId, sessionId))) throw notFound('Session not found');
    },
  };
  return flows;
}

/** Token issuing and session handling of users & permissions. */
export type SessionFlows = ReturnType<typeof createSessionFlows>;
