import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { resolveConfig } from '../../server/config.js';
import { startServer, type RunningServer } from '../../server/index.js';
import type { StreamLimits } from '../../server/events/index.js';
import { databaseEnvFor, dropDatabaseFor } from './database.js';

/** The public Strapi project the transcripts were recorded on. */
export const FIXTURE_PROJECT = resolve(import.meta.dirname, '../fixtures/strapi/fixture-project');

export interface TestServer {
  readonly url: string;
  readonly dataDir: string;
  readonly server: RunningServer;
  /** Every line the server logged, in order (tests assert what never appears in them). */
  readonly logs: readonly string[];
  /** Creates an API token and returns its plaintext. */
  token(type: 'full-access' | 'read-only' | 'custom', actions?: string[]): Promise<string>;
  request(path: string, init?: RequestInit & { token?: string; json?: unknown }): Promise<Response>;
  close(): Promise<void>;
}

let tokenCounter = 0;

/** Starts a real Hearth on a loopback port 0 with a fresh data dir in the system temp folder. */
export async function startTestServer(
  options: {
    schemas?: string;
    env?: NodeJS.ProcessEnv;
    dataDir?: string;
    acceptSchemaChanges?: boolean;
    now?: () => Date;
    /** The desktop shell's per-launch secret (admin desktop sessions). */
    desktopSecret?: string;
    /** The built admin UI folder served at /admin. */
    adminUiDir?: string;
    /** `sqlite`: the data dir's SQLite file even in the postgres project (the source of a move to PostgreSQL). */
    database?: 'project' | 'sqlite';
    /** The first wait before a failed webhook delivery is retried (the server's webhookRetryBaseMs). */
    webhookRetryBaseMs?: number;
    /** Smaller change-stream limits (the server's eventStream option). */
    eventStream?: Partial<StreamLimits>;
  } = {},
): Promise<TestServer> {
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), 'hearth-test-')));
  // In the postgres project, the data dir's own database (the same one when a test restarts a server on it).
  // One read thread whatever the machine's cores: SQL-built reads are checked (verifyReads) as they run in production.
  const env = { HEARTH_READ_THREADS: '1', ...(options.database === 'sqlite' ? {} : await databaseEnvFor(dataDir)), ...options.env };
  const config = resolveConfig(
    { data: dataDir, schemas: options.schemas ?? FIXTURE_PROJECT, port: '0', host: '127.0.0.1', acceptSchemaChanges: options.acceptSchemaChanges ?? false },
    env,
  );
  const logs: string[] = [];
  const server = await startServer({
    config,
    log: (m) => logs.push(m),
    // Every read SQLite answers as JSON text is also answered by the JS path: a difference is a 500.
    verifyReads: true,
    ...(options.now ? { now: options.now } : {}),
    ...(options.desktopSecret !== undefined ? { desktopSecret: options.desktopSecret } : {}),
    ...(options.adminUiDir !== undefined ? { adminUiDir: options.adminUiDir } : {}),
    ...(options.webhookRetryBaseMs !== undefined ? { webhookRetryBaseMs: options.webhookRetryBaseMs } : {}),
    ...(options.eventStream !== undefined ? { eventStream: options.eventStream } : {}),
  });
  const url = server.url;
  return {
    url,
    dataDir,
    server,
    logs,
    async token(type, actions) {
      const { accessKey } = await server.services.tokens.create({
        name: `test-token-${++tokenCounter}`,
        type,
        permissions: actions ?? [],
      });
      return accessKey;
    },
    request(path, init = {}) {
      const headers = new Headers(init.headers);
      if (init.token) headers.set('Authorization', `Bearer ${init.token}`);
      let body = init.body;
      if (init.json !== undefined) {
        headers.set('Content-Type', 'application/json');
        body = JSON.stringify(init.json);
      }
      return fetch(`${url}${path}`, { ...init, headers, body });
    },
    async close() {
      await server.close();
      if (options.dataDir) return;
      await rm(dataDir, { recursive: true, force: true });
      await dropDatabaseFor(dataDir);
    },
  };
}
