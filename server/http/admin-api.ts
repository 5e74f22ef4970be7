import express, { type NextFunction, type Request, type Response } from 'express';
import { cliCommand, packageInfo } from '../admin/package-info.js';
import { forbidden, notFound } from '../errors/app-error.js';
import type { Services } from '../services.js';
import { publicAdminRoutes, sessionAdminRoutes, sessionGuard } from './admin-auth.js';
import { builderRoutes } from './admin-builder.js';
import { contentManagerRoutes } from './admin-content.js';
import { localeRoutes } from './admin-locales.js';
import { mediaRoutes } from './admin-media.js';
import { strapiArchiveRoutes } from './admin-strapi-archive.js';
import { tokenRoutes } from './admin-tokens.js';
import { sendError, sendJson } from './respond.js';

/** What the admin API mounts besides its own routes. */
export interface AdminApiOptions {
  /** Routers mounted after the session check, before the builder (the roles and permissions routes of admin-roles.ts). */
  readonly extraRoutes?: readonly express.Router[];
}

/** The admin API is for same-origin callers only: a CORS preflight is refused, and no answer carries CORS headers. */
function noCors(req: Request, res: Response, next: NextFunction): void {
  if (req.method === 'OPTIONS') {
    sendError(res, forbidden('Cross-origin requests are not allowed on the admin API'));
    return;
  }
  next();
}

/**
 * `/admin/api`: the admin screens' API (docs/admin-api.md). A few public routes (first run,
 * registration, login, desktop session); everything else needs an admin session, and only a
 * session: API tokens and user JWTs are 401 here.
 */
export function adminApi(services: Services, options: AdminApiOptions = {}): express.Router {
  const router = express.Router();
  const guard = sessionGuard(services);
  const info = packageInfo();
  const { version } = info;
  const cli = cliCommand(info);
  router.use(noCors);
  router.use(publicAdminRoutes(services));
  router.use(guard.require);
  router.use(sessionAdminRoutes(services, guard));
  router.use(tokenRoutes(services));
  router.use(localeRoutes(services));
  // Roles and permissions (server/http/admin-roles.ts) are mounted here, behind the session check:
  for (const extra of options.extraRoutes ?? []) router.use(extra);
  router.use(builderRoutes(services));
  router.use(contentManagerRoutes(services));
  router.use(mediaRoutes(services));
  router.use(strapiArchiveRoutes(services));
  router.get('/information', async (req, res) => {
    const { config } = services;
    const warnings = await services.instances.warnings();
    sendJson(res, 200, {
      data: {
        version,
        serverUrl: `${req.protocol}://${req.headers.host ?? `${config.host}:${config.port}`}`,
        dataDir: config.dataDir,
        schemasDir: config.schemasDir,
        database: services.database.kind,
        uploadProvider: config.uploadProvider,
        desktop: services.desktopSecret !== null,
        cli,
        /** Team mode: what the admin should know about the other instances on this database (e.g. local files they cannot serve). */
        warnings,
      },
    });
  });
  router.use((_req: Request, res: Response) => sendError(res, notFound()));
  return router;
}
