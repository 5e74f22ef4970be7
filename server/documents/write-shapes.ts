import type { Compilable, QueryResult } from 'kysely';
import type { Db, Row } from '../db/database.js';
import { shapeQuery } from '../compiler/shapes.js';
import { WRITE_SHAPE_MAX_PARAMETERS } from '../limits.js';

/**
 * Runs a write statement of shape `key` with `parameters` (in the order Kysely binds them),
 * compiled once per shape (compiler/shapes.ts). Statements of many values (long IN lists, big
 * batches) are compiled each time: their shapes seldom repeat.
 */
export async function runWrite(db: Db, key: string, parameters: readonly unknown[], build: () => Compilable<Row>): Promise<QueryResult<Row>> {
  if (parameters.length > WRITE_SHAPE_MAX_PARAMETERS) return db.executeQuery<Row>(build().compile());
  return db.executeQuery<Row>(shapeQuery(db, `write|${key}`, parameters, build));
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
