import BetterSqlite3 from 'better-sqlite3';
import { define, normaliseRow, statementCache, unicodeLower } from './sqlite-reader.js';
import { CompiledQuery, Kysely, SqliteDialect, SqliteDriver, type DatabaseConnection, type Driver, type SqliteDatabase, type SqliteDialectConfig, type SqliteStatement, type TransactionSettings } from 'kysely';
import { SQLITE_ANALYSIS_LIMIT, SQLITE_BUSY_TIMEOUT_MS } from '../limits.js';
import type { Database, HearthDB } from './database.js';

/**
 * SQLite calls BEGIN, COMMIT and ROLLBACK read-only (they write nothing themselves); the end of a
 * transaction counts as a write all the same: a reader on another connection (read-pool.ts) may
 * have read the state before it under a change stamp taken after its writes.
 */
const ENDS_TRANSACTION = /^\s*(commit|rollback|end)\b/i;

/** Wraps better-sqlite3 for Kysely: prepared-statement cache, exact integers, a query counter. */
function wrapDatabase(raw: BetterSqlite3.Database, counter: { n: number; writes: number }): SqliteDatabase {
  const prepare = statementCache(raw);
  return {
    close: () => raw.close(),
    prepare(sqlText: string): SqliteStatement {
      const stmt = prepare(sqlText);
      // Counted before running, for every statement that may write (INSERT ... RETURNING is a
      // reader too): a result read under the old change stamp is never trusted after this write.
      const count = stmt.readonly && !ENDS_TRANSACTION.test(sqlText) ? () => counter.n++ : () => (counter.n++, counter.writes++);
      return {
        reader: stmt.reader,
        all(parameters: ReadonlyArray<unknown>) {
          count();
          return stmt.all(...parameters).map(normaliseRow);
        },
        run(parameters: ReadonlyArray<unknown>) {
          count();
          const result = stmt.run(...parameters);
          return { changes: result.changes, lastInsertRowid: result.lastInsertRowid };
        },
        *iterate(parameters: ReadonlyArray<unknown>) {
          count();
          for (const row of stmt.iterate(...parameters)) yield normaliseRow(row);
        },
      };
    },
  };
}

/**
 * Kysely opens SQLite transactions with a plain (deferred) BEGIN: such a transaction that reads and
 * then writes asks for the write lock only at its first write, and if another process (a CLI
 * command, a second server) wrote meanwhile SQLite fails it with SQLITE_BUSY at once, without
 * waiting out the busy timeout (its snapshot is stale: waiting cannot help). BEGIN IMMEDIATE
 * takes the write lock first, waiting up to the busy timeout for it. Read-only transactions (the
 * export's snapshot) stay deferred: they never write and must not block writers.
 */
class ImmediateWritesDriver extends SqliteDriver implements Driver {
  override async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings = {}): Promise<void> {
    if (settings.accessMode === 'read only') return super.beginTransaction(connection);
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

class HearthSqliteDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig;

  constructor(config: SqliteDialectConfig) {
    super(config);
    this.#config = config;
  }

  override createDriver(): Driver {
    return new ImmediateWritesDriver(this.#config);
  }
}

/** Opens (creating if needed) the SQLite file: WAL, a busy timeout, foreign keys on. */
export function openSqlite(file: string, options: { nativeBinding?: string } = {}): Database {
  const raw = new BetterSqlite3(file, options.nativeBinding === undefined ? {} : { nativeBinding: options.nativeBinding });
  raw.pragma('journal_mode = WAL');
  raw.pragma(`busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`);
  raw.pragma('foreign_keys = ON');
  raw.pragma('synchronous = NORMAL');
  raw.pragma(`analysis_limit = ${SQLITE_ANALYSIS_LIMIT}`);
  raw.function('hearth_lower', { deterministic: true }, unicodeLower);
  const counter = { n: 0, writes: 0 };
  const db = new Kysely<HearthDB>({ dialect: new HearthSqliteDialect({ database: wrapDatabase(raw, counter) }) });
  const versionStmt = raw.prepare('PRAGMA data_version').pluck();
  const stamp = () => `${counter.writes}:${String(versionStmt.get())}`;
  let closed = false;
  /** The change stamp of the last optimize: with nothing written since, there is nothing to refresh. */
  let optimizedAt: string | null = null;
  return {
    kind: 'sqlite',
    db,
    // An in-memory or temporary database is this connection's alone.
    readers: file === '' || file === ':memory:' ? undefined : { file: raw.name, nativeBinding: options.nativeBinding },
    queryCount: () => counter.n,
    changeStamp: () => (closed ? null : stamp()),
    othersStamp: () => (closed ? null : String(versionStmt.get())),
    defineFunction: (name, fn) => define(raw, name, fn),
    async optimize() {
      if (closed) return;
      if (stamp() === optimizedAt) return;
      // 0x10000: every table, not only those this connection has queried.
      raw.pragma('optimize = 0x10002');
      optimizedAt = stamp();
    },
    async close() {
      if (closed) return;
      closed = true;
      try {
        raw.pragma('optimize');
      } catch {
        // Statistics are an optimisation: a database that cannot take them now closes anyway.
      }
      await db.destroy();
      // Kysely's driver closes the file only if a query ever ran through it: one opened and never
      // queried would stay open (its -wal and -shm files left beside it).
      if (raw.open) raw.close();
    },
  };
}

