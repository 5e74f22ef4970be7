import type { Request, RequestHandler, Response } from 'express';
import type { Access } from '../documents/index.js';
import type { Services } from '../services.js';
import type { UserIdentity } from '../users/strategy.js';
import { readBody } from './body.js';
import { authenticate, authorize, type Caller } from './caller.js';
import { parseQueryString, rawQuery } from './query-string.js';
import { methodNotAllowed } from './respond.js';

/** One request to a users & permissions route, once its caller may perform the route's action. */
export interface UserRouteContext {
  readonly req: Request;
  readonly res: Response;
  readonly caller: Caller;
  /** The user behind a user JWT (and its session in refresh mode); undefined for other callers. */
  readonly identity: UserIdentity | undefined;
  /** The JSON body (undefined unless the route reads one). */
  readonly body: unknown;
  /** Relations are shown only where the caller may `find` their target. */
  readonly access: Access;
  readonly query: Record<string, unknown>;
}

/** What a route may run between the permission check and its handler (the rate limit). */
export type BeforeHandler = (req: Request, res: Response, body: unknown) => Promise<void>;

/**
 * A users & permissions route in Strapi's order: authenticate, check the action (403), read the
 * body, run the route middleware (rate limit), then the handler.
 */
export function userRoute(
  services: Services,
  action: string,
  handler: (ctx: UserRouteContext) => Promise<void>,
  options: { body?: boolean; before?: BeforeHandler } = {},
): RequestHandler {
  return async (req, res) => {
    const caller = await authenticate(req, services);
    authorize(caller, action);
    const body = options.body ? await readBody(req) : undefined;
    if (options.before) await options.before(req, res, body);
    await handler({
      req,
      res,
      caller,
      identity: services.users.identify(caller),
      body,
      access: { canRead: (uid) => caller.allows(`${uid}.find`) },
      query: parseQueryString(rawQuery(req.originalUrl)),
    });
  };
}

/** Answers OPTIONS with a route's methods and any other method with 405, as the content API does. */
export const only =
  (allow: readonly string[]): RequestHandler =>
  (req, res) => {
    if (req.method === 'OPTIONS') {
      res.status(200).set('Allow', allow.join(', ')).end();
      return;
    }
    methodNotAllowed(res, allow);
  };
