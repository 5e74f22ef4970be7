import type { Request, Response } from 'express';
import type { ClientRateLimitInfo, Options, RateLimitRequestHandler, Store } from 'express-rate-limit';
import { AppError } from '../errors/app-error.js';
import { UP_RATE_LIMIT_MAX, UP_RATE_LIMIT_WINDOW_MS } from '../limits.js';

/** Routes whose key carries the e-mail of the body (Strapi keys the rest by path and IP only). */
const EMAIL_KEYED = new Set(['/api/auth/local/register', '/api/auth/forgot-password', '/api/auth/send-email-confirmation']);
const BODY = 'hearthRateLimitBody';

/** Fixed windows counted on the server's clock (so tests can move time instead of sleeping). */
function clockStore(now: () => Date): Store {
  const hits = new Map<string, { count: number; resetAt: number }>();
  let windowMs = UP_RATE_LIMIT_WINDOW_MS;
  const sweep = (at: number) => {
    for (const [key, entry] of hits) if (entry.resetAt <= at) hits.delete(key);
  };
  return {
    localKeys: true,
    init(options: Options) {
      windowMs = options.windowMs;
    },
    increment(key: string): ClientRateLimitInfo {
      const at = now().getTime();
      if (hits.size > 10_000) sweep(at);
      let entry = hits.get(key);
      if (!entry || entry.resetAt <= at) entry = { count: 0, resetAt: at + windowMs };
      entry.count += 1;
      hits.set(key, entry);
      return { totalHits: entry.count, resetTime: new Date(entry.resetAt) };
    },
    decrement(key: string) {
      const entry = hits.get(key);
      if (entry && entry.count > 0) entry.count -= 1;
    },
    resetKey(key: string) {
      hits.delete(key);
    },
  };
}

/** Strapi's key: `<email or noIdentifier>:<normalised path>:<ip>` (users-permissions `rateLimit`). */
function keyOf(req: Request, res: Response, ipKeyGenerator: (ip: string) => string): string {
  const path = req.originalUrl.split('?')[0]?.toLowerCase().replace(/\/{2,}/g, '/').replace(/(.)\/+$/, '$1') ?? '';
  const body: unknown = res.locals[BODY];
  const email = typeof body === 'object' && body !== null ? (body as Record<string, unknown>).email : undefined;
  const identifier = EMAIL_KEYED.has(path) ? (typeof email === 'string' ? email.toLowerCase() : 'unknownIdentifier') : 'noIdentifier';
  return `${identifier}:${path}:${ipKeyGenerator(req.ip ?? '')}`;
}

/**
 * The login/register limiter: 10 requests per key and minute, then 429 `RateLimitError` in
 * Strapi's envelope. Runs after the permission check and once the body is read, as Strapi's
 * route middleware does.
 */
export function createAuthRateLimit(now: () => Date): (req: Request, res: Response, body: unknown) => Promise<void> {
  const store = clockStore(now);
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
  return async (req, res, body) => {
    const limiter = await load();
    return new Promise<void>((resolve, reject) => {
      res.locals[BODY] = body;
      void limiter(req, res, (err?: unknown) => (err === undefined ? resolve() : reject(err)));
    });
  };
}
