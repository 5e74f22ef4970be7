import { CompiledQuery, type Compilable, type QueryResult } from 'kysely';
import type { Db, Row } from '../db/database.js';
import { MAX_STATEMENT_SHAPES, WRITE_SHAPE_MAX_PARAMETERS } from '../limits.js';

/**
 * SQL text of the write path's statements, by shape. A write runs the same few dozen statements
 * every time (read the draft, copy its components, re-link its relations ...): each is built and
 * compiled by Kysely once, then only its values are bound. Kept per dialect adapter (shared by a
 * database handle and its transactions, whose handles are new objects each time), so a
 * transaction reuses what earlier ones compiled.
 */
const textsByAdapter = new WeakMap<object, Map<string, string>>();

/**
 * What of a value can change the compiled text: PostgreSQL's compiler casts numbers by kind
 * (`$1::bigint`, `$1::double precision`), so the key tells integers, other numbers and bigints apart.
 */
function typeMark(value: unknown): string {
  switch (typeof value) {
    case 'number':
      return Number.isSafeInteger(value) ? 'i' : 'f';
    case 'bigint':
      return value <= 9223372036854775807n && value >= -9223372036854775808n ? 'b' : 'n';
    default:
      return '.';
  }
}

/**
 * Runs the statement of shape `key` with `parameters` (in the order Kysely binds them): the text
 * compiled the first time (`build()`) is reused. A first compile that binds other values than
 * `parameters` is run as compiled and not kept, so a key that does not pin the statement costs
 * speed, never a wrong statement. Statements of many values (long IN lists, big batches) are
 * compiled each time: their shapes seldom repeat.
 */
export async function runWrite(db: Db, key: string, parameters: readonly unknown[], build: () => Compilable<Row>): Promise<QueryResult<Row>> {
  if (parameters.length > WRITE_SHAPE_MAX_PARAMETERS) return db.executeQuery<Row>(build().compile());
  const adapter = db.getExecutor().adapter;
  let texts = textsByAdapter.get(adapter);
  if (!texts) textsByAdapter.set(adapter, (texts = new Map()));
  let marks = '';
  for (const p of parameters) marks += typeMark(p);
  const full = `${key}\u0000${marks}`;
  const text = texts.get(full);
  if (text !== undefined) return db.executeQuery<Row>(CompiledQuery.raw(text, [...parameters]));
  const compiled = build().compile();
  if (compiled.parameters.length !== parameters.length || compiled.parameters.some((p, i) => p !== parameters[i])) return db.executeQuery<Row>(compiled);
  if (texts.size >= MAX_STATEMENT_SHAPES) texts.delete(texts.keys().next().value ?? '');
  texts.set(full, compiled.sql);
  return db.executeQuery<Row>(compiled);
}

/** `runWrite`'s rows. */
export async function writeRows(db: Db, key: string, parameters: readonly unknown[], build: () => Compilable<Row>): Promise<Row[]> {
  return (await runWrite(db, key, parameters, build)).rows;
}

/**
 * The values of rows that all have exactly `columns` (in that order, none undefined), row after row:
 * the parameters of their multi-row INSERT. null: rows of other shapes (Kysely's own INSERT then).
 */
export function rowValues(columns: readonly string[], rows: readonly Row[]): unknown[] | null {
  const out: unknown[] = [];
  for (const row of rows) {
    const keys = Object.keys(row);
    if (keys.length !== columns.length) return null;
    for (let i = 0; i < keys.length; i++) {
      const value = row[keys[i] ?? ''];
      if (keys[i] !== columns[i] || value === undefined) return null;
      out.push(value);
    }
  }
  return out;
}
