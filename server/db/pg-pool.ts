import type { PostgresCursor, PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely';
import type pg from 'pg';
import { AppError } from '../errors/app-error.js';
import { BUMP, isUndefinedTable, LOCK_CREATE_AND_BUMP, mayWrite, transactionEdge, writesOnlyBookkeeping } from './pg-change.js';

/** Statements run so far on a pool: all of them, and those that may have written. */
export interface StatementCounter {
  n: number;
}

let cursorNames = 0;

/**
 * A server-side cursor for Kysely's `stream()` (pg-cursor is not a dependency): `DECLARE ... WITH
 * HOLD` then `FETCH` in chunks. WITH HOLD lets it live outside a transaction block too, where
 * PostgreSQL keeps the result on the server rather than in this process.
 */
export class SqlCursor<T> implements PostgresCursor<T> {
  readonly #sql: string;
  readonly #parameters: unknown[];
  readonly #name = `hearth_cursor_${++cursorNames}`;
  #client: pg.PoolClient | null = null;
  #counter: StatementCounter | null = null;
  #declared = false;

  constructor(sqlText: string, parameters: unknown[]) {
    this.#sql = sqlText;
    this.#parameters = parameters;
  }

  /** Binds the cursor to the connection it runs on (what `client.query(cursor)` does). */
  attach(client: pg.PoolClient, counter: StatementCounter): this {
    this.#client = client;
    this.#counter = counter;
    return this;
  }

  async read(rowsCount: number): Promise<T[]> {
    const client = this.#client;
    if (client === null || this.#counter === null) throw new Error('cursor read before it was submitted');
    if (!this.#declared) {
      this.#counter.n++;
      await client.query(`DECLARE ${this.#name} NO SCROLL CURSOR WITH HOLD FOR ${this.#sql}`, this.#parameters);
      this.#declared = true;
    }
    const result = await client.query(`FETCH FORWARD ${Math.floor(rowsCount)} FROM ${this.#name}`);
    return result.rows;
  }

  async close(): Promise<void> {
    if (!this.#declared || this.#client === null) return;
    this.#declared = false;
    await this.#client.query(`CLOSE ${this.#name}`);
  }
}

/** What pg answers: one result, or one per statement of a multi-statement text (simple protocol). */
type PgAnswer = pg.QueryResult | pg.QueryResult[];

/**
 * Kysely's view of one pooled connection: counted statements, and cursors run as SqlCursor. A
 * statement that may write, run outside a transaction, runs in a transaction of its own that
 * bumps the change stamp first (pg-change.ts): no write ever commits without moving the stamp,
 * but one to a bookkeeping table alone (a heartbeat, a rate-limit counter), which runs as it is.
 */
class CountingClient implements PostgresPoolClient {
  readonly #client: pg.PoolClient;
  readonly #counter: StatementCounter;
  /** Inside a transaction block (its begin bumped the stamp, postgres.ts). */
  #inTransaction = false;

  constructor(client: pg.PoolClient, counter: StatementCounter) {
    this.#client = client;
    this.#counter = counter;
  }

  query<R>(sqlText: string, parameters: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>>;
  query<R>(cursor: PostgresCursor<R>): PostgresCursor<R>;
  query<R>(what: string | PostgresCursor<R>, parameters?: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>> | PostgresCursor<R> {
    if (typeof what !== 'string') {
      if (!(what instanceof SqlCursor)) throw new Error('only SqlCursor cursors are supported');
      return what.attach(this.#client, this.#counter);
    }
    const values = parameters === undefined ? [] : [...parameters];
    const edge = transactionEdge(what);
    if (edge !== null) this.#inTransaction = edge === 'begin';
    const bumps = edge === null && !this.#inTransaction && mayWrite(what) && !writesOnlyBookkeeping(what);
    const answer = bumps ? this.#inOwnTransaction(what, values) : this.#run(what, values);
    return answer.then(
      (result) => {
        // A multi-statement text answers with its last statement's result.
        const last = Array.isArray(result) ? result[result.length - 1] : result;
        return { command: commandOf(last?.command ?? ''), rowCount: last?.rowCount ?? 0, rows: last?.rows ?? [] };
      },
      (err: unknown) => Promise.reject(refusedValue(err) ?? err),
    );
  }

  #run(sqlText: string, values: unknown[]): Promise<PgAnswer> {
    this.#counter.n++;
    return this.#client.query(sqlText, values) as Promise<PgAnswer>;
  }

  /** The stamp's bookkeeping around a write: not counted (the count is of the statements Hearth asked for). */
  #book(sqlText: string): Promise<PgAnswer> {
    return this.#client.query(sqlText) as Promise<PgAnswer>;
  }

  /**
   * A write outside a transaction: begin, bump the stamp, the write, commit. The bump comes first,
   * as in every write transaction, so writers always take the stamp's row lock before any other.
   */
  async #inOwnTransaction(sqlText: string, values: unknown[]): Promise<PgAnswer> {
    await this.#book(`begin; ${BUMP}`).catch(async (err: unknown) => {
      if (!isUndefinedTable(err)) throw err;
      await this.#book('rollback');
      await this.#book(`begin; ${LOCK_CREATE_AND_BUMP}`);
    });
    try {
      const result = await this.#run(sqlText, values);
      await this.#book('commit');
      return result;
    } catch (err) {
      await this.#book('rollback').catch(() => {});
      throw err;
    }
  }

  release(): void {
    this.#client.release();
  }
}

/** SQLSTATEs of input PostgreSQL cannot hold where SQLite can, with what the caller is told. */
const REFUSED_VALUES: ReadonlyMap<string, string> = new Map([
  // character_not_in_repertoire: PostgreSQL's text cannot hold the NUL character.
  ['22021', 'Text containing the NUL character (\\u0000) cannot be stored or searched in PostgreSQL'],
  // numeric_value_out_of_range: SQLite keeps an integer beyond 64 bits as a real; PostgreSQL's bigint refuses it.
  ['22003', 'A number is out of the range PostgreSQL can store in this field'],
]);

/** An error of the caller's input that this database cannot take: a 400 rather than a 500. */
function refusedValue(err: unknown): AppError | null {
  if (!(err instanceof Error) || !('code' in err) || typeof err.code !== 'string') return null;
  const message = REFUSED_VALUES.get(err.code);
  return message === undefined ? null : new AppError('ValidationError', message, {}, { cause: err });
}

const COMMANDS = ['UPDATE', 'DELETE', 'INSERT', 'SELECT', 'MERGE'] as const;

/** Kysely reads affected-row counts only for these commands; DDL and the rest report as SELECT. */
function commandOf(command: string): PostgresQueryResult<unknown>['command'] {
  return COMMANDS.find((c) => c === command) ?? 'SELECT';
}

/** Wraps a pg Pool for Kysely's PostgresDialect, counting every statement into `counter`. */
export function countingPool(pool: pg.Pool, counter: StatementCounter): PostgresPool {
  return {
    async connect() {
      return new CountingClient(await pool.connect(), counter);
    },
    end: () => pool.end(),
  };
}
