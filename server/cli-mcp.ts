import { resolveConfig } from './config.js';
import { startServer } from './index.js';
import { serveStdio } from './mcp/stdio.js';
import { only, text, type Io, type Parsed } from './cli-args.js';

/**
 * `hearth mcp`: the MCP server over stdio, as the `--token` caller (none: read-only on everything).
 * It opens the data dir and schemas as `serve` does, without listening, so it runs beside a server
 * on the same data dir. stdout carries MCP only; logs go to stderr.
 */
export async function mcpCommand(parsed: Parsed, io: Io): Promise<number> {
  only(parsed, ['data', 'schemas', 'token', 'allow-destructive']);
  const config = resolveConfig({ data: text(parsed, 'data'), schemas: text(parsed, 'schemas') });
  let requestStop = (): void => {};
  const stop = new Promise<void>((resolve) => (requestStop = resolve));
  const onSignal = (): void => {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    requestStop();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  const server = await startServer({ config, log: (m) => io.err(`${m}\n`), listen: false });
  try {
    await serveStdio({ services: server.services, token: text(parsed, 'token'), destructive: parsed.flags.get('allow-destructive') === true, stop });
    return 0;
  } finally {
    onSignal();
    await server.close();
  }
}
