import type { Request } from 'express';
import { publicCaller, type BearerStrategy, type Caller } from '../auth/caller.js';
import type { PermissionService } from '../auth/permissions.js';
import { forbidden, unauthorized } from '../errors/app-error.js';

export type { Caller } from '../auth/caller.js';

/** What authentication needs: the public role's permissions and the bearer strategies, in order. */
export interface AuthDeps {
  readonly permissions: PermissionService;
  readonly bearer: readonly BearerStrategy[];
}

/** The bearer credential of `Authorization`, undefined without the header; a malformed header is a 401. */
export function bearerOf(req: Request): string | undefined {
  const header = req.headers.authorization;
  if (header === undefined) return undefined;
  const parts = header.trim().split(/\s+/);
  if (parts.length !== 2 || parts[0]?.toLowerCase() !== 'bearer' || !parts[1]) throw unauthorized();
  return parts[1];
}

/** Resolves the caller from `Authorization`: none is the public role; a credential no strategy accepts is a 401. */
export async function authenticate(req: Request, deps: AuthDeps): Promise<Caller> {
  const credential = bearerOf(req);
  if (credential === undefined) return publicCaller(deps.permissions);
  for (const strategy of deps.bearer) {
    const caller = await strategy.verify(credential);
    if (caller) return caller;
  }
  throw unauthorized();
}

/** 403 unless the caller may perform the action. */
export function authorize(caller: Caller, action: string): void {
  if (!caller.allows(action)) throw forbidden();
}
