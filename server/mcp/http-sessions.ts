import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Caller } from '../auth/caller.js';
import { forbidden, notFound, validationError } from '../errors/app-error.js';
import { isRecord } from '../errors/is-record.js';
import { MCP_MAX_SESSIONS } from '../limits.js';
import type { Services } from '../services.js';
import { createMcpServer } from './server.js';
import { sessionClosers } from './session-registry.js';

/** One HTTP client's MCP session: its server, bound to the caller that opened it. */
interface Session {
  readonly transport: StreamableHTTPServerTransport;
  readonly server: Server;
  /** Who opened it (`api-token:7`, `admin:1`): every later request must be the same caller. */
  readonly owner: string;
  /** The caller of the request being handled (permissions re-read at each request). */
  caller: Caller;
}

const ownerOf = (caller: Caller) => `${caller.kind}:${String(caller.id)}`;
const isInitialize = (body: unknown) => (Array.isArray(body) ? body : [body]).some((m) => isRecord(m) && m.method === 'initialize');


/** MCP sessions over Streamable HTTP (`/mcp`), one MCP server per session, each bound to its caller. */
export function createMcpSessions(services: Services) {
  const sessions = new Map<string, Session>();
  const closers = sessionClosers(services);
  closers.add(async () => {
    const all = [...sessions.values()];
    sessions.clear();
    await Promise.all(all.map((s) => s.transport.close().catch(() => undefined)));
  });

  function remember(id: string, session: Session): void {
    sessions.set(id, session);
    while (sessions.size > MCP_MAX_SESSIONS) {
      const [oldest] = sessions.keys();
      if (oldest === undefined) break;
      const gone = sessions.get(oldest);
      sessions.delete(oldest);
      gone?.transport.close().catch(() => undefined);
    }
  }

  async function open(caller: Caller): Promise<Session> {
    const holder: { session?: Session } = {};
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        if (holder.session) remember(id, holder.session);
      },
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
    };
    const server = createMcpServer({
      services,
      caller: () => Promise.resolve(holder.session?.caller ?? caller),
      transport: 'http',
      destructive: services.config.mcpDestructive,
    });
    holder.session = { transport, server, owner: ownerOf(caller), caller };
    await server.connect(transport);
    return holder.session;
  }

  return {
    /** Hands one authenticated request to its session (a new one for `initialize`). */
    async handle(args: { req: IncomingMessage; res: ServerResponse; caller: Caller; body: unknown }): Promise<void> {
      const { req, res, caller, body } = args;
      const header = req.headers['mcp-session-id'];
      const id = Array.isArray(header) ? header[0] : header;
      let session: Session;
      if (id === undefined) {
        if (req.method !== 'POST' || !isInitialize(body)) throw validationError('Bad Request: an MCP session starts with an initialize request (send Mcp-Session-Id afterwards)');
        session = await open(caller);
      } else {
        const known = sessions.get(id);
        if (!known) throw notFound('Unknown MCP session');
        if (known.owner !== ownerOf(caller)) throw forbidden('This MCP session belongs to another caller');
        known.caller = caller;
        // Most recently used last: the oldest is closed first when there are too many.
        sessions.delete(id);
        sessions.set(id, known);
        session = known;
      }
      await session.transport.handleRequest(req, res, body);
    },
  };
}

/** The sessions of one server (see createMcpSessions). */
export type McpSessions = ReturnType<typeof createMcpSessions>;
