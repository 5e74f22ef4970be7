// Which `Host` headers may reach this server: the DNS-rebinding defence shared by the HTTP routes
// (http/guards.ts hostCheck, the cache front) and the transfer WebSocket upgrade.

const LOOPBACK = new Set(['localhost', '127.0.0.1', '::1', '[::1]']);

function hostName(header: string): string {
  const host = header.trim().toLowerCase();
  if (host.startsWith('[')) return host.slice(0, host.indexOf(']') + 1);
  const colon = host.lastIndexOf(':');
  return colon === -1 ? host : host.slice(0, colon);
}

/**
 * Whether a `Host` header passes the DNS-rebinding defence: only loopback names, the configured
 * listen host and HEARTH_ALLOWED_HOSTS may appear. A page on evil.example that rebinds its name to
 * 127.0.0.1 is refused.
 */
export function allowedHosts(listenHost: string, extra: readonly string[]): (header: string | undefined) => boolean {
  const allowed = new Set([...LOOPBACK, ...extra.map((h) => h.toLowerCase())]);
  if (!['0.0.0.0', '::', ''].includes(listenHost)) allowed.add(listenHost.toLowerCase());
  return (header) => header === undefined || allowed.has(hostName(header));
}
