import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { Database, Db } from '../../server/db/database.js';
import { isRecord } from '../../server/errors/is-record.js';

/** Total fuzz cases per CI run (all fuzz files together); raise it locally with HEARTH_FUZZ_RUNS. */
export const FUZZ_RUNS = Number(process.env.HEARTH_FUZZ_RUNS ?? 10_000);
/** A fixed seed to replay a failure (fast-check prints the seed of a failing run). */
export const FUZZ_SEED = process.env.HEARTH_FUZZ_SEED === undefined ? undefined : Number(process.env.HEARTH_FUZZ_SEED);

/** fast-check options for a fuzz file that runs `share` of the total cases. */
/**
 * A fuzz suite runs a fixed number of requests, so its wall time follows the machine's load (16-26 s
 * on two shared cores); this bound only stops a hang, it measures nothing.
 */
export const FUZZ_TIMEOUT_MS = 240_000;

export function fuzzOptions(share: number): { numRuns: number; seed?: number } {
  return { numRuns: Math.max(1, Math.round(FUZZ_RUNS * share)), ...(FUZZ_SEED === undefined ? {} : { seed: FUZZ_SEED }) };
}

/** Errors Strapi answers through koa's http-errors, whose bodies carry no `details` (transcript 034). */
const WITHOUT_DETAILS = new Set(['SyntaxError', 'PayloadTooLargeError']);


/** What one fuzzed request answered, read once. */
export interface Answer {
  readonly status: number;
  readonly type: string;
  readonly text: string;
}

/** Reads a response fully. */
export async function answerOf(res: Response): Promise<Answer> {
  return { status: res.status, type: res.headers.get('content-type') ?? '', text: await res.text() };
}

/**
 * The contract every fuzzed answer keeps: no 5xx; JSON whenever there is a body; on failure
 * Strapi's envelope with exactly `data` and `error`, and `error` with exactly status, name,
 * message and details (details omitted only where Strapi omits it), status matching the HTTP status.
 * Returns a description of the first breach, or null.
 */
export function breach(answer: Answer): string | null {
  const { status, type, text } = answer;
  if (status >= 500) return `status ${status}: ${text.slice(0, 500)}`;
  if (status === 204) return text === '' ? null : `204 with a body: ${text.slice(0, 200)}`;
  if (!/^application\/json; charset=utf-8$/i.test(type)) return `content type "${type}" (status ${status})`;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return `body is not JSON: ${text.slice(0, 200)}`;
  }
  if (status < 400) return null;
  if (!isRecord(body)) return `error body is not an object: ${text.slice(0, 200)}`;
  if (Object.keys(body).sort().join(',') !== 'data,error') return `error body keys: ${Object.keys(body).join(',')}`;
  if (body.data !== null) return 'error body has non-null data';
  const error = body.error;
  if (!isRecord(error)) return 'error is not an object';
  const expected = WITHOUT_DETAILS.has(String(error.name)) ? 'message,name,status' : 'details,message,name,status';
  if (Object.keys(error).sort().join(',') !== expected) return `error keys: ${Object.keys(error).sort().join(',')} (${text.slice(0, 200)})`;
  if (error.status !== status) return `error.status ${String(error.status)} but HTTP ${status}`;
  if (typeof error.name !== 'string' || typeof error.message !== 'string') return 'error name/message not strings';
  if ('details' in error && !isRecord(error.details)) return `error.details is not an object: ${text.slice(0, 200)}`;
  return null;
}

const replacer = (_key: string, value: unknown) => (typeof value === 'bigint' ? `${value}n` : Buffer.isBuffer(value) ? value.toString('base64') : value);

/** What tells a fingerprint the database may have changed, and what hashes its content, per engine. */
interface Engine {
  /** A value that moves whenever anything may have been written (it may move more often). */
  changeCounter(db: Db): Promise<string>;
  /** A digest of every table's rows, in an order that does not depend on where the rows sit. */
  contentHash(db: Db): Promise<string>;
}

/**
 * Bookkeeping that moves without any content being written, left out of the hash: the change
 * stamp (PostgreSQL bumps it in every write's own transaction, a no-op delete's too, to drop
 * response caches), instance heartbeats (every few seconds) and auth rate-limit counters.
 */
const BOOKKEEPING = new Set(['hearth_change', 'hearth_instances', 'hearth_rate_limits']);

const sqliteEngine: Engine = {
  // The connection's own counter of rows written.
  changeCounter: async (db) => String((await sql<{ n: number }>`SELECT total_changes() AS n`.execute(db)).rows[0]?.n),
  async contentHash(db) {
    const digest = createHash('sha256');
    const tables = await sql<{ name: string }>`SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`.execute(db);
    for (const { name } of tables.rows) {
      if (BOOKKEEPING.has(name)) continue;
      const { rows } = await sql`SELECT * FROM ${sql.table(name)} ORDER BY rowid`.execute(db);
      digest.update(name).update(JSON.stringify(rows, replacer));
    }
    return digest.digest('hex');
  },
};

const postgresEngine: Engine = {
  // The next transaction id: every write takes one, reads none (other databases of the server move it too: a needless rehash, never a missed change).
  changeCounter: async (db) => String((await sql<{ x: string }>`SELECT pg_snapshot_xmax(pg_current_snapshot())::text AS x`.execute(db)).rows[0]?.x),
  // One round trip: each table's rows as text, sorted (an update moves a row physically), hashed by the server.
  async contentHash(db) {
    const tables = await sql<{ name: string }>`SELECT tablename AS name FROM pg_tables WHERE schemaname = current_schema() ORDER BY tablename`.execute(db);
    const parts = tables.rows.filter(({ name }) => !BOOKKEEPING.has(name)).map(
      ({ name }) => sql`SELECT ${name} AS name, md5(coalesce(string_agg(t::text, E'\n' ORDER BY t::text COLLATE "C"), '')) AS digest FROM ${sql.table(name)} AS t`,
    );
    if (parts.length === 0) return '';
    const { rows } = await sql<{ name: string; digest: string }>`${sql.join(parts, sql` UNION ALL `)}`.execute(db);
    const ordered = rows.map((r) => `${r.name}:${r.digest}`).sort();
    return createHash('sha256').update(ordered.join('\n')).digest('hex');
  },
};

/**
 * A fingerprint of every table's content, kept cheap: a change counter says whether anything was
 * written since the last look; only then are all rows hashed again.
 */
export function createFingerprint(database: Database) {
  const { db } = database;
  const engine = database.kind === 'postgres' ? postgresEngine : sqliteEngine;
  let changes = '';
  let hash = '';

  /** The fingerprint now. */
  async function take(): Promise<string> {
    const now = await engine.changeCounter(db);
    if (now !== changes) {
      hash = await engine.contentHash(db);
      changes = await engine.changeCounter(db);
    }
    return hash;
  }

  return { take };
}
