import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Readable, Writable } from 'node:stream';
import { tokenAllows, type ApiToken } from '../auth/api-tokens.js';
import type { Caller } from '../auth/caller.js';
import { unauthorized } from '../errors/app-error.js';
import type { Services } from '../services.js';
import { createMcpServer } from './server.js';

const READ_ONLY_TOKEN: ApiToken = {
  id: 0,
  name: 'hearth mcp',
  description: '',
  type: 'read-only',
  permissions: [],
  lifespan: null,
  expiresAt: null,
  lastUsedAt: null,
  createdAt: '',
  updatedAt: '',
};

/** Without `--token`: read-only on every type, as a read-only API token is. */
const READ_ONLY: Caller = {
  kind: 'api-token',
  id: null,
  allows: (action) => tokenAllows(READ_ONLY_TOKEN, action),
};

/** The caller a `--token` value is (an API token or an admin session), verified again at each request; a 401 when none accepts it. */
export function tokenCaller(services: Services, token: string | undefined): () => Promise<Caller> {
  if (token === undefined) return () => Promise.resolve(READ_ONLY);
  return async () => {
    for (const strategy of services.bearer) {
      if (strategy.kind !== 'api-token' && strategy.kind !== 'admin') continue;
      const caller = await strategy.verify(token);
      if (caller) return caller;
    }
    throw unauthorized();
  };
}

/** Serves MCP over stdin/stdout until stdin ends (the client went away) or `stop` resolves. */
export async function serveStdio(args: {
  services: Services;
  token: string | undefined;
  destructive: boolean;
  stdin?: Readable;
  stdout?: Writable;
  stop?: Promise<void>;
}): Promise<void> {
  const { services } = args;
  const caller = tokenCaller(services, args.token);
  await caller(); // A token no one accepts fails the command before it speaks MCP.
  const stdin = args.stdin ?? process.stdin;
  const server = createMcpServer({ services, caller, transport: 'stdio', destructive: args.destructive });
  const transport = new StdioServerTransport(stdin, args.stdout ?? process.stdout);
  const ended = new Promise<void>((resolve) => {
    stdin.once('end', resolve);
    stdin.once('close', resolve);
    transport.onclose = resolve;
  });
  await server.connect(transport);
  await Promise.race([ended, args.stop ?? new Promise<void>(() => undefined)]);
  await server.close();
}
