import type { IncomingHttpHeaders } from 'node:http';
import type { CallerMemo } from '../auth/caller-memo.js';
import { publicCaller, type BearerStrategy, type Caller } from '../auth/caller.js';
import type { PermissionService } from '../auth/permissions.js';
import { forbidden, unauthorized } from '../errors/app-error.js';

export type { Caller } from '../auth/caller.js';

/** What authentication needs: the public role's permissions and the bearer strategies, in order. */
export interface AuthDeps {
  readonly permissions: PermissionService;
  readonly bearer: readonly BearerStrategy[];
  /** Who recent credentials resolved to (see caller-memo.ts); absent, every request resolves afresh. */
  readonly callers?: CallerMemo;
}

/** What authentication reads of a request: its headers. */
type WithHeaders = { readonly headers: IncomingHttpHeaders };

/** The bearer credential of `Authorization`, undefined without the header; a malformed header is a 401. */
export function bearerOf(req: WithHeaders): string | undefined {
  const header = req.headers.authorization;
  if (header === undefined) return undefined;
  const parts = header.trim().split(/\s+/);
  if (parts.length !== 2 || parts[0]?.toLowerCase() !== 'bearer' || !parts[1]) throw unauthorized();
  return parts[1];
}

/**
 * Resolves the caller from `Authorization`: none is the public role; a credential no strategy
 * accepts is a 401. `fresh`: the change stamp read from the database for this request (the
 * response cache's front door on PostgreSQL), under which the caller memo is used.
 */
export async function authenticate(req: WithHeaders, deps: AuthDeps, fresh?: string | null): Promise<Caller> {
  const credential = bearerOf(req);
  // The memo's key: the credential, or the empty string for the public role (never a credential).
  const key = credential ?? '';
  const stamp = fresh !== undefined ? fresh : (deps.callers?.stamp() ?? null);
  const known = stamp === null ? undefined : deps.callers?.get(key, stamp);
  if (known !== undefined) return known;
  const caller = await resolveCaller(credential, deps);
  if (stamp !== null) deps.callers?.set(key, stamp, caller, fresh !== undefined);
  return caller;
}

async function resolveCaller(credential: string | undefined, deps: AuthDeps): Promise<Caller> {
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
