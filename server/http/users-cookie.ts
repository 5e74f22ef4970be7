import type { Request, Response } from 'express';
import { parse, serialize, type SerializeOptions } from 'cookie';
import type { UsersConfig } from '../config.js';
import type { OriginPolicy } from './guards.js';

/** The refresh cookie of users & permissions, as Strapi names it. */
export const REFRESH_COOKIE = 'strapi_up_refresh';

/** Strapi's cookie options (`buildRefreshCookieOptions`): httpOnly, SameSite=Lax, Path=/, a session cookie. */
function options(config: UsersConfig): SerializeOptions {
  return { httpOnly: true, sameSite: 'lax', path: '/', secure: config.cookieSecure };
}

/** Whether this request's refresh token travels in the cookie: configured so, or asked for with `x-strapi-refresh-cookie: httpOnly`. */
export function usesCookie(req: Request, config: UsersConfig): boolean {
  return config.httpOnly || req.headers['x-strapi-refresh-cookie'] === 'httpOnly';
}

/**
 * The refresh token of the cookie, if the request carries one and comes from an origin allowed
 * credentials: a page on another origin (another local port) must not refresh or end a session
 * with a cookie the browser sends along.
 */
export function refreshCookieOf(req: Request, policy: OriginPolicy): string | undefined {
  if (!policy.allowsCredentials(req)) return undefined;
  const header = req.headers.cookie;
  if (!header) return undefined;
  const value = parse(header)[REFRESH_COOKIE];
  return value === undefined || value === '' ? undefined : value;
}

/** Sets the refresh cookie. */
export function setRefreshCookie(res: Response, token: string, config: UsersConfig): void {
  res.append('Set-Cookie', serialize(REFRESH_COOKIE, token, options(config)));
}

/** Expires the refresh cookie (logout). */
export function clearRefreshCookie(res: Response, config: UsersConfig): void {
  res.append('Set-Cookie', serialize(REFRESH_COOKIE, '', { ...options(config), expires: new Date(0) }));
}
