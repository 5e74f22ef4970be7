import BetterSqlite3 from 'better-sqlite3';
import { SQLITE_BUSY_TIMEOUT_MS, STATEMENT_CACHE_SIZE } from '../limits.js';
import type { Row } from './database.js';

/**
 * better-sqlite3 as both of Hearth's SQLite connections use it: the server's own (sqlite.ts, for
 * Kysely) and the read threads' (documents/read-worker.ts), which load this module alone (no Kysely).
 */

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
const MIN_SAFE = BigInt(Number.MIN_SAFE_INTEGER);

/**
 * Integers are read as BigInt so a biginteger beyond 2^53 keeps every digit; every value that
 * fits a double exactly becomes a plain number again, so only such biginteger values stay BigInt.
 */
export const normaliseValue = (value: unknown): unknown => (typeof value === 'bigint' && value <= MAX_SAFE && value >= MIN_SAFE ? Number(value) : value);

export function normaliseRow(row: unknown): unknown {
  if (row === null || typeof row !== 'object') return row;
  const record = row as Record<string, unknown>;
  for (const key in record) {
    const value = record[key];
    if (typeof value === 'bigint' && value <= MAX_SAFE && value >= MIN_SAFE) record[key] = Number(value);
  }
  return record;
}

/** Unicode-aware lower-case (SQLite's own LOWER folds ASCII only: strapi#14597). */
export function unicodeLower(value: unknown): unknown {
  return typeof value === 'string' ? value.toLowerCase() : value;
}

/** Prepares statements through an LRU cache of STATEMENT_CACHE_SIZE, integers read exactly (BigInt). */
export function statementCache(raw: BetterSqlite3.Database): (sqlText: string) => BetterSqlite3.Statement {
  const cache = new Map<string, BetterSqlite3.Statement>();
  return (sqlText: string): BetterSqlite3.Statement => {
    let stmt = cache.get(sqlText);
    if (stmt) {
      cache.delete(sqlText);
      cache.set(sqlText, stmt);
      return stmt;
    }
    stmt = raw.prepare(sqlText);
    if (stmt.reader) stmt.safeIntegers(true);
    cache.set(sqlText, stmt);
    if (cache.size > STATEMENT_CACHE_SIZE) {
      const oldest = cache.keys().next().value;
      if (oldest !== undefined) cache.delete(oldest);
    }
    return stmt;
  };
}

/** Registers a deterministic SQL function: integers arrive as numbers, or BigInt beyond 2^53. */
export function define(raw: BetterSqlite3.Database, name: string, fn: (...args: unknown[]) => unknown): void {
  raw.function(name, { deterministic: true, varargs: true, safeIntegers: true }, (...args: unknown[]) => fn(...args.map(normaliseValue)));
}

/** A read-only connection to a SQLite file another connection writes (WAL): for reads on another thread. */
export interface SqliteReader {
  /** The rows of one statement, integers as openSqlite reads them. */
  all(sqlText: string, parameters: readonly unknown[]): Row[];
  defineFunction(name: string, fn: (...args: unknown[]) => unknown): void;
  close(): void;
}

/** Opens `file` read-only, with openSqlite's busy timeout and SQL functions. */
export function openSqliteReader(file: string, options: { nativeBinding?: string } = {}): SqliteReader {
  const raw = new BetterSqlite3(file, { readonly: true, fileMustExist: true, ...(options.nativeBinding === undefined ? {} : { nativeBinding: options.nativeBinding }) });
  raw.pragma(`busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`);
  raw.function('hearth_lower', { deterministic: true }, unicodeLower);
  const prepare = statementCache(raw);
  return {
    all: (sqlText, parameters) => prepare(sqlText).all(...parameters).map(normaliseRow) as Row[],
    defineFunction: (name, fn) => define(raw, name, fn),
    close: () => raw.close(),
  };
}
