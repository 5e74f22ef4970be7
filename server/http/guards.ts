import type { IncomingHttpHeaders } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import { forbidden } from '../errors/app-error.js';
import { sendError } from './respond.js';
import { NOTICE_HEADER } from './upload-form.js';
import { allowedHosts } from '../auth/hosts.js';

/**
 * DNS-rebinding defence (see auth/hosts.ts allowedHosts): a request whose `Host` is not allowed
 * gets 403 before any route.
 */
export function hostCheck(listenHost: string, extra: readonly string[]) {
  const hostAllowed = allowedHosts(listenHost, extra);
  return (req: Request, res: Response, next: NextFunction): void => {
    const header = req.headers.host;
    if (hostAllowed(header)) {
      next();
      return;
    }
    sendError(res, forbidden('Host not allowed', { host: header }));
  };
}

/** What the origin policy reads of a request: its headers. */
type WithHeaders = { readonly headers: IncomingHttpHeaders };

/** Which browser origins may call the content API, and which of them may do so with credentials. */
export interface OriginPolicy {
  /** The CORS headers of a response that is not a preflight. */
  headers(req: WithHeaders): [string, string][];
  /**
   * Whether the request's cookies may act (the users refresh cookie): a request without `Origin`
   * (no cross-origin browser call), from the server's own origin (the admin UI, HEARTH_PUBLIC_URL)
   * or from a listed origin (HEARTH_CORS_ORIGINS). Any other page in the same browser is refused.
   */
  allowsCredentials(req: WithHeaders): boolean;
}

const hostOfOrigin = (origin: string): string | null => {
  try {
    return new URL(origin).host.toLowerCase();
  } catch {
    return null;
  }
};

/** Headers of Hearth's own a browser page on another origin may read (an upload's notices). */
const EXPOSED: [string, string] = ['Access-Control-Expose-Headers', NOTICE_HEADER];

/**
 * The content API's origin policy. Bearer calls are open to any origin, as Strapi's default, or
 * only to the HEARTH_CORS_ORIGINS list when one is set. Credentials (`Access-Control-Allow-Credentials`
 * and cookie-authenticated effects) are for the listed origins and the server's own origin only:
 * Strapi echoes any origin with credentials, which lets any local page take a cookie session.
 */
export function originPolicy(config: { readonly corsOrigins: readonly string[] | null; readonly publicUrl: string | null }): OriginPolicy {
  const listed = new Set(config.corsOrigins ?? []);
  const publicHost = config.publicUrl === null ? null : hostOfOrigin(config.publicUrl);
  // The server's own origin, scheme aside: its host and port are this server's (the Host check passed).
  const own = (origin: string, host: string | undefined) => {
    const originHost = hostOfOrigin(origin);
    return originHost !== null && (originHost === host?.trim().toLowerCase() || originHost === publicHost);
  };
  const credentialed = (origin: string, req: WithHeaders) => listed.has(origin) || own(origin, req.headers.host);
  return {
    headers(req) {
      const origin = req.headers.origin;
      if (origin === undefined) return config.corsOrigins === null ? [] : [['Vary', 'Origin']];
      if (credentialed(origin, req)) {
        return [
          ['Access-Control-Allow-Origin', origin],
          ['Access-Control-Allow-Credentials', 'true'],
          EXPOSED,
          ['Vary', 'Origin'],
        ];
      }
      if (config.corsOrigins !== null) return [['Vary', 'Origin']];
      return [
        ['Access-Control-Allow-Origin', origin],
        EXPOSED,
        ['Vary', 'Origin'],
      ];
    },
    allowsCredentials(req) {
      const origin = req.headers.origin;
      return origin === undefined || credentialed(origin, req);
    },
  };
}

/**
 * CORS for the content API (see originPolicy), preflights answered with the methods and headers
 * the API uses. Origins the policy refuses get no CORS headers, so browsers keep their pages out.
 */
export function cors(policy: OriginPolicy) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const headers = policy.headers(req);
    for (const [name, value] of headers) {
      if (name === 'Vary') res.vary(value);
      else res.set(name, value);
    }
    if (!headers.some(([name]) => name === 'Access-Control-Allow-Origin')) {
      next();
      return;
    }
    if (req.method === 'OPTIONS' && req.headers['access-control-request-method']) {
      res.set('Access-Control-Allow-Methods', 'GET,POST,PUT,PATCH,DELETE,HEAD,OPTIONS');
      res.set('Access-Control-Allow-Headers', req.headers['access-control-request-headers'] ?? 'Content-Type,Authorization,Origin,Accept');
      res.set('Access-Control-Max-Age', '31536000');
      res.status(204).end();
      return;
    }
    next();
  };
}
