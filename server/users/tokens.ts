import type * as Jose from 'jose';
import type { JWTPayload } from 'jose';
import { isRecord } from '../errors/is-record.js';

/** What a verified user JWT says: a legacy token names the user; session tokens also name their session. */
export type TokenClaims =
  | { readonly type: 'legacy'; readonly userId: number }
  | { readonly type: 'access' | 'refresh'; readonly userId: number; readonly sessionId: string };

/** A token that is not ours (bad signature, malformed), or ours and past its expiry. */
export type TokenRejection = 'invalid' | 'expired';

const toSeconds = (date: Date) => Math.floor(date.getTime() / 1000);

function claimsOf(payload: JWTPayload): TokenClaims | null {
  const body: Record<string, unknown> = isRecord(payload) ? payload : {};
  if (body.type === 'access' || body.type === 'refresh') {
    const userId = Number(body.userId);
    if (!Number.isSafeInteger(userId) || typeof body.sessionId !== 'string') return null;
    return { type: body.type, userId, sessionId: body.sessionId };
  }
  const id = body.id;
  return typeof id === 'number' && Number.isSafeInteger(id) ? { type: 'legacy', userId: id } : null;
}

/**
 * Signs and verifies end-user JWTs (HS256) with the per-install `jwtSecret`, on the server's clock.
 * Payloads are Strapi's: `{ id }` in legacy-support mode, `{ userId, sessionId, type }` in refresh mode.
 */
export function createUserTokens(deps: { secret: string; now: () => Date }) {
  const key = new TextEncoder().encode(deps.secret);
  // jose is loaded by the first sign or verify, not when the server starts.
  let loaded: Promise<typeof Jose> | null = null;
  const jose = () => (loaded ??= import('jose'));

  async function sign(payload: Record<string, unknown>, issuedAt: Date, expiresAt: Date): Promise<string> {
    const { SignJWT } = await jose();
    return new SignJWT(payload)
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuedAt(toSeconds(issuedAt))
      .setExpirationTime(toSeconds(expiresAt))
      .sign(key);
  }

  return {
    /** A legacy-support JWT `{ id }` valid for `lifespanSeconds`. */
    legacy(userId: number, lifespanSeconds: number): Promise<string> {
      const at = deps.now();
      return sign({ id: userId }, at, new Date(at.getTime() + lifespanSeconds * 1000));
    },
    /** A session token (`access` or `refresh`) for one session, with explicit issue and expiry times. */
    session(args: { type: 'access' | 'refresh'; userId: number; sessionId: string; issuedAt: Date; expiresAt: Date }): Promise<string> {
      return sign({ userId: String(args.userId), sessionId: args.sessionId, type: args.type }, args.issuedAt, args.expiresAt);
    },
    /** Verifies signature and expiry; never throws. */
    async verify(token: string): Promise<TokenClaims | TokenRejection> {
      const { errors, jwtVerify } = await jose();
      try {
        const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'], currentDate: deps.now() });
        return claimsOf(payload) ?? 'invalid';
      } catch (err) {
        return err instanceof errors.JWTExpired ? 'expired' : 'invalid';
      }
    },
  };
}

/** The JWT signer and verifier of users & permissions. */
export type UserTokens = ReturnType<typeof createUserTokens>;
