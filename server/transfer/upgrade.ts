import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { WebSocketServer } from 'ws';
import { allowedHosts } from '../auth/hosts.js';
import { TRANSFER_MAX_MESSAGE_BYTES } from '../limits.js';
import type { Services } from '../services.js';
import { createTransferTokenService, type TransferPermission } from '../auth/transfer-tokens.js';
import type { TransferLock, runSession } from './session.js';

/**
 * Strapi's transfer endpoints on the server's own HTTP port: `GET /admin/transfer/runner/push|pull`
 * upgraded to a WebSocket for a transfer token. Refusals are plain HTTP answers with Strapi's body.
 */

const PREFIX = '/admin/transfer/runner/';

const STATUS_TEXT: Record<number, string> = { 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found' };

/** Answers the upgrade request with an HTTP error envelope and closes the socket. */
function refuse(socket: Duplex, status: 401 | 403 | 404, name: string, message: string): void {
  const body = JSON.stringify({ data: null, error: { status, name, message, details: {} } });
  socket.end(`HTTP/1.1 ${status} ${STATUS_TEXT[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
}

const bearerOf = (req: IncomingMessage): string | null => {
  const match = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '');
  return match?.[1] ?? null;
};

/** A browser page may open a WebSocket to any host: only the server's own origin (or none, a CLI) may. */
function originAllowed(req: IncomingMessage): boolean {
  const origin = req.headers.origin;
  if (origin === undefined) return true;
  try {
    return new URL(origin).host.toLowerCase() === (req.headers.host ?? '').trim().toLowerCase();
  } catch {
    return false;
  }
}

/** The WebSocket server and the session code: loaded at the first transfer, so `ws` and the transfer code stay out of the server's start. */
interface Sessions {
  readonly wss: WebSocketServer;
  readonly lock: TransferLock;
  readonly runSession: typeof runSession;
}

async function loadSessions(): Promise<Sessions> {
  const [{ WebSocketServer }, session] = await Promise.all([import('ws'), import('./session.js')]);
  return { wss: new WebSocketServer({ noServer: true, maxPayload: TRANSFER_MAX_MESSAGE_BYTES }), lock: session.createTransferLock(), runSession: session.runSession };
}

/** The attached endpoint: closing it ends every transfer socket. */
export interface TransferEndpoint {
  close(): void;
}

/** Listens for upgrades on `server`; other upgrade paths are answered 404 (Hearth has no other WebSocket). */
export function attachTransfer(server: Server, services: Services, secrets: { transferTokenSalt: string }): TransferEndpoint {
  const { config } = services;
  const hostAllowed = allowedHosts(config.host, config.allowedHosts);
  const tokens = createTransferTokenService({ database: services.database, salt: secrets.transferTokenSalt, now: services.now });
  let sessions: Promise<Sessions> | null = null;
  let loaded: Sessions | null = null;
  let closed = false;
  const upgrade = async (req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> => {
    if (!hostAllowed(req.headers.host)) return refuse(socket, 403, 'ForbiddenError', 'Host not allowed');
    if (!originAllowed(req)) return refuse(socket, 403, 'ForbiddenError', 'Origin not allowed');
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    const kind = path.startsWith(PREFIX) ? path.slice(PREFIX.length) : null;
    if (kind !== 'push' && kind !== 'pull') return refuse(socket, 404, 'NotFoundError', 'Not Found');
    const key = bearerOf(req);
    const token = key === null ? null : await tokens.verify(key);
    if (token === null) return refuse(socket, 401, 'UnauthorizedError', 'Missing or invalid credentials');
    // A token without this direction is known but not allowed: Strapi's verify throws ForbiddenError.
    if (!token.permissions.includes(kind satisfies TransferPermission)) return refuse(socket, 403, 'ForbiddenError', 'Forbidden');
    const { wss, lock, runSession } = await (sessions ??= loadSessions().then((s) => (loaded = s)));
    if (closed) {
      socket.destroy();
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => runSession({ ws, kind, services, lock }));
  };
  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer): void => {
    socket.on('error', () => socket.destroy());
    upgrade(req, socket, head).catch((err: unknown) => {
      services.log(`transfer: upgrade failed: ${err instanceof Error ? err.message : String(err)}`);
      socket.destroy();
    });
  };
  server.on('upgrade', onUpgrade);
  return {
    close() {
      closed = true;
      server.off('upgrade', onUpgrade);
      if (loaded === null) return;
      for (const client of loaded.wss.clients) client.terminate();
      loaded.wss.close();
    },
  };
}
