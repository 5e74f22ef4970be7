import { resolveConfig } from './config.js';
import { startServer } from './index.js';
import { serveStdio } from './mcp/stdio.js';
import { only, stopSignal, text, type Io, type Parsed } from './cli-args.js';

/**
 * `hearth mcp`: the MCP server over stdio, as the `--token` caller (none: read-only on everything).
 * It opens the data dir and schemas as `serve` does, without listening, so it runs beside a server
 * on the same data dir. stdout carries MCP only; logs go to stderr.
 */
export async function mcpCommand(parsed: Parsed, io: Io): Promise<number> {
  only(parsed, ['data', 'schemas', 'token', 'allow-destructive']);
  const config = resolveConfig({ data: text(parsed, 'data'), schemas: text(parsed, 'schemas') });
  const signal = stopSignal();
  let server: Awaited<ReturnType<typeof startServer>>;
  try {
    server = await startServer({ config, log: (m) => io.err(`${m}\n`), listen: false });
  } catch (err) {
    signal.release();
    throw err;
  }
  try {
    await serveStdio({ services: server.services, token: text(parsed, 'token'), destructive: parsed.flags.get('allow-destructive') === true, stop: signal.stopped });
    return 0;
  } finally {
    signal.release();
    await server.close();
  }
}
