import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { Services } from '../services.js';
import { authenticate } from './caller.js';
import { allowedHosts } from '../auth/hosts.js';
import { originPolicy } from './guards.js';
import { JSON_CONTENT_TYPE } from './respond.js';

/**
 * The response cache's front door: a content-API GET whose answer is cached is sent straight from
 * the HTTP server's request handler, before Express routes it, as an in-process reverse proxy
 * would. Everything else, and every case this path is unsure of (a credential that does not
 * resolve, a caller without a cacheable permission set, a miss), goes to the app unchanged.
 *
 * A hit is only ever an answer the app itself computed for the same URL, the same permission set
 * (so the same route and permission checks passed), the same registry and the same response
 * format, under the same change stamp (so no write came between): the bytes are the app's. The
 * headers are those the app sends with them: the host check and CORS run here as there.
 */
export function cacheFront(services: Services, app: RequestListener): RequestListener {
  const hostAllowed = allowedHosts(services.config.host, services.config.allowedHosts);
  const origins = originPolicy(services.config);

  /**
   * The request's one cache lookup; a miss is remembered on `req` for the route (cache/response-cache.ts).
   * On PostgreSQL the stamp is read first and serves both the caller memo and the lookup: a hit
   * costs that one round trip, not a credential lookup besides.
   */
  async function hit(req: IncomingMessage, url: string): Promise<Buffer | undefined> {
    const stamp = services.responses.freshStamp === undefined ? undefined : await services.responses.freshStamp();
    const caller = await authenticate(req, services, stamp);
    const v4 = req.headers['strapi-response-format'] === 'v4';
    return (await services.responses.read({ request: req, callerKey: caller.cacheKey, registry: services.registry(), v4, url, stamp })).hit;
  }

  function send(req: IncomingMessage, res: ServerResponse, body: Buffer): void {
    const headers = origins.headers(req);
    headers.push(['Content-Type', JSON_CONTENT_TYPE], ['Content-Length', String(body.length)]);
    res.writeHead(200, headers.flat());
    res.end(body);
  }

  return (req, res) => {
    const url = req.url;
    if (!services.responses.enabled || req.method !== 'GET' || url === undefined || !url.startsWith('/api/') || !hostAllowed(req.headers.host)) {
      app(req, res);
      return;
    }
    hit(req, url).then(
      (body) => (body === undefined ? app(req, res) : send(req, res, body)),
      // The app answers the failure itself (a 401 for a bad credential, with its envelope).
      () => app(req, res),
    );
  };
}
