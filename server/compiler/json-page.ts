import { CompiledQuery } from 'kysely';
import type { Db, Row } from '../db/database.js';
import { MAX_STATEMENT_SHAPES } from '../limits.js';
import type { ContentTypeModel } from '../schema/types.js';
import type { CompileContext } from './context.js';
import { pageQuery, plainScope, type ListArgs } from './list.js';
import { runShape, shapeQuery } from './shapes.js';

/**
 * One page of rows as JSON texts (`expr` from json-select.ts over `t0`), in the page's order. A
 * bound LIMIT makes SQLite prepare a statement again at each run (it plans with the value), which
 * for a statement this size costs more than running it: a first page in id order writes its
 * LIMIT in the text; other pages are found by id first (a small statement), then their rows' JSON
 * is read by the ids, given as one JSON array. With a `bound` (a populate that can outgrow the
 * data), the same statement first counts the bound over the page's rows, once, and builds no JSON
 * past `max`: then null is answered (the caller reads the page another way).
 */
export async function jsonPage(db: Db, ctx: CompileContext, model: ContentTypeModel, args: ListArgs, expr: string, bound: PageBound | null = null): Promise<string[] | null> {
  const first = firstPage(db, ctx, model, args, expr, bound);
  if (first !== null && (await stopsAtLimit(db, first))) return pageTexts((await db.executeQuery<Row>(first)).rows);
  return jsonRows(db, model, await pageIds(db, ctx, model, args), expr, bound);
}

/**
 * The JSON texts of the rows `ids` of `model` (in that order; a row that does not exist is left
 * out), built by `expr` in one statement; null when the bound stopped it.
 */
export async function jsonRows(db: Db, model: ContentTypeModel, ids: readonly number[], expr: string, bound: PageBound | null = null): Promise<string[] | null> {
  if (ids.length === 0) return [];
  const json = JSON.stringify(ids);
  const roots = `SELECT k."value", 1 FROM json_each(?) k`;
  const text = textOf(expr, `${bound === null ? '' : 'bound|'}${model.table}`, () => `${withBound(bound, roots)}select k."key" as i, ${guarded(bound, expr)} as j from json_each(?) k cross join "${model.table.replace(/"/g, '""')}" t0 on t0."id" = k."value"`);
  const rows = (await db.executeQuery<Row>(CompiledQuery.raw(text, bound === null ? [json] : [json, json]))).rows;
  if (rows.some((r) => r.j === null)) return null;
  const page: (string | undefined)[] = new Array<string | undefined>(ids.length);
  for (const row of rows) page[Number(row.i)] = String(row.j);
  // A row deleted between the two reads is left out, as if the page had been read after it.
  return page.filter((t): t is string => t !== undefined);
}

/** A populate that can outgrow the data: its bound's levels and total (populate-bound.ts) and the most it may count. */
export interface PageBound {
  readonly levels: string;
  readonly total: string;
  readonly max: number;
}

/** The statement's `WITH` defining the roots `c0` (`roots` selects each root id and 1) and the bound's levels; '' without a bound. */
const withBound = (bound: PageBound | null, roots: string): string => (bound === null ? '' : `WITH c0("id", "w") AS (${roots}), ${bound.levels} `);

/** A row's JSON, or NULL for every row when the bound (an uncorrelated subquery: counted once per statement) passes its max. */
const guarded = (bound: PageBound | null, expr: string): string => (bound === null ? expr : `CASE WHEN (SELECT ${bound.total}) > ${bound.max} THEN NULL ELSE ${expr} END`);

/** The page's texts, or null when the bound stopped it (json_object is never NULL). */
const pageTexts = (rows: Row[]): string[] | null => (rows.some((r) => r.j === null) ? null : rows.map((r) => String(r.j)));

const ID_SELECT = 'select "t0"."id" from ';
const LIMIT = ' limit ?';

/**
 * A first page in id order of a plain scope as one statement, its LIMIT written in the text (SQLite
 * stops at the page's last row and builds JSON for those rows only); null for other pages. With a
 * bound, its roots are the same page read again in the statement's WITH (its parameters twice).
 */
function firstPage(db: Db, ctx: CompileContext, model: ContentTypeModel, args: ListArgs, expr: string, bound: PageBound | null): CompiledQuery<Row> | null {
  const plain = plainScope(model, args.scope);
  const limit = args.pagination?.limit ?? null;
  if (plain === null || args.sort.length > 0 || (args.pagination?.start ?? 0) !== 0 || limit === null || !Number.isSafeInteger(limit)) return null;
  const ids = shapeQuery(db, `page|${plain.key}|t0.id|1|0`, [...plain.parameters, limit], () => pageQuery(db, ctx, model, args, ['t0.id']));
  const parameters = [...ids.parameters];
  if (!ids.sql.startsWith(ID_SELECT) || !ids.sql.endsWith(LIMIT) || parameters.pop() !== limit) return null;
  const rest = `${ids.sql.slice(ID_SELECT.length, -LIMIT.length)} limit ${limit}`;
  const text = textOf(expr, `${bound === null ? '' : 'bound|'}${limit}|${ids.sql}`, () => `${withBound(bound, `SELECT "t0"."id", 1 FROM ${rest}`)}select ${guarded(bound, expr)} as j from ${rest}`);
  return CompiledQuery.raw(text, bound === null ? parameters : [...parameters, ...parameters]);
}

/** Statement texts by row expression and the rest of their shape. */
const texts = new Map<string, Map<string, string>>();

/**
 * The statement text of `expr` and `shape`, built once: the same string each time, so the maps
 * keyed by it (plans here, prepared statements in db/sqlite.ts) hash its many kilobytes once.
 */
function textOf(expr: string, shape: string, build: () => string): string {
  let byShape = texts.get(expr);
  if (!byShape) {
    if (texts.size >= MAX_STATEMENT_SHAPES) texts.delete(texts.keys().next().value ?? '');
    texts.set(expr, (byShape = new Map()));
  }
  let text = byShape.get(shape);
  if (text === undefined) {
    if (byShape.size >= MAX_STATEMENT_SHAPES) byShape.clear();
    byShape.set(shape, (text = build()));
  }
  return text;
}

/** Per statement text: whether SQLite reads it in id order (true) or sorts what it matched (false). */
const ordered = new Map<string, boolean>();

/**
 * Whether SQLite walks `query`'s rows in id order and stops at its LIMIT: a plan that sorts the
 * matched rows would build JSON for each of them first. A scope of one document matches a row or
 * two, so its sort costs nothing. Looked up once per statement text.
 */
async function stopsAtLimit(db: Db, query: CompiledQuery<Row>): Promise<boolean> {
  let known = ordered.get(query.sql);
  if (known === undefined) {
    const plan = (await db.executeQuery<Row>(CompiledQuery.raw(`explain query plan ${query.sql}`, [...query.parameters]))).rows;
    const sorts = plan.some((step) => Number(step.parent) === 0 && String(step.detail).startsWith('USE TEMP B-TREE FOR ORDER BY'));
    known = !sorts || query.sql.includes('"t0"."documentId" = ?');
    if (ordered.size >= MAX_STATEMENT_SHAPES) ordered.delete(ordered.keys().next().value ?? '');
    ordered.set(query.sql, known);
  }
  return known;
}

/** The ids of a page's rows in its order (compiled once per shape when its scope is plain and it is a first page in id order). */
async function pageIds(db: Db, ctx: CompileContext, model: ContentTypeModel, args: ListArgs): Promise<number[]> {
  const plain = plainScope(model, args.scope);
  const start = args.pagination?.start ?? 0;
  const limit = args.pagination?.limit ?? null;
  const build = () => pageQuery(db, ctx, model, args, ['t0.id']);
  const rows =
    plain !== null && args.sort.length === 0 && start === 0
      ? await runShape(db, `page|${plain.key}|t0.id|${limit === null ? 0 : 1}|0`, [...plain.parameters, ...(limit === null ? [] : [limit])], build)
      : await build().execute();
  return rows.map((r) => Number(r.id));
}
