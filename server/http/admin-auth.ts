import { createHash, timingSafeEqual } from 'node:crypto';
import express, { type NextFunction, type Request, type Response } from 'express';
import type { RateLimitRequestHandler } from 'express-rate-limit';
import type { AdminUser } from '../admin/admin-users.js';
import type { AdminSession } from '../admin/sessions.js';
import { rateLimitStore } from '../auth/rate-limit-store.js';
import { AppError, unauthorized } from '../errors/app-error.js';
import { ADMIN_LOGIN_RATE_LIMIT, ADMIN_LOGIN_RATE_WINDOW_MS } from '../limits.js';
import type { Services } from '../services.js';
import { objectBody, optionalString, requiredString } from './admin-input.js';
import { bearerOf } from './caller.js';
import { sendError, sendJson } from './respond.js';

/** The admin behind a request that passed the session check. */
export interface AdminCaller {
  readonly session: AdminSession;
  readonly user: AdminUser;
}

/** The session check of the admin API, and the admin it found for each request. */
export interface SessionGuard {
  /** Middleware: 401 unless `Authorization` carries a live admin session. */
  readonly require: (req: Request, res: Response, next: NextFunction) => Promise<void>;
  /** The admin of a request that passed `require`. */
  caller(req: Request): AdminCaller;
}

/** Builds the session check; API tokens, user JWTs and anything else are 401 here. */
export function sessionGuard(services: Services): SessionGuard {
  const callers = new WeakMap<Request, AdminCaller>();
  return {
    async require(req, _res, next) {
      const token = bearerOf(req);
      if (token === undefined) throw unauthorized();
      const check = await services.admin.sessions.verify(token);
      if (!check.ok) throw unauthorized();
      const user = await services.admin.users.get(check.session.userId);
      if (!user) throw unauthorized();
      callers.set(req, { session: check.session, user });
      next();
    },
    caller(req) {
      const caller = callers.get(req);
      if (!caller) throw unauthorized();
      return caller;
    },
  };
}

/** Whether the presented desktop secret is the per-launch one, compared in constant time (hashes have one length). */
function desktopSecretMatches(expected: string | null, presented: unknown): boolean {
  if (expected === null || typeof presented !== 'string') return false;
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(expected), digest(presented));
}

/** The public routes: first-run state, owner registration, login (failed attempts rate-limited per IP), desktop sessions. */
export function publicAdminRoutes(services: Services): express.Router {
  const router = express.Router();
  const { users, sessions } = services.admin;
  // express-rate-limit is loaded by the first login, not when the server starts.
  let limiter: Promise<RateLimitRequestHandler> | null = null;
  const loginLimit: express.RequestHandler = async (req, res, next) => {
    limiter ??= import('express-rate-limit').then(({ rateLimit }) =>
      rateLimit({
        windowMs: ADMIN_LOGIN_RATE_WINDOW_MS,
        limit: ADMIN_LOGIN_RATE_LIMIT,
        standardHeaders: 'draft-7',
        legacyHeaders: false,
        // Only failed attempts count: a brute force is stopped, a busy admin script that logs in correctly is not.
        skipSuccessfulRequests: true,
        validate: false,
        // Counted in the database on PostgreSQL, so every instance on it counts the same attempts.
        store: rateLimitStore({ database: services.database, now: services.now, prefix: 'admin-login' }),
        handler: (_req, res) => sendError(res, new AppError('RateLimitError', 'Too many requests, please try again later.', {})),
      }),
    );
    await (await limiter)(req, res, next);
  };

  router.get('/init', async (_req, res) => {
    sendJson(res, 200, { data: { hasAdmin: await users.hasAdmin(), desktop: services.desktopSecret !== null } });
  });

  router.post('/register-admin', async (req, res) => {
    if (await users.hasAdmin()) throw new AppError('ApplicationError', 'You cannot register a new super admin', {});
    const body = await objectBody(req);
    const input = {
      email: requiredString(body, 'email'),
      password: requiredString(body, 'password'),
      firstname: optionalString(body, 'firstname', { nullable: true }) ?? null,
      lastname: optionalString(body, 'lastname', { nullable: true }) ?? null,
    };
    const user = await users.registerOwner(input);
    sendJson(res, 201, { data: { token: await sessions.open(user.id, 'register'), user } });
  });

  router.post('/login', loginLimit, async (req, res) => {
    const body = await objectBody(req);
    const email = requiredString(body, 'email');
    const password = requiredString(body, 'password');
    const user = await users.authenticate(email, password);
    if (!user) throw new AppError('ValidationError', 'Invalid credentials', {});
    sendJson(res, 200, { data: { token: await sessions.open(user.id, 'password'), user } });
  });

  router.post('/desktop-session', async (req, res) => {
    const body = await objectBody(req);
    if (!desktopSecretMatches(services.desktopSecret, body.secret)) throw unauthorized();
    const user = await users.localOwner();
    sendJson(res, 200, { data: { token: await sessions.open(user.id, 'desktop'), user } });
  });
  return router;
}

/** The routes of the signed-in admin: logout and their own profile. */
export function sessionAdminRoutes(services: Services, guard: SessionGuard): express.Router {
  const router = express.Router();
  const { users, sessions } = services.admin;

  router.post('/logout', async (req, res) => {
    await sessions.revoke(guard.caller(req).session.id);
    sendJson(res, 200, { data: {} });
  });

  router.get('/users/me', (req, res) => {
    sendJson(res, 200, { data: guard.caller(req).user });
  });

  router.put('/users/me', async (req, res) => {
    const { session, user } = guard.caller(req);
    const body = await objectBody(req);
    const changes = {
      firstname: optionalString(body, 'firstname', { nullable: true }),
      lastname: optionalString(body, 'lastname', { nullable: true }),
      email: optionalString(body, 'email') ?? undefined,
      currentPassword: optionalString(body, 'currentPassword') ?? undefined,
      password: optionalString(body, 'password') ?? undefined,
    };
    const updated = await users.update(user.id, changes);
    if (!updated) throw unauthorized();
    // A new password ends the admin's other sessions: whoever knew the old one is signed out.
    if (updated.passwordChanged) await sessions.revokeUser(user.id, session.id);
    sendJson(res, 200, { data: updated.user });
  });
  return router;
}
