import type { Services } from '../services.js';

/**
 * The MCP sessions of each running server, as closers, so its close ends them (an open event
 * stream would hold the close for its grace period). A module of its own, without the MCP SDK:
 * the server imports it at start, and loads the SDK only at the first `/mcp` request.
 */
const running = new WeakMap<Services, Set<() => Promise<void>>>();

/** The closers of a server's sessions (http-sessions.ts adds one per session set). */
export function sessionClosers(services: Services): Set<() => Promise<void>> {
  let closers = running.get(services);
  if (!closers) running.set(services, (closers = new Set()));
  return closers;
}

/** Closes every MCP session of a server's services (called as the server stops, before it waits for connections). */
export async function closeMcpSessions(services: Services): Promise<void> {
  await Promise.all([...(running.get(services) ?? [])].map((close) => close()));
}
