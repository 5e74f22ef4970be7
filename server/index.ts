import { createServer, type Server, type ServerResponse } from 'node:http';
import { hostname } from 'node:os';
import type { AddressInfo, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { adminSessionStrategy, createAdminServices } from './admin/admin.js';
import { adminUiDirOf, packageInfo } from './admin/package-info.js';
import { createSchemaController } from './admin/schema-controller.js';
import { createApp } from './app.js';
import { attachTransfer } from './transfer/upgrade.js';
import { createDocumentService } from './documents/index.js';
import { createCallerMemo } from './auth/caller-memo.js';
import { cacheFront } from './http/cache-front.js';
import { createResponseCache, responseStamps } from './cache/response-cache.js';
import { apiTokenStrategy } from './auth/caller.js';
import type { HearthConfig } from './config.js';
import { openDataDir } from './data-dir.js';
import { setMeta } from './db/migrations.js';
import { SCHEMA_WATCH_DEBOUNCE_MS, SHUTDOWN_GRACE_MS, RESPONSE_CACHE_MAX_BYTES, RESPONSE_CACHE_MAX_ENTRY_BYTES, CALLER_MEMO_TTL_MS, CALLER_MEMO_MAX_ENTRIES, OPTIMIZE_INTERVAL_MS } from './limits.js';
import { loadProject } from './schema/load.js';
import { describeItem, readProjectCode, type ProjectCode } from './project-code/index.js';
import { buildRegistry, schemaWarnings, type Registry } from './schema/registry.js';
import { watchSchemas } from './schema/schema-watcher.js';
import { followSchemas } from './schema/schema-follow.js';
import { recordSchemaBase, startSchemaSet, type SchemaStart } from './schema/schema-start.js';
import { syncSchema } from './schema/sync.js';
import type { Services } from './services.js';
import type { Logger } from './logger.js';
import { openUploads, type Uploads } from './uploads/uploads.js';
import { closeMcpSessions } from './mcp/session-registry.js';
import { createUsers } from './users/users.js';
import { USERS_PERMISSIONS } from './users/models.js';
import { listenError } from './errors/app-error.js';
import { createWebhooks } from './webhooks/index.js';
import { createEventStream, type StreamLimits } from './events/index.js';
import { startInstances } from './db/instances.js';
import { drainingHealth } from './http/draining.js';

/** Who wrote a version of the team's schema set, as its log and `hearth_meta.schema_set` say. */
const INSTANCE = `${hostname()} (pid ${process.pid})`;

/** What the desktop shell needs to build its configuration: main/ imports server/index.ts only. */
export { resolveConfig, type HearthConfig } from './config.js';

export interface StartOptions {
  readonly config: HearthConfig;
  readonly log?: Logger;
  readonly now?: () => Date;
  /** The desktop shell's per-launch secret: the renderer trades it for an admin session. */
  readonly desktopSecret?: string;
  /** better-sqlite3's `.node` file to load (the desktop app's Electron-ABI build); default: the Node build. */
  readonly nativeBinding?: string;
  /** The built admin UI served at `/admin`; default: the package's `dist/renderer`. */
  readonly adminUiDir?: string;
  /** Tests: every SQL-built read answer is checked against the JS path's (the document service's verifyReads). */
  readonly verifyReads?: boolean;
  /** Tests: the first wait before a failed webhook delivery is retried (default WEBHOOK_RETRY_BASE_MS). */
  readonly webhookRetryBaseMs?: number;
  /** Tests: smaller change-stream limits (retention, heartbeat, buffered bytes ...). */
  readonly eventStream?: Partial<StreamLimits>;
  /** false: the services run without an HTTP server (`hearth mcp` over stdio); url is empty and port 0. Default true. */
  readonly listen?: boolean;
}

/** A running Hearth: its URL, its services (for tests and the desktop shell), and a graceful close. */
export interface RunningServer {
  readonly url: string;
  readonly port: number;
  readonly services: Services;
  close(): Promise<void>;
}

/** A port that is taken (or an unusable address) rejects with a ListenError: the CLI exits 1 with its one-line reason, the desktop app retries on a free port. */
export { isAppError, listenError } from './errors/app-error.js';

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (err: NodeJS.ErrnoException) => {
      server.off('listening', onListening);
      const where = `${host}:${port}`;
      reject(listenError(err.code === 'EADDRINUSE' ? `port ${port} is already in use on ${host}` : `cannot listen on ${where}: ${err.message}`));
    };
    const onListening = () => {
      server.off('error', onError);
      resolve((server.address() as AddressInfo).port);
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(port, host);
  });
}

/** Open sockets and responses, so a shutdown can finish requests in flight and then drop the connections. */
interface Tracked {
  readonly sockets: Set<Socket>;
  readonly responses: Set<ServerResponse>;
  closing: boolean;
}

function track(server: Server): Tracked {
  const tracked: Tracked = { sockets: new Set(), responses: new Set(), closing: false };
  server.on('connection', (socket) => {
    tracked.sockets.add(socket);
    socket.on('close', () => tracked.sockets.delete(socket));
  });
  // Before the app's listener: an answer sent at once (a cache hit, a draining /_health) must still get the header.
  server.prependListener('request', (_req, res: ServerResponse) => {
    if (tracked.closing) res.setHeader('Connection', 'close');
    tracked.responses.add(res);
    res.on('close', () => tracked.responses.delete(res));
  });
  return tracked;
}

/** Stops accepting, lets requests in flight finish (up to a grace period) with `Connection: close`, then drops idle sockets. */
function gracefulClose(server: Server, tracked: Tracked): Promise<void> {
  tracked.closing = true;
  for (const res of tracked.responses) if (!res.headersSent) res.setHeader('Connection', 'close');
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      for (const socket of tracked.sockets) socket.destroy();
    }, SHUTDOWN_GRACE_MS);
    timer.unref();
    server.close(() => {
      clearTimeout(timer);
      resolve();
    });
    server.closeIdleConnections();
  });
}

/** Requests Node's parser refuses (oversized headers, malformed HTTP) still get the error envelope. */
function answerClientError(err: NodeJS.ErrnoException, socket: Duplex): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const tooLarge = err.code === 'HPE_HEADER_OVERFLOW';
  const status = tooLarge ? 431 : 400;
  const error = tooLarge
    ? { status, name: 'RequestHeaderFieldsTooLargeError', message: 'Request header fields too large', details: {} }
    : { status, name: 'BadRequestError', message: 'Bad Request', details: {} };
  const body = JSON.stringify({ data: null, error });
  socket.end(
    `HTTP/1.1 ${status} ${tooLarge ? 'Request Header Fields Too Large' : 'Bad Request'}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/** Starts Hearth: opens the data dir, loads and applies the schemas, and listens. The one entry point of main/ and the CLI. */
export async function startServer(options: StartOptions): Promise<RunningServer> {
  const { config } = options;
  const log: Logger = options.log ?? ((m) => process.stderr.write(`${m}\n`));
  const now = options.now ?? (() => new Date());
  const dir = await openDataDir(config.dataDir, { now, nativeBinding: options.nativeBinding, databaseUrl: config.databaseUrl, secrets: config.secrets });
  let registry: Registry;
  let projectCode: ProjectCode;
  let start: SchemaStart;
  try {
    // Team mode: the database's schema set or the folder, as --schema-source says (schema/schema-start.ts).
    start = await startSchemaSet({
      database: dir.database,
      folder: buildRegistry(await loadProject(config.schemasDir, USERS_PERMISSIONS)),
      schemasDir: config.schemasDir,
      dataDir: config.dataDir,
      source: config.schemaSource,
      instance: INSTANCE,
      now,
      log,
    });
    registry = start.registry;
    for (const warning of schemaWarnings(registry)) log(warning);
    // Read once, never run: what it applies and what it leaves out is said once here.
    projectCode = await readProjectCode(config.schemasDir);
    for (const item of projectCode.items) log(describeItem(item));
    await syncSchema(dir.database, registry, {
      acceptSchemaChanges: config.acceptSchemaChanges,
      defaultLocale: await dir.locales.defaultCode(),
      now: () => now().toISOString(),
      log,
    });
    await setMeta(dir.database.db, 'last_schemas_dir', config.schemasDir);
    await dir.database.optimize();
  } catch (err) {
    await dir.database.close();
    throw err;
  }
  const schemas = createSchemaController({
    database: dir.database,
    schemasDir: config.schemasDir,
    initial: registry,
    locales: dir.locales,
    now,
    log,
    acceptSchemaChanges: config.acceptSchemaChanges,
    stamp: start.stamp,
    instance: INSTANCE,
    recordStamp: (stamp) => recordSchemaBase(config.dataDir, stamp),
  });
  try {
    if (start.pending !== null) await schemas.applyRegistry(start.pending);
  } catch (err) {
    await dir.database.close();
    throw err;
  }
  const admin = createAdminServices({ db: dir.database.db, now });
  const webhooks = createWebhooks({ database: dir.database, now, log, retryBaseMs: options.webhookRetryBaseMs });
  // Events go to the webhooks' outbox and, while someone listens, to the change stream.
  const events = createEventStream({ database: dir.database, now, log, outbox: webhooks.events, limits: options.eventStream });
  let uploads: Uploads;
  try {
    uploads = await openUploads({
      config,
      database: dir.database,
      registry: () => schemas.current(),
      now,
      log,
      defaultLocale: () => dir.locales.defaultCode(),
      events: events.sink,
    });
  } catch (err) {
    await dir.database.close();
    throw err;
  }
  const documents = createDocumentService({
    events: events.sink,
    db: dir.database,
    registry: () => schemas.current(),
    locales: dir.locales,
    clock: now,
    files: uploads.urls,
    log,
    verifyReads: options.verifyReads === true,
    readThreads: config.readThreads,
  });
  const users = createUsers({
    db: dir.database.db,
    config: config.users,
    secret: dir.secrets.jwtSecret,
    permissions: dir.permissions,
    registry: () => schemas.current(),
    documents,
    now,
    log,
  });
  try {
    await users.roles.ensureDefaults();
  } catch (err) {
    uploads.close();
    await dir.database.close();
    throw err;
  }
  // Team mode (PostgreSQL): this instance's heartbeat, and the warning when others cannot serve its files.
  const instances = await startInstances({ database: dir.database, uploadProvider: config.uploadProvider, now, log, serving: options.listen !== false });
  const services: Services = {
    config,
    database: dir.database,
    tokens: dir.tokens,
    bearer: [apiTokenStrategy(dir.tokens), users.strategy, adminSessionStrategy(admin.sessions)],
    callers: createCallerMemo({ changeStamp: () => dir.database.changeStamp(), now, ttlMs: CALLER_MEMO_TTL_MS, maxEntries: CALLER_MEMO_MAX_ENTRIES }),
    permissions: dir.permissions,
    locales: dir.locales,
    now,
    log,
    uploads,
    responses: createResponseCache({
      // Presigned file URLs expire, so their answers are computed every time.
      ...responseStamps(dir.database, config.responseCache && !uploads.provider.signsUrls),
      limits: { maxBytes: RESPONSE_CACHE_MAX_BYTES, maxEntryBytes: RESPONSE_CACHE_MAX_ENTRY_BYTES },
    }),
    registry: () => schemas.current(),
    documents,
    projectCode,
    webhooks,
    events,
    instances,
    desktopSecret: options.desktopSecret ?? null,
    admin,
    schemas,
    users,
    adminUiDir: options.adminUiDir ?? adminUiDirOf(packageInfo()),
  };
  let draining = false;
  const http = options.listen === false ? null : createServer(drainingHealth(cacheFront(services, createApp(services)), () => draining));
  http?.on('clientError', answerClientError);
  const transfer = http && attachTransfer(http, services, dir.secrets);
  const tracked = http && track(http);
  let port = 0;
  try {
    if (http) port = await listen(http, config.port, config.host);
  } catch (err) {
    await instances.close();
    uploads.close();
    await dir.database.close();
    throw err;
  }
  // Team mode: changes other instances commit are followed within a second (and at once, in case one came during start-up).
  const follow = followSchemas({ database: dir.database, stamp: () => schemas.stamp(), follow: () => schemas.follow(), log });
  const watch = await watchSchemas({ root: config.schemasDir, debounceMs: SCHEMA_WATCH_DEBOUNCE_MS, onChange: () => schemas.reloadFromDisk(), log });
  // A change may have written new folders (a type added by the builder or followed from the database): watched afresh.
  const unwatch = schemas.onChange(() => watch.refresh());
  // Statistics drift as content grows; the planner's choice between indexes depends on them.
  const optimizer = setInterval(() => {
    dir.database.optimize().catch((err: unknown) => log(`database: refreshing statistics failed: ${err instanceof Error ? err.message : String(err)}`));
  }, OPTIMIZE_INTERVAL_MS);
  optimizer.unref();
  // Deliveries a previous run left pending go now.
  webhooks.start();
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  let closing: Promise<void> | null = null;
  return {
    url: http ? `http://${host}:${port}` : '',
    port,
    services,
    close() {
      closing ??= (async () => {
        transfer?.close();
        // MCP sessions' event streams stay open: ended first, they do not hold the close for its grace period.
        await closeMcpSessions(services);
        events.close();
        if (http && tracked) {
          // Draining: /_health answers 503 (a load balancer takes this instance out) while requests are still served.
          draining = true;
          tracked.closing = true;
          if (config.shutdownDrainMs) await new Promise((resolve) => setTimeout(resolve, config.shutdownDrainMs));
          await gracefulClose(http, tracked);
        }
        clearInterval(optimizer);
        unwatch();
        watch.close();
        await follow.close();
        await schemas.idle();
        await webhooks.close();
        await instances.close();
        uploads.close();
        await documents.close();
        await dir.database.close();
      })();
      return closing;
    },
  };
}
