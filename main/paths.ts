import { join, resolve } from 'node:path';

/** The product name: the per-user folder (`<appData>/Hearth`) and window titles use it. */
export const PRODUCT_NAME = 'Hearth';

/** The per-user folder Electron calls `userData`, named the same in development and when packaged. */
export function userDataDir(appData: string): string {
  return join(appData, PRODUCT_NAME);
}

/** The data directory: `$HEARTH_DATA` when set (as for the CLI), else Electron's per-user `userData` folder. */
export function dataDirFor(env: NodeJS.ProcessEnv, userData: string): string {
  const fromEnv = env.HEARTH_DATA;
  return resolve(fromEnv !== undefined && fromEnv !== '' ? fromEnv : userData);
}

/** The admin UI the window loads. */
export function adminUrl(serverUrl: string): string {
  return `${serverUrl}/admin/`;
}

/** The content API's base URL, as a Strapi client is configured with it. */
export function apiUrl(serverUrl: string): string {
  return `${serverUrl}/api`;
}

/** The window title: shows where the server listens, since the port may not be 1337. */
export function windowTitle(serverUrl: string): string {
  return `${PRODUCT_NAME} — ${serverUrl}`;
}

function parse(url: string): URL | null {
  return URL.canParse(url) ? new URL(url) : null;
}

/** An http(s) URL, the only kind handed to the system browser. */
export function isWebUrl(url: string): boolean {
  const parsed = parse(url);
  return parsed !== null && (parsed.protocol === 'http:' || parsed.protocol === 'https:');
}

/** Whether `url` belongs to the origin (scheme, host and port) of `base`. */
export function sameOrigin(url: string, base: string): boolean {
  const a = parse(url);
  const b = parse(base);
  return a !== null && b !== null && a.origin !== 'null' && a.origin === b.origin;
}
