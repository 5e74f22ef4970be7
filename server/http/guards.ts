import type { NextFunction, Request, Response } from 'express';
import { forbidden } from '../errors/app-error.js';
import { sendError } from './respond.js';

const LOOPBACK = new Set(['localhost', '127.0.0.1', '::1', '[::1]']);

function hostName(header: string): string {
  const host = header.trim().toLowerCase();
  if (host.startsWith('[')) return host.slice(0, host.indexOf(']') + 1);
  const colon = host.lastIndexOf(':');
  return colon === -1 ? host : host.slice(0, colon);
}

/**
 * DNS-rebinding defence: only loopback names, the configured listen host and HEARTH_ALLOWED_HOSTS
 * may appear in `Host`. A page on evil.example that rebinds its name to 127.0.0.1 is refused.
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

/** Whether a `Host` header passes the DNS-rebinding defence (see hostCheck). */
export function allowedHosts(listenHost: string, extra: readonly string[]): (header: string | undefined) => boolean {
  const allowed = new Set([...LOOPBACK, ...extra.map((h) => h.toLowerCase())]);
  if (!['0.0.0.0', '::', ''].includes(listenHost)) allowed.add(listenHost.toLowerCase());
  return (header) => header === undefined || allowed.has(hostName(header));
}

/**
 * The CORS headers of a response that is not a preflight (see cors): for an allowed `Origin`, the
 * origin echoed with credentials; `Vary: Origin` whenever the answer depends on it.
 */
export function corsHeaders(allowed: ReadonlySet<string> | null, origin: string | undefined): [string, string][] {
  if (origin === undefined || (allowed !== null && !allowed.has(origin))) return allowed === null ? [] : [['Vary', 'Origin']];
  return [
    ['Access-Control-Allow-Origin', origin],
    ['Access-Control-Allow-Credentials', 'true'],
    ['Vary', 'Origin'],
  ];
}

/**
 * CORS for the content API as Strapi configures it by default: any origin (echoed, with credentials),
 * preflights answered with the methods and headers the API uses. With a list of origins
 * (HEARTH_CORS_ORIGINS), other origins get no CORS headers, so browsers keep their pages out.
 */
export function cors(origins: readonly string[] | null = null) {
  const allowed = origins === null ? null : new Set(origins);
  return (req: Request, res: Response, next: NextFunction): void => {
    const origin = req.headers.origin;
    const headers = corsHeaders(allowed, origin);
    for (const [name, value] of headers) {
      if (name === 'Vary') res.vary(value);
      else res.set(name, value);
    }
    if (headers.length < 2) {
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
