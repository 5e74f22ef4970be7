import type { Request, Response, Router } from 'express';
import { applicationError } from '../errors/app-error.js';
import type { Services } from '../services.js';
import type { AuthAnswer } from '../users/auth-flows.js';
import { originPolicy } from './guards.js';
import type { AuthRateLimit } from './users-rate-limit.js';
import { clearRefreshCookie, refreshCookieOf, setRefreshCookie, usesCookie } from './users-cookie.js';
import { only, userRoute, type BeforeHandler } from './users-route.js';
import { sendJson } from './respond.js';
import { isRecord } from '../errors/is-record.js';

const AUTH = 'plugin::users-permissions.auth';
const userAgentOf = (req: Request) => req.headers['user-agent'];

/**
 * Sends `{ jwt, user }` (legacy mode), or in refresh mode the refresh token: in the cookie for a
 * login (body without it), in the body otherwise (the password routes also set the cookie).
 */
function sendAnswer(services: Services, req: Request, res: Response, answer: AuthAnswer, kind: 'login' | 'password'): void {
  const { config } = services.users;
  const { jwt, refreshToken, user } = answer;
  if (refreshToken === undefined) return sendJson(res, 200, { jwt, user });
  if (!usesCookie(req, config)) return sendJson(res, 200, { jwt, refreshToken, user });
  setRefreshCookie(res, refreshToken, config);
  sendJson(res, 200, kind === 'login' ? { jwt, user } : { jwt, refreshToken, user });
}

/** Login and registration (rate-limited), and the disabled OAuth providers. */
function mountLoginRoutes(router: Router, services: Services, limit: BeforeHandler): void {
  const { auth } = services.users;
  router.post(
    '/auth/local',
    userRoute(services, `${AUTH}.callback`, async ({ req, res, body, access }) => {
      sendAnswer(services, req, res, await auth.login({ body, access, userAgent: userAgentOf(req) }), 'login');
    }, { body: true, before: limit }),
  );
  router.all('/auth/local', only(['POST']));
  router.post(
    '/auth/local/register',
    userRoute(services, `${AUTH}.register`, async ({ req, res, body, access }) => {
      // Strapi answers the refresh token of a registration in the body, whatever the cookie setting.
      const { jwt, refreshToken, user } = await auth.register({ body, access, userAgent: userAgentOf(req) });
      sendJson(res, 200, refreshToken === undefined ? { jwt, user } : { jwt, refreshToken, user });
    }, { body: true, before: limit }),
  );
  router.all('/auth/local/register', only(['POST']));
  const disabled = async () => {
    throw applicationError('This provider is disabled');
  };
  router.get('/connect/*provider', userRoute(services, `${AUTH}.connect`, disabled));
  router.get('/auth/:provider/callback', userRoute(services, `${AUTH}.callback`, disabled));
}

/** Password change, reset and forgotten password, and the e-mail confirmation routes. */
function mountPasswordRoutes(router: Router, services: Services, limit: BeforeHandler): void {
  const { auth } = services.users;
  router.post(
    '/auth/change-password',
    userRoute(services, `${AUTH}.changePassword`, async ({ req, res, body, access, identity }) => {
      sendAnswer(services, req, res, await auth.changePassword({ body, access, identity, userAgent: userAgentOf(req) }), 'password');
    }, { body: true, before: limit }),
  );
  router.post(
    '/auth/reset-password',
    userRoute(services, `${AUTH}.resetPassword`, async ({ req, res, body, access }) => {
      sendAnswer(services, req, res, await auth.resetPassword({ body, access, userAgent: userAgentOf(req) }), 'password');
    }, { body: true, before: limit }),
  );
  router.post(
    '/auth/forgot-password',
    userRoute(services, `${AUTH}.forgotPassword`, async ({ res, body }) => sendJson(res, 200, await auth.forgotPassword(body)), { body: true, before: limit }),
  );
  router.post(
    '/auth/send-email-confirmation',
    userRoute(services, `${AUTH}.sendEmailConfirmation`, async ({ res, body }) => sendJson(res, 200, await auth.sendEmailConfirmation(body)), { body: true, before: limit }),
  );
  router.get('/auth/email-confirmation', userRoute(services, `${AUTH}.emailConfirmation`, async ({ query }) => auth.emailConfirmation(query)));
  for (const path of ['/auth/change-password', '/auth/reset-password', '/auth/forgot-password', '/auth/send-email-confirmation']) router.all(path, only(['POST']));
  router.all('/auth/email-confirmation', only(['HEAD', 'GET']));
}

/**
 * Refresh mode's routes: refresh, logout, the sessions list. A request from an origin not allowed
 * credentials neither reads nor sets the refresh cookie: it answers as the body mode does.
 */
function mountSessionRoutes(router: Router, services: Services): void {
  const { sessionFlows, config } = services.users;
  const policy = originPolicy(services.config);
  const cookieMode = (req: Request) => policy.allowsCredentials(req) && usesCookie(req, config);
  router.post(
    '/auth/refresh',
    userRoute(services, `${AUTH}.refresh`, async ({ req, res, body }) => {
      const presented = refreshCookieOf(req, policy) ?? (isRecord(body) ? body.refreshToken : undefined);
      const { jwt, refreshToken } = await sessionFlows.refresh(presented);
      if (!cookieMode(req)) return sendJson(res, 200, { jwt, refreshToken });
      setRefreshCookie(res, refreshToken, config);
      sendJson(res, 200, { jwt });
    }, { body: true }),
  );
  router.post(
    '/auth/logout',
    userRoute(services, `${AUTH}.logout`, async ({ req, res, body, identity }) => {
      const fromBody = isRecord(body) && typeof body.refreshToken === 'string' ? body.refreshToken : undefined;
      await sessionFlows.logout({ identity, body, presentedToken: refreshCookieOf(req, policy) ?? fromBody });
      if (cookieMode(req)) clearRefreshCookie(res, config);
      sendJson(res, 200, { ok: true });
    }, { body: true }),
  );
  router.get('/auth/sessions', userRoute(services, `${AUTH}.getSessions`, async ({ res, identity }) => sendJson(res, 200, { data: await sessionFlows.list(identity) })));
  router.delete(
    '/auth/sessions/:sessionId',
    userRoute(services, `${AUTH}.revokeSession`, async ({ req, res, identity }) => {
      await sessionFlows.revoke(identity, String(req.params.sessionId));
      sendJson(res, 200, { data: {} });
    }),
  );
  for (const path of ['/auth/refresh', '/auth/logout']) router.all(path, only(['POST']));
  router.all('/auth/sessions', only(['HEAD', 'GET']));
  router.all('/auth/sessions/:sessionId', only(['DELETE']));
}

/**
 * The auth routes of users & permissions under `/api/auth` (and the disabled OAuth `/api/connect`),
 * each checked against its `plugin::users-permissions.auth.*` action.
 */
export function mountAuthRoutes(router: Router, services: Services, limit: AuthRateLimit): void {
  mountLoginRoutes(router, services, limit);
  mountPasswordRoutes(router, services, limit);
  mountSessionRoutes(router, services);
}
