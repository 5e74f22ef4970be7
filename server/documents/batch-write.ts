import type { Db, Row } from '../db/database.js';
import { WRITE_MAX_COMPOUND_TERMS, WRITE_MAX_STATEMENT_PARAMETERS } from '../limits.js';
import { rowValues, runWrite, writeRows } from './write-shapes.js';

/**
 * Batched statements of the write path: many rows per INSERT, many ids per `IN`, each statement
 * within WRITE_MAX_STATEMENT_PARAMETERS bound values.
 */

/** Splits a list so that one statement binds at most the limit, `per` values per element. */
export function chunked<T>(list: readonly T[], per = 1): T[][] {
  const size = Math.max(1, Math.floor(WRITE_MAX_STATEMENT_PARAMETERS / Math.max(1, per)));
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}

/** Inserts rows with the same columns, in list order, in as few statements as the limit allows. */
export async function insertMany(db: Db, table: string, rows: readonly Row[]): Promise<void> {
  const [first] = rows;
  if (first === undefined) return;
  const columns = Object.keys(first);
  for (const part of chunked(rows, columns.length)) {
    const values = rowValues(columns, part);
    if (values === null) await db.insertInto(table).values(part).execute();
    else await runWrite(db, `insert|${table}|${columns.join(',')}|${part.length}`, values, () => db.insertInto(table).values(part));
  }
}


/**
 * Inserts rows with the same columns and returns their new ids in list order. Within one
 * multi-row INSERT both databases number rows in VALUES order (SQLite's rowid, PostgreSQL's
 * sequence only grows), so sorting the returned ids pairs them with the rows whatever order
 * RETURNING gives them in.
 */
export async function insertManyReturningIds(db: Db, table: string, rows: readonly Row[]): Promise<number[]> {
  const [first] = rows;
  if (first === undefined) return [];
  const out: number[] = [];
  const columns = Object.keys(first).length;
  if (columns === 0) {
    // A row of defaults only: `INSERT INTO t () VALUES (), ()` is a syntax error.
    for (let i = 0; i < rows.length; i++) out.push(Number((await db.insertInto(table).defaultValues().returning('id').executeTakeFirstOrThrow()).id));
    return out;
  }
  const names = Object.keys(first);
  for (const part of chunked(rows, columns)) {
    const values = rowValues(names, part);
    const build = () => db.insertInto(table).values(part).returning('id');
    const returned = values === null ? await build().execute() : await writeRows(db, `insert-ids|${table}|${names.join(',')}|${part.length}`, values, build);
    out.push(...returned.map((r) => Number(r.id)).sort((a, b) => a - b));
  }
  return out;
}

/** Rows of `table` whose `column` is in `values` (chunked), in the order `orderBy` gives within each chunk. */
export async function selectIn(db: Db, args: { table: string; column: string; values: readonly unknown[]; where?: Readonly<Record<string, unknown>>; orderBy?: readonly string[] }): Promise<Row[]> {
  const out: Row[] = [];
  const where = Object.entries(args.where ?? {});
  const orderBy = args.orderBy ?? [];
  const shape = `select-in|${args.table}|${args.column}|${where.map(([column]) => column).join(',')}|${orderBy.join(',')}`;
  for (const part of chunked([...new Set(args.values)])) {
    const build = () => {
      let q = db.selectFrom(args.table).selectAll().where(args.column, 'in', part);
      for (const [column, value] of where) q = q.where(column, '=', value);
      for (const column of orderBy) q = q.orderBy(column);
      return q;
    };
    out.push(...(await writeRows(db, `${shape}|${part.length}`, [...part, ...where.map(([, value]) => value)], build)));
  }
  return out;
}

/**
 * The greatest `order` of each of `targets` in a join table (0 when it has no link): one scalar
 * `max` per target, which both databases answer from the (target, order) index in one seek, where
 * a GROUP BY over an IN list reads every link of every target.
 */
export async function maxOrders(db: Db, args: { table: string; column: string; order: string; targets: readonly number[] }): Promise<Map<number, number>> {
  const { table, column, order } = args;
  const out = new Map<number, number>();
  const unique = [...new Set(args.targets)];
  for (let i = 0; i < unique.length; i += WRITE_MAX_COMPOUND_TERMS) {
    const part = unique.slice(i, i + WRITE_MAX_COMPOUND_TERMS);
    const build = () => {
      const term = (target: number) =>
        db.selectNoFrom((eb) => [eb.val(target).as('target'), eb.selectFrom(table).select((inner) => inner.fn.max(order).as('m')).where(column, '=', target).as('m')]);
      let q = term(part[0] ?? 0);
      for (const target of part.slice(1)) q = q.unionAll(term(target));
      return q;
    };
    const rows = await writeRows(db, `max-order|${table}|${column}|${order}|${part.length}`, part.flatMap((t) => [t, t]), build);
    for (const r of rows) out.set(Number(r.target), Number(r.m ?? 0));
  }
  return out;
}
