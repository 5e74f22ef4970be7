import type { Worker } from 'node:worker_threads';
import {
  Kysely,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type CompiledQuery,
  type DatabaseConnection,
  type Driver,
  type QueryResult,
} from 'kysely';
import type { Db, HearthDB, Row } from '../db/database.js';
import { READ_THREADS_IDLE_MS } from '../limits.js';
import { startWorker, workerScript } from '../worker-script.js';

/**
 * Read threads for SQL-built answers (read-text.ts) on SQLite. better-sqlite3 runs a statement on
 * the calling thread, so a server on one thread spends a computed populated page's JSON building
 * (most of its cost) where it also parses and answers HTTP; with WAL, other connections read
 * beside the writer. The pool's threads each open the file read-only (read-worker.ts) and take
 * statements in turn; a read there sees every committed write, as a read on the server's own
 * connection would once the write's request has been answered. Started at the first read, not
 * at start-up; a thread that cannot start (no worker script, a packaged app without one) turns the
 * pool off and reads stay on the server's connection.
 */

/** What a read thread opens (workerData). */
export interface ReadThreadData {
  readonly file: string;
  readonly nativeBinding?: string;
}

/** One statement sent to a read thread. */
export interface ReadRequest {
  readonly id: number;
  readonly sql: string;
  readonly parameters: readonly unknown[];
}

type ReadReply = { readonly id: number; readonly rows: Row[] } | { readonly id: number; readonly error: { readonly message: string; readonly code?: string } };

interface Waiting {
  resolve(rows: Row[]): void;
  reject(err: Error): void;
}

interface Thread {
  readonly worker: Worker;
  readonly waiting: Map<number, Waiting>;
  ended: boolean;
  /** Ended by the pool after READ_THREADS_IDLE_MS without reads (the next read starts new threads). */
  retired: boolean;
}

export interface ReadPool {
  /** A Kysely for reads on the pool's threads (no transactions), or null when the pool is off. */
  db(): Db | null;
  /** Threads running now, and statements they have answered. */
  stats(): { readonly threads: number; readonly reads: number };
  /** Ends the threads (statements in flight are answered first). */
  close(): Promise<void>;
}

/** How a read thread starts: the worker script beside this module (dist/, or the bundle's entry), or its TypeScript source run through tsx (tests). */
const readWorkerScript = () => workerScript(new URL('./read-worker.js', import.meta.url), new URL('./read-worker.ts', import.meta.url));

export function createReadPool(options: { file: string; nativeBinding?: string; threads: number; idleMs?: number; log?: (message: string) => void }): ReadPool {
  let threads: Thread[] | null = null;
  const idleMs = options.idleMs ?? READ_THREADS_IDLE_MS;
  let idleTimer: NodeJS.Timeout | null = null;
  let off = options.threads < 1;
  let nextId = 0;
  let reads = 0;
  const data: ReadThreadData = options.nativeBinding === undefined ? { file: options.file } : { file: options.file, nativeBinding: options.nativeBinding };

  const fail = (thread: Thread, err: Error): void => {
    for (const waiting of thread.waiting.values()) waiting.reject(err);
    thread.waiting.clear();
  };

  const start = (): Thread[] | null => {
    const script = readWorkerScript();
    if (script === null) {
      off = true;
      options.log?.('read threads: no worker script found; computed reads run on the server thread');
      return null;
    }
    return Array.from({ length: options.threads }, () => {
      const worker = startWorker(script, data);
      const thread: Thread = { worker, waiting: new Map(), ended: false, retired: false };
      worker.on('message', (reply: ReadReply) => {
        const waiting = thread.waiting.get(reply.id);
        if (!waiting) return;
        thread.waiting.delete(reply.id);
        reads++;
        if (thread.waiting.size === 0) idleSoon();
        if ('rows' in reply) waiting.resolve(reply.rows);
        else waiting.reject(Object.assign(new Error(reply.error.message), reply.error.code === undefined ? {} : { code: reply.error.code }));
      });
      worker.on('error', (err) => {
        if (!off) options.log?.(`read threads: a thread failed (${err.message}); computed reads run on the server thread`);
        off = true;
        // An uncaught error ends the thread.
        thread.ended = true;
        fail(thread, err);
      });
      worker.on('exit', () => {
        thread.ended = true;
        if (!thread.retired) off = true;
        fail(thread, new Error('read thread ended'));
      });
      // Idle threads do not keep a process alive (the server does while it runs).
      worker.unref();
      return thread;
    });
  };

  /** Ends the threads once READ_THREADS_IDLE_MS passes without a statement: their memory goes back (a desktop app idles most of the day). */
  const idleSoon = (): void => {
    if (idleTimer !== null || threads === null || threads.some((t) => t.waiting.size > 0)) return;
    idleTimer = setTimeout(() => {
      idleTimer = null;
      const idle = threads ?? [];
      if (off || idle.some((t) => t.waiting.size > 0)) return;
      threads = null;
      for (const thread of idle) {
        thread.retired = true;
        thread.worker.postMessage({ close: true });
      }
    }, idleMs);
    idleTimer.unref();
  };

  const run = (sql: string, parameters: readonly unknown[]): Promise<Row[]> => {
    if (idleTimer !== null) {
      clearTimeout(idleTimer);
      idleTimer = null;
    }
    threads ??= start();
    if (off || threads === null || threads.length === 0) return Promise.reject(new Error('read threads are off'));
    let thread = threads[0] as Thread;
    for (const t of threads) if (t.waiting.size < thread.waiting.size) thread = t;
    const id = nextId++;
    const request: ReadRequest = { id, sql, parameters };
    return new Promise<Row[]>((resolve, reject) => {
      thread.waiting.set(id, { resolve, reject });
      thread.worker.postMessage(request);
    });
  };

  const connection: DatabaseConnection = {
    executeQuery: async <R>(query: CompiledQuery): Promise<QueryResult<R>> => ({ rows: (await run(query.sql, query.parameters)) as R[] }),
    streamQuery: () => {
      throw new Error('read threads do not stream');
    },
  };
  const noTransactions = (): Promise<never> => Promise.reject(new Error('read threads run no transactions'));
  const driver: Driver = {
    init: async () => {},
    acquireConnection: async () => connection,
    beginTransaction: noTransactions,
    commitTransaction: noTransactions,
    rollbackTransaction: noTransactions,
    releaseConnection: async () => {},
    destroy: async () => {},
  };
  const kysely = new Kysely<HearthDB>({
    dialect: {
      createAdapter: () => new SqliteAdapter(),
      createDriver: () => driver,
      createQueryCompiler: () => new SqliteQueryCompiler(),
      createIntrospector: (db) => new SqliteIntrospector(db),
    },
  });

  return {
    db: () => (off ? null : kysely),
    stats: () => ({ threads: (threads ?? []).filter((thread) => !thread.ended).length, reads }),
    async close() {
      if (idleTimer !== null) clearTimeout(idleTimer);
      idleTimer = null;
      const running = threads ?? [];
      off = true;
      threads = [];
      await Promise.all(
        running
          .filter((thread) => !thread.ended)
          .map(
            (thread) =>
              new Promise<void>((resolve) => {
                // Unreferenced, the thread would not keep the process alive until it has ended: a stopping
                // `hearth serve` then left this promise pending and Node exited with code 13.
                thread.worker.ref();
                thread.worker.once('exit', () => resolve());
                thread.worker.postMessage({ close: true });
              }),
          ),
      );
    },
  };
}
