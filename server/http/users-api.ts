import express, { type Router } from 'express';
import { notFound, unauthorized, validationError } from '../errors/app-error.js';
import type { Services } from '../services.js';
import { actionsFromInput, actionsMap } from '../users/actions.js';
import { readUserQuery, userWindow } from '../users/user-query.js';
import { mountAuthRoutes } from './users-auth.js';
import type { AuthRateLimit } from './users-rate-limit.js';
import { only, userRoute, type UserRouteContext } from './users-route.js';
import { sendJson } from './respond.js';
import { isRecord } from '../errors/is-record.js';

const USER = 'plugin::users-permissions.user';
const ROLE = 'plugin::users-permissions.role';
/** A numeric path id; anything else matches nothing. */
const pathId = (value: unknown): number => (typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : Number.NaN);

/** The users routes (`/api/users*`): bare arrays and objects, as the users-permissions controllers answer. */
function mountUserRoutes(router: Router, services: Services): void {
  const { users } = services;
  const queryOf = ({ query, access }: UserRouteContext) => readUserQuery(query, services.registry(), access.canRead);

  router.get('/users/count', userRoute(services, `${USER}.count`, async (ctx) => sendJson(ctx.res, 200, await users.accounts.count(queryOf(ctx)))));
  router.all('/users/count', only(['HEAD', 'GET']));

  router.get(
    '/users/me',
    userRoute(services, `${USER}.me`, async (ctx) => {
      if (!ctx.identity) throw unauthorized('Unauthorized');
      const user = await users.accounts.one(ctx.identity.userId, queryOf(ctx), ctx.access);
      if (!user) throw unauthorized('Unauthorized');
      sendJson(ctx.res, 200, user);
    }),
  );
  router.all('/users/me', only(['HEAD', 'GET']));

  router.get(
    '/users',
    userRoute(services, `${USER}.find`, async (ctx) => {
      const { config } = services;
      const window = userWindow(ctx.query, { defaultLimit: config.defaultLimit, maxLimit: config.maxLimit });
      sendJson(ctx.res, 200, await users.accounts.list(queryOf(ctx), window, ctx.access));
    }),
  );
  router.post(
    '/users',
    userRoute(services, `${USER}.create`, async (ctx) => sendJson(ctx.res, 201, await users.admin.create(ctx.body, ctx.access)), { body: true }),
  );
  router.all('/users', only(['HEAD', 'GET', 'POST']));

  router.get(
    '/users/:id',
    userRoute(services, `${USER}.findOne`, async (ctx) => {
      const user = await users.accounts.one(pathId(ctx.req.params.id), queryOf(ctx), ctx.access);
      // Strapi's controller sets a null body: Koa answers 204 No Content.
      if (user === null) ctx.res.status(204).end();
      else sendJson(ctx.res, 200, user);
    }),
  );
  router.put(
    '/users/:id',
    userRoute(services, `${USER}.update`, async (ctx) => sendJson(ctx.res, 200, await users.admin.update(pathId(ctx.req.params.id), ctx.body, ctx.access)), { body: true }),
  );
  router.delete(
    '/users/:id',
    userRoute(services, `${USER}.destroy`, async (ctx) => {
      const user = await users.admin.remove(pathId(ctx.req.params.id), ctx.access);
      // As findOne: Strapi sends the null it gets for an unknown id, which Koa answers 204.
      if (user === null) ctx.res.status(204).end();
      else sendJson(ctx.res, 200, user);
    }),
  );
  router.all('/users/:id', only(['HEAD', 'GET', 'PUT', 'DELETE']));
}

/** A role body of the content API: Strapi's nested permissions map (or a plain list) becomes action names. */
function roleBody(body: unknown): unknown {
  if (!isRecord(body) || Object.keys(body).length === 0) throw validationError('Request body cannot be empty');
  return body.permissions === undefined ? body : { ...body, permissions: actionsFromInput(body.permissions) };
}

/** The roles routes of the content API (`/api/users-permissions/roles*`), answered as Strapi's role controller does. */
function mountRoleRoutes(router: Router, services: Services): void {
  const { roles } = services.users;
  const base = '/users-permissions/roles';
  router.get(base, userRoute(services, `${ROLE}.find`, async ({ res }) => sendJson(res, 200, { roles: await roles.list() })));
  router.post(
    base,
    userRoute(services, `${ROLE}.createRole`, async ({ res, body }) => {
      await roles.create(roleBody(body));
      sendJson(res, 200, { ok: true });
    }, { body: true }),
  );
  router.all(base, only(['HEAD', 'GET', 'POST']));
  router.get(
    `${base}/:id`,
    userRoute(services, `${ROLE}.findOne`, async ({ req, res }) => {
      const role = await roles.get(pathId(req.params.id)).catch(() => Promise.reject(notFound()));
      const { permissions, ...rest } = role;
      sendJson(res, 200, { role: { ...rest, permissions: actionsMap(services.registry(), new Set(permissions)) } });
    }),
  );
  router.put(
    `${base}/:id`,
    userRoute(services, `${ROLE}.updateRole`, async ({ req, res, body }) => {
      await roles.update(pathId(req.params.id), roleBody(body));
      sendJson(res, 200, { ok: true });
    }, { body: true }),
  );
  router.delete(
    `${base}/:id`,
    userRoute(services, `${ROLE}.deleteRole`, async ({ req, res }) => {
      await roles.remove(pathId(req.params.id));
      sendJson(res, 200, { ok: true });
    }),
  );
  router.all(`${base}/:id`, only(['HEAD', 'GET', 'PUT', 'DELETE']));
}

/** `GET /api/users-permissions/permissions`: every action, in Strapi's nested map. */
function mountPermissionsRoute(router: Router, services: Services): void {
  const path = '/users-permissions/permissions';
  router.get(path, userRoute(services, 'plugin::users-permissions.permissions.getPermissions', async ({ res }) => {
    sendJson(res, 200, { permissions: actionsMap(services.registry(), new Set()) });
  }));
  router.all(path, only(['HEAD', 'GET']));
}

/**
 * Users & permissions on the content API, mounted at `/api` before the generated routes:
 * `/auth/*`, `/connect/*`, `/users*` and `/users-permissions/*`. Other paths fall through.
 */
export function usersApi(services: Services, limit: AuthRateLimit): express.Router {
  const router = express.Router();
  mountAuthRoutes(router, services, limit);
  mountUserRoutes(router, services);
  mountRoleRoutes(router, services);
  mountPermissionsRoute(router, services);
  return router;
}
