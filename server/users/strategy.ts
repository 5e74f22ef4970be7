import type { BearerStrategy, Caller } from '../auth/caller.js';
import type { PermissionService } from '../auth/permissions.js';
import type { UsersConfig } from '../config.js';
import { unauthorized } from '../errors/app-error.js';
import type { AccountService } from './accounts.js';
import type { RoleService } from './roles.js';
import type { SessionManager } from './sessions.js';
import type { UserTokens } from './tokens.js';

/** Who a user caller is: the user, and in refresh mode the session its access token belongs to. */
export interface UserIdentity {
  readonly userId: number;
  readonly sessionId: string | null;
}

/** What the user JWT strategy checks a token against. */
export interface StrategyDeps {
  readonly config: UsersConfig;
  readonly tokens: UserTokens;
  readonly sessions: SessionManager;
  readonly accounts: AccountService;
  readonly roles: RoleService;
  readonly permissions: PermissionService;
}

/**
 * End-user JWTs as a bearer strategy: a refresh-mode access token (its session still open) or a
 * legacy-support JWT, per the configured mode. A string that is not one of our JWTs is left to the
 * next strategy; ours but expired, revoked, or naming a missing or blocked user is a 401. The
 * caller may do exactly what the user's role may do.
 */
export function userJwtStrategy(deps: StrategyDeps): { strategy: BearerStrategy; identify(caller: Caller): UserIdentity | undefined } {
  const identities = new WeakMap<Caller, UserIdentity>();
  const strategy: BearerStrategy = {
    kind: 'user',
    async verify(credential) {
      const claims = await deps.tokens.verify(credential);
      if (claims === 'invalid') return null;
      if (claims === 'expired') throw unauthorized();
      const refreshMode = deps.config.jwtManagement === 'refresh';
      if (refreshMode ? claims.type !== 'access' : claims.type !== 'legacy') return null;
      const sessionId = claims.type === 'access' ? claims.sessionId : null;
      if (sessionId !== null && !(await deps.sessions.isActive(sessionId))) throw unauthorized();
      const user = await deps.accounts.row(claims.userId);
      if (!user || user.blocked === 1) throw unauthorized('Invalid credentials');
      const role = await deps.roles.ofUser(claims.userId);
      const granted = new Set(role ? await deps.permissions.list(role.type) : []);
      const caller: Caller = { kind: 'user', id: claims.userId, allows: (action) => granted.has(action), ...(role ? { cacheKey: `role:${role.id}` } : {}) };
      identities.set(caller, { userId: claims.userId, sessionId });
      return caller;
    },
  };
  return { strategy, identify: (caller) => identities.get(caller) };
}
