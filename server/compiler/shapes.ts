import { CompiledQuery, type Compilable } from 'kysely';
import type { Db, Row } from '../db/database.js';
import { MAX_STATEMENT_SHAPES } from '../limits.js';

/**
 * SQL text by statement shape. A populate level asks the same question for every page (the same
 * link, columns, status and number of ids): its statement is built and compiled by Kysely once,
 * then only its values change. The text is also what the SQLite driver keys prepared statements
 * by, so a repeated shape is one cached prepared statement. Kept per database handle (its dialect
 * writes the text), so the key names only what the statement reads.
 */
const shapesByDb = new WeakMap<Db, Map<string, string>>();

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
  let shapes = shapesByDb.get(db);
  if (!shapes) shapesByDb.set(db, (shapes = new Map()));
  let text = shapes.get(key);
  if (text === undefined) {
    const compiled = build().compile();
    if (compiled.parameters.length !== parameters.length || compiled.parameters.some((p, i) => p !== parameters[i])) return compiled;
    text = compiled.sql;
    if (shapes.size >= MAX_STATEMENT_SHAPES) shapes.delete(shapes.keys().next().value ?? '');
    shapes.set(key, text);
  }
  return CompiledQuery.raw(text, [...parameters]);
}
