import type { Request, Response } from 'express';
import type { RateLimitRequestHandler } from 'express-rate-limit';
import { rateLimitStore } from '../auth/rate-limit-store.js';
import type { Database } from '../db/database.js';
import { AppError } from '../errors/app-error.js';
import { UP_RATE_LIMIT_MAX, UP_RATE_LIMIT_WINDOW_MS } from '../limits.js';

/** Routes whose key carries the e-mail of the body (Strapi keys the rest by path and IP only). */
const EMAIL_KEYED = new Set(['/api/auth/local/register', '/api/auth/forgot-password', '/api/auth/send-email-confirmation']);
const BODY = 'hearthRateLimitBody';
/** The REST path a GraphQL auth mutation counts as (`/api/auth/local` for `login`). */
const PATH = 'hearthRateLimitPath';

/** Strapi's key: `<email or noIdentifier>:<normalised path>:<ip>` (users-permissions `rateLimit`). */
function keyOf(req: Request, res: Response, ipKeyGenerator: (ip: string) => string): string {
  const as: unknown = res.locals[PATH];
  const path = (typeof as === 'string' ? as : req.originalUrl).split('?')[0]?.toLowerCase().replace(/\/{2,}/g, '/').replace(/(.)\/+$/, '$1') ?? '';
  const body: unknown = res.locals[BODY];
  const email = typeof body === 'object' && body !== null ? (body as Record<string, unknown>).email : undefined;
  const identifier = EMAIL_KEYED.has(path) ? (typeof email === 'string' ? email.toLowerCase() : 'unknownIdentifier') : 'noIdentifier';
  return `${identifier}:${path}:${ipKeyGenerator(req.ip ?? '')}`;
}

export type AuthRateLimit = (req: Request, res: Response, body: unknown, path?: string) => Promise<void>;

/**
 * The login/register limiter: 10 requests per key and minute, then 429 `RateLimitError` in
 * Strapi's envelope. Runs after the permission check and once the body is read, as Strapi's
 * route middleware does. Windows run on the server's clock (tests move time instead of sleeping).
 * The app creates one (app.ts): the REST routes and the GraphQL auth mutations (`path`: the route
 * they count as) share its budget.
 */
export function createAuthRateLimit({ now, database }: { now: () => Date; database: Database }): AuthRateLimit {
  // Counted in the database on PostgreSQL, so every instance on it counts the same hits.
  const store = rateLimitStore({ database, now, prefix: 'users-permissions' });
  // express-rate-limit is loaded by the first limited request, not when the server starts.
  let loaded: Promise<RateLimitRequestHandler> | null = null;
  const load = () =>
    (loaded ??= import('express-rate-limit').then(({ ipKeyGenerator, rateLimit }) =>
      rateLimit({
        windowMs: UP_RATE_LIMIT_WINDOW_MS,
        limit: UP_RATE_LIMIT_MAX,
        legacyHeaders: true,
        standardHeaders: false,
        validate: false,
        store,
        keyGenerator: (req, res) => keyOf(req, res, ipKeyGenerator),
        handler: (_req, _res, next) => next(new AppError('RateLimitError', 'Too many requests, please try again later.', {})),
      }),
    ));
  return async (req, res, body, path) => {
    const limiter = await load();
    return new Promise<void>((resolve, reject) => {
      res.locals[BODY] = body;
      res.locals[PATH] = path;
      void limiter(req, res, (err?: unknown) => (err === undefined ? resolve() : reject(err)));
    });
  };
}
