import type { Request } from 'express';
import { tokenAllows, type ApiToken, type TokenService } from '../auth/api-tokens.js';
import type { PermissionService } from '../auth/permissions.js';
import { forbidden, unauthorized } from '../errors/app-error.js';

/** Who is calling the content API, and what they may do. */
export interface Caller {
  readonly kind: 'public' | 'api-token';
  readonly token: ApiToken | null;
  /** Whether the caller may perform an action (`api::article.article.find`, ...). */
  allows(action: string): boolean;
}

/** Resolves the caller from `Authorization`: none is the public role; a bad or expired token is a 401. */
export async function authenticate(req: Request, deps: { tokens: TokenService; permissions: PermissionService }): Promise<Caller> {
  const header = req.headers.authorization;
  if (header === undefined) {
    const granted = new Set(await deps.permissions.list('public'));
    return { kind: 'public', token: null, allows: (action) => granted.has(action) };
  }
  const parts = header.trim().split(/\s+/);
  if (parts.length !== 2 || parts[0]?.toLowerCase() !== 'bearer' || !parts[1]) throw unauthorized();
  const check = await deps.tokens.verify(parts[1]);
  if (!check.ok) throw unauthorized(check.reason === 'expired' ? 'Token expired' : 'Missing or invalid credentials');
  const token = check.token;
  return { kind: 'api-token', token, allows: (action) => tokenAllows(token, action) };
}

/** 403 unless the caller may perform the action. */
export function authorize(caller: Caller, action: string): void {
  if (!caller.allows(action)) throw forbidden();
}
