import type { BearerStrategy } from '../auth/caller.js';
import type { Db } from '../db/database.js';
import { unauthorized } from '../errors/app-error.js';
import { createAdminUsers, type AdminUsers } from './admin-users.js';
import { createSessions, type Sessions } from './sessions.js';

/** Admin accounts and their sessions. */
export interface AdminServices {
  readonly users: AdminUsers;
  readonly sessions: Sessions;
}

/** Builds the admin accounts and sessions over one database. */
export function createAdminServices(deps: { db: Db; now: () => Date }): AdminServices {
  return { users: createAdminUsers(deps), sessions: createSessions(deps) };
}

/**
 * Admin sessions as a bearer strategy of the content and upload APIs: a live session may do
 * anything there (caller kind `admin`); an expired one is a 401 of its own, anything else is
 * left to the next strategy.
 */
export function adminSessionStrategy(sessions: Sessions): BearerStrategy {
  return {
    kind: 'admin',
    async verify(credential) {
      const check = await sessions.verify(credential);
      if (check.ok) return { kind: 'admin', id: check.session.userId, allows: () => true, cacheKey: 'admin' };
      if (check.reason === 'expired') throw unauthorized();
      return null;
    },
  };
}
