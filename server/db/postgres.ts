import {
  sql,
  CompiledQuery,
  Kysely,
  PostgresDialect,
  PostgresDriver,
  type DatabaseConnection,
  type Driver,
  type PostgresDialectConfig,
  type QueryCompiler,
  type TransactionSettings,
} from 'kysely';
import pg from 'pg';
import { PG_LISTEN_RETRY_MS, PG_POOL_SIZE } from '../limits.js';
import type { Database, HearthDB } from './database.js';
import { TypedParametersCompiler } from './pg-compiler.js';
import { createStampReader, isUndefinedTable, LOCK_AND_BUMP, LOCK_CREATE_AND_BUMP } from './pg-change.js';
import { countingPool, SqlCursor, type StatementCounter } from './pg-pool.js';
import { hearthTypes } from './pg-values.js';
import { listenChannel, type ChannelListener } from './pg-listen.js';
import { READ_SCHEMA_STAMP } from './schema-version.js';

/** The channel `announceChange` notifies and every open database listens on (othersStamp). */
const CHANGES_CHANNEL = 'hearth_changes';

/**
 * SQLite runs one transaction at a time on its one connection, and Hearth's transactions rely on
 * it (read, decide, write: unique checks, find-or-create, next order values). On a pool they
 * would interleave, so every read-write transaction starts by taking one advisory lock: they run
 * one at a time, as on SQLite, while plain reads stay concurrent. In the same round trip it bumps
 * the change stamp (pg-change.ts), so the bump commits or rolls back with the transaction's writes.
 * Read-only transactions (the export's snapshot) take neither.
 */
class SerialWritesDriver extends PostgresDriver implements Driver {
  readonly #guard: WriteGuard;

  constructor(config: PostgresDialectConfig, guard: WriteGuard) {
    super(config);
    this.#guard = guard;
  }

  override async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    await super.beginTransaction(connection, settings);
    if (settings.accessMode === 'read only') return;
    const check = this.#guard.check;
    let stamp: string | null;
    try {
      // With a guard, the schema stamp is read in the same round trip, once the lock is held.
      const { rows } = await connection.executeQuery<{ value: string }>(
        CompiledQuery.raw(check === null ? LOCK_AND_BUMP : `${LOCK_AND_BUMP}; ${READ_SCHEMA_STAMP}`),
      );
      stamp = rows[0]?.value ?? null;
    } catch (err) {
      if (!isUndefinedTable(err)) throw err;
      // A fresh database (or one whose tables an import dropped): nothing was done yet, so start again and create the table.
      await connection.executeQuery(CompiledQuery.raw('rollback'));
      await super.beginTransaction(connection, settings);
      await connection.executeQuery(CompiledQuery.raw(LOCK_CREATE_AND_BUMP));
      return;
    }
    if (check === null) return;
    try {
      check(stamp);
    } catch (err) {
      // Kysely rolls back only a transaction whose begin succeeded: this one is ended here.
      await connection.executeQuery(CompiledQuery.raw('rollback'));
      throw err;
    }
  }
}

/** The check every read-write transaction runs once it holds the write lock (Database.guardWrites). */
interface WriteGuard {
  check: ((stamp: string | null) => void) | null;
}

class HearthPostgresDialect extends PostgresDialect {
  readonly #config: PostgresDialectConfig;
  readonly #guard: WriteGuard;

  constructor(config: PostgresDialectConfig, guard: WriteGuard) {
    super(config);
    this.#config = config;
    this.#guard = guard;
  }

  override createDriver(): Driver {
    return new SerialWritesDriver(this.#config, this.#guard);
  }

  override createQueryCompiler(): QueryCompiler {
    return new TypedParametersCompiler();
  }
}

/**
 * Opens a PostgreSQL database (`DATABASE_URL`) behind the same interface as SQLite: values come
 * back as SQLite returns them (see pg-values.ts). Another process's commit cannot be seen without
 * a query, so there is no synchronous change stamp; the response cache reads the stamp every write
 * bumps (`sharedStamp`, pg-change.ts) once per request instead.
 */
export function openPostgres(url: string): Database {
  const pool = new pg.Pool({ connectionString: url, max: PG_POOL_SIZE, types: hearthTypes });
  // An idle connection the server dropped: the pool discards it, and the next query reports any lasting failure.
  pool.on('error', () => {});
  const counter: StatementCounter = { n: 0 };
  const guard: WriteGuard = { check: null };
  const db = new Kysely<HearthDB>({ dialect: new HearthPostgresDialect({ pool: countingPool(pool, counter), cursor: SqlCursor }, guard) });
  const channels = new Set<ChannelListener>();
  let closed = false;
  // A connection of its own LISTENs for other processes' announced changes (not the pool's, not counted).
  let announced = 0;
  let listening = false;
  const listener = new pg.Client({ connectionString: url });
  listener.on('notification', () => void announced++);
  listener.on('error', () => void (listening = false));
  const ready = listener
    .connect()
    .then(() => listener.query(`LISTEN ${CHANGES_CHANNEL}`))
    .then(() => void (listening = true))
    .catch(() => void (listening = false));
  return {
    kind: 'postgres',
    db,
    queryCount: () => counter.n,
    changeStamp: () => null,
    sharedStamp: createStampReader(db, () => closed),
    othersStamp: () => (listening && !closed ? String(announced) : null),
    announceChange: async () => {
      await sql`SELECT pg_notify(${CHANGES_CHANNEL}, '')`.execute(db);
    },
    listen(channel, on) {
      const listener = listenChannel({ url, channel, retryMs: PG_LISTEN_RETRY_MS, onMessage: on.message, onConnect: on.connect });
      channels.add(listener);
      return {
        close: async () => {
          channels.delete(listener);
          await listener.close();
        },
        readValue: (text) => listener.readValue(text),
      };
    },
    guardWrites(check) {
      guard.check = check;
    },
    // Autovacuum keeps PostgreSQL's statistics (schema sync analyses a table whose indexes it changed).
    optimize: async () => {},
    async close() {
      if (closed) return;
      closed = true;
      await ready;
      await listener.end().catch(() => {});
      for (const channel of channels) await channel.close();
      await db.destroy();
    },
  };
}
