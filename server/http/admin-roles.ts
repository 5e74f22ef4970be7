import express, { type Request } from 'express';
import type { Services } from '../services.js';
import { actionGroups } from '../users/actions.js';
import type { Role } from '../users/roles.js';
import { readBody } from './body.js';
import { sendJson } from './respond.js';

/** A numeric path id; anything else matches no role (404). */
const pathId = (req: Request): number => {
  const id = req.params.id;
  return typeof id === 'string' && /^\d+$/.test(id) ? Number(id) : Number.NaN;
};

/** A role as the admin API shows it one at a time: with its whole permission set. */
const detail = (role: Role & { permissions: string[] }) => ({
  id: role.id,
  name: role.name,
  description: role.description,
  type: role.type,
  permissions: role.permissions,
});

/**
 * The admin API's "Roles and permissions" routes (docs/admin-api.md), to be mounted under
 * `/admin/api` after the admin-session check: `/permissions/actions`, `/roles`, `/roles/:id`, and
 * the users-permissions settings `/users-permissions/settings` (registration, default role).
 */
export function adminRoles(services: Services): express.Router {
  const router = express.Router();
  const { roles } = services.users;

  router.get('/permissions/actions', async (_req, res) => {
    sendJson(res, 200, { data: actionGroups(services.registry()) });
  });

  router.get('/roles', async (_req, res) => {
    const list = await roles.list();
    sendJson(res, 200, { data: list.map((r) => ({ id: r.id, name: r.name, description: r.description, type: r.type, nb_users: r.nb_users })) });
  });

  router.post('/roles', async (req, res) => {
    sendJson(res, 201, { data: detail(await roles.create(await readBody(req))) });
  });

  router.get('/roles/:id', async (req, res) => {
    sendJson(res, 200, { data: detail(await roles.get(pathId(req))) });
  });

  router.put('/roles/:id', async (req, res) => {
    sendJson(res, 200, { data: detail(await roles.update(pathId(req), await readBody(req))) });
  });

  router.delete('/roles/:id', async (req, res) => {
    sendJson(res, 200, { data: detail(await roles.remove(pathId(req))) });
  });

  router.get('/users-permissions/settings', async (_req, res) => {
    sendJson(res, 200, { data: await services.users.settings.get() });
  });

  router.put('/users-permissions/settings', async (req, res) => {
    sendJson(res, 200, { data: await services.users.settings.update(await readBody(req)) });
  });

  return router;
}
