import express, { type Request, type RequestHandler, type Response } from 'express';
import { notFound } from './errors/app-error.js';
import { adminApi } from './http/admin-api.js';
import { adminRoles } from './http/admin-roles.js';
import { adminUi } from './http/admin-ui.js';
import { webhookRoutes } from './http/admin-webhooks.js';
import { contentApi, holdRegistry } from './http/content-api.js';
import { authenticate } from './http/caller.js';
import { readBody } from './http/body.js';
import { finalErrorHandler } from './http/error-handler.js';
import { openApiRoute } from './http/openapi.js';
import { eventsRoute } from './http/events.js';
import { cors, hostCheck, originPolicy } from './http/guards.js';
import { sendError } from './http/respond.js';
import { graphqlRace, rerunOnSchemaRace } from './http/schema-race.js';
import { staticUploads } from './http/static-uploads.js';
import { uploadApi } from './http/upload-api.js';
import { usersApi } from './http/users-api.js';
import { createAuthRateLimit, type AuthRateLimit } from './http/users-rate-limit.js';
import type { PluginDeps } from './graphql/plugin-deps.js';
import { stampedLocaleCodes } from './graphql/locale-codes.js';
import type { Services } from './services.js';

/**
 * A route whose module loads at its first request: graphql-js and the MCP SDK are large, and most
 * servers never serve them, so neither slows the start nor holds memory until then.
 */
function lazyRoute(load: () => Promise<RequestHandler>): RequestHandler {
  let handler: Promise<RequestHandler> | null = null;
  return async (req, res, next) => {
    handler ??= load().catch((err: unknown) => {
      handler = null; // a failed load is tried again by the next request
      throw err;
    });
    try {
      await (await handler)(req, res, next);
    } catch (err) {
      next(err);
    }
  };
}

/** The services GraphQL's plugin mutations and `i18NLocales` call: those of the REST upload, users and locale routes. */
function graphqlPlugins(services: Services, rateLimit: AuthRateLimit): PluginDeps {
  const { uploads, users } = services;
  return {
    media: {
      one: (id, access) => uploads.reads.one(id, null, access.canRead),
      updateInfo: (id, info) => uploads.service.updateInfo(id, info),
      remove: (id) => uploads.service.remove(id),
      related: (ids, access) => uploads.reads.related(ids, access.canRead),
    },
    users: { auth: users.auth, identify: users.identify, admin: users.admin, roles: users.roles, rateLimit },
    locales: () => services.locales.list(),
  };
}

/** Builds the HTTP application (never listens): health, content API, 404s, and the error envelope. */
export function createApp(services: Services): express.Express {
  const app = express();
  // One budget for the users & permissions auth routes and GraphQL's auth mutations.
  const authRateLimit = createAuthRateLimit({ now: services.now, database: services.database });
  app.disable('x-powered-by');
  app.disable('etag');
  app.set('query parser', false);
  app.use(hostCheck(services.config.host, services.config.allowedHosts));
  // Before the registry hold: an MCP session's event stream stays open, and each tool call reads the registry itself.
  app.all('/mcp', lazyRoute(async () => (await import('./http/mcp-route.js')).mcpRoute(services)));
  // The change stream stays open too (a held registry would be pinned until it ends); it reads no schema.
  app.use('/hearth/events', cors(originPolicy(services.config)));
  app.get('/hearth/events', eventsRoute(services));
  // Each request keeps the registry it started with, even if the content-type builder swaps it meanwhile.
  app.use(holdRegistry(services));
  app.get('/_health', (_req, res) => {
    res.status(204).end();
  });
  app.use('/uploads', staticUploads(services.uploads.localDir));
  app.get('/hearth/openapi.json', openApiRoute(services));
  app.use('/api', cors(originPolicy(services.config)));
  // Team mode: a request racing a schema change made on another instance runs again under the new schemas (http/schema-race.ts).
  app.use('/api/upload', rerunOnSchemaRace(services, uploadApi(services)));
  app.use('/api', rerunOnSchemaRace(services, usersApi(services, authRateLimit)));
  app.use('/api', contentApi(services));
  // Browser clients (Apollo Client, urql) on another origin: the content API's CORS policy.
  app.use('/graphql', cors(originPolicy(services.config)));
  app.all('/graphql', rerunOnSchemaRace(services, lazyRoute(async () => (await import('./graphql/route.js')).graphqlRoute({
    registry: () => services.registry(),
    documents: services.documents,
    limits: { defaultLimit: services.config.defaultLimit, maxLimit: services.config.maxLimit },
    localeCodes: stampedLocaleCodes({ stamp: () => services.database.changeStamp(), read: async () => (await services.locales.list()).map((l) => l.code) }),
    authenticate: (req) => authenticate(req, services),
    me: { one: (id, query, access) => services.users.accounts.one(id, query, access) },
    plugins: graphqlPlugins(services, authRateLimit),
    readBody,
    introspection: services.config.graphqlIntrospection ?? true,
    log: services.log,
    schemaRace: (req, errors) => graphqlRace(services, req, errors),
  }))));
  app.use('/admin/api', rerunOnSchemaRace(services, adminApi(services, { extraRoutes: [adminRoles(services), webhookRoutes(services)] })));
  app.use('/admin', adminUi(services.adminUiDir, services.config));
  app.use((_req: Request, res: Response) => sendError(res, notFound()));
  app.use(finalErrorHandler(services.log));
  return app;
}
