import type { Request, Response } from 'express';
import { packageInfo } from '../admin/package-info.js';
import { buildOpenApi } from '../openapi/index.js';
import type { Services } from '../services.js';
import { authenticate } from './caller.js';
import { sendJson } from './respond.js';

/**
 * `GET /hearth/openapi.json`: the OpenAPI 3.1 document of what the caller may call, built from the
 * registry of the moment. The caller is resolved as the content API resolves it (no Authorization:
 * the public role; an unknown or expired credential: 401).
 */
export function openApiRoute(services: Services) {
  const { version } = packageInfo();
  return async (req: Request, res: Response): Promise<void> => {
    const caller = await authenticate(req, services);
    const { defaultLimit, maxLimit } = services.config;
    const document = buildOpenApi({
      registry: services.registry(),
      canCall: (action) => caller.allows(action),
      authenticated: caller.kind !== 'public',
      limits: { defaultLimit, maxLimit },
      version,
    });
    // Changes with the schemas and the caller's permissions: never reused from a cache.
    res.set('Cache-Control', 'no-store');
    sendJson(res, 200, document);
  };
}
