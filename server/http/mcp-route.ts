import type { Request, Response } from 'express';
import { AppError, unauthorized, validationError } from '../errors/app-error.js';
import { MCP_MAX_REQUEST_BYTES } from '../limits.js';
import { createMcpSessions } from '../mcp/http-sessions.js';
import type { Services } from '../services.js';
import { authenticate } from './caller.js';
import { originPolicy } from './guards.js';
import { forbidden } from '../errors/app-error.js';

/** The request body as JSON (undefined for a GET or DELETE), at most MCP_MAX_REQUEST_BYTES. */
async function jsonBody(req: Request): Promise<unknown> {
  if (req.method !== 'POST') return undefined;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    size += buffer.length;
    if (size > MCP_MAX_REQUEST_BYTES) throw new AppError('PayloadTooLargeError', `An MCP request is at most ${MCP_MAX_REQUEST_BYTES} bytes`, {});
    chunks.push(buffer);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
  } catch {
    throw validationError('Invalid JSON in the MCP request');
  }
}

/**
 * `/mcp`: the MCP server over Streamable HTTP. The Host check ran before (app.ts); a browser page
 * of another origin is refused (only the server's own origin and HEARTH_CORS_ORIGINS may call);
 * each request carries an API token or an admin session as a bearer, and a session stays its caller's.
 */
export function mcpRoute(services: Services) {
  const origins = originPolicy(services.config);
  const sessions = createMcpSessions(services);
  return async (req: Request, res: Response): Promise<void> => {
    if (!origins.allowsCredentials(req)) throw forbidden('Origin not allowed');
    if (req.headers.authorization === undefined) throw unauthorized();
    const caller = await authenticate(req, services);
    if (caller.kind !== 'api-token' && caller.kind !== 'admin') throw unauthorized('/mcp takes an API token or an admin session');
    const body = await jsonBody(req);
    await sessions.handle({ req, res, caller, body });
  };
}
