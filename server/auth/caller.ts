import { tokenAllows, type TokenService } from './api-tokens.js';
import type { PermissionService } from './permissions.js';
import { unauthorized } from '../errors/app-error.js';

/** Who is calling the content or upload API, and what they may do. */
export interface Caller {
  /** `public`: no Authorization header; `admin`: an admin session (full access). */
  readonly kind: 'public' | 'api-token' | 'user' | 'admin';
  /** The id of the API token, user or admin behind the request; null for the public role. */
  readonly id: number | null;
  /** Whether the caller may perform an action (`api::article.article.find`, ...). */
  allows(action: string): boolean;
  /**
   * Names the caller's permission set, so answers can be cached per set (`public`, `token:7`,
   * `role:2`, `admin`); absent: this caller's answers are never cached.
   */
  readonly cacheKey?: string;
}

/**
 * One kind of bearer credential (API token, user JWT, admin session). `verify` answers null when
 * the string is not a credential of its kind, so the next strategy may try it; a credential of its
 * kind that is expired or revoked throws the 401 itself.
 */
export interface BearerStrategy {
  readonly kind: Exclude<Caller['kind'], 'public'>;
  verify(credential: string): Promise<Caller | null>;
}

/** The public role: what requests without an Authorization header may do. */
export async function publicCaller(permissions: PermissionService): Promise<Caller> {
  const granted = new Set(await permissions.list('public'));
  return { kind: 'public', id: null, allows: (action) => granted.has(action), cacheKey: 'public' };
}

/** API tokens (read-only, full-access, custom) as a bearer strategy. */
export function apiTokenStrategy(tokens: TokenService): BearerStrategy {
  return {
    kind: 'api-token',
    async verify(credential) {
      const check = await tokens.verify(credential);
      if (check.ok) return { kind: 'api-token', id: check.token.id, allows: (action) => tokenAllows(check.token, action), cacheKey: `token:${check.token.id}` };
      if (check.reason === 'expired') throw unauthorized('Token expired');
      return null;
    },
  };
}
