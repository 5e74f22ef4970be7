import type { PostgresCursor, PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely';
import type pg from 'pg';
import { AppError } from '../errors/app-error.js';

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

/** Kysely's view of one pooled connection: counted statements, and cursors run as SqlCursor. */
class CountingClient implements PostgresPoolClient {
  readonly #client: pg.PoolClient;
  readonly #counter: StatementCounter;

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
    this.#counter.n++;
    return this.#client.query(what, parameters === undefined ? [] : [...parameters]).then(
      (result) => ({ command: commandOf(result.command), rowCount: result.rowCount ?? 0, rows: result.rows }),
      (err: unknown) => Promise.reject(refusedValue(err) ?? err),
    );
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
