import { CompiledQuery, type Compilable } from 'kysely';
import type { Db, Row } from '../db/database.js';
import { MAX_STATEMENT_SHAPES } from '../limits.js';

/**
 * SQL text by statement shape. A populate level asks the same question for every page (the same
 * link, columns, status and number of ids), a write runs the same few dozen statements every time:
 * each is built and compiled by Kysely once, then only its values change. The text is also what
 * the SQLite driver keys prepared statements by, so a repeated shape is one cached prepared
 * statement. Kept per dialect adapter (shared by a database handle and its transactions, whose
 * handles are new objects each time: its dialect writes the text), so the key names only what the
 * statement reads.
 */
const shapesByAdapter = new WeakMap<object, Map<string, string>>();

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
 * Runs the statement of shape `key` with `parameters`: the text compiled the first time
 * (`build()`) is reused, values always bound. A shape whose first compile binds other
 * parameters than `parameters` (in order) is run as compiled and not kept: a key that does not
 * pin the statement costs speed, never a wrong answer from misplaced values.
 */
export async function runShape(db: Db, key: string, parameters: readonly unknown[], build: () => Compilable<Row>): Promise<Row[]> {
  const result = await db.executeQuery<Row>(shapeQuery(db, key, parameters, build));
  return result.rows;
}

/** The statement of shape `key` with `parameters` (see runShape), compiled once per shape, not run. */
export function shapeQuery(db: Db, key: string, parameters: readonly unknown[], build: () => Compilable<Row>): CompiledQuery<Row> {
  const adapter = db.getExecutor().adapter;
  let shapes = shapesByAdapter.get(adapter);
  if (!shapes) shapesByAdapter.set(adapter, (shapes = new Map()));
  let marks = '';
  for (const p of parameters) marks += typeMark(p);
  const full = `${key}\u0000${marks}`;
  let text = shapes.get(full);
  if (text === undefined) {
    const compiled = build().compile();
    if (compiled.parameters.length !== parameters.length || compiled.parameters.some((p, i) => p !== parameters[i])) return compiled;
    text = compiled.sql;
    if (shapes.size >= MAX_STATEMENT_SHAPES) shapes.delete(shapes.keys().next().value ?? '');
    shapes.set(full, text);
  }
  return CompiledQuery.raw(text, [...parameters]);
}
