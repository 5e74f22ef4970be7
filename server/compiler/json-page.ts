import { CompiledQuery, sql } from 'kysely';
import type { Db, Row } from '../db/database.js';
import { TWO_STEP_PAGE_MAX } from '../limits.js';
import type { ContentTypeModel } from '../schema/types.js';
import type { CompileContext } from './context.js';
import { pageQuery, plainScope, type ListArgs } from './list.js';
import { shapeQuery } from './shapes.js';

const ID_SELECT = 'select "t0"."id" from ';

/**
 * One page of rows as JSON texts (`expr` from json-select.ts over `t0`), in the page's order, or
 * null when the page is not read this way. A first page in id order is one statement (SQLite
 * stops at its last row, building JSON for those rows only); a sorted or offset page is found by
 * id first (as listRows does), then its rows' JSON is read by id.
 */
export async function jsonPage(db: Db, ctx: CompileContext, model: ContentTypeModel, args: ListArgs, expr: string): Promise<string[] | null> {
  const start = args.pagination?.start ?? 0;
  if (args.sort.length === 0 && start === 0) {
    const query = idPage(db, ctx, model, args);
    if (!query.sql.startsWith(ID_SELECT)) return null;
    const text = `select ${expr} as j from ${query.sql.slice(ID_SELECT.length)}`;
    const rows = (await db.executeQuery<Row>(CompiledQuery.raw(text, [...query.parameters]))).rows;
    return rows.map((r) => String(r.j));
  }
  const ids = (await pageQuery(db, ctx, model, args, ['t0.id']).execute()).map((r) => Number(r.id));
  if (ids.length === 0) return [];
  if (ids.length > TWO_STEP_PAGE_MAX) return null;
  const rows = await db
    .selectFrom(`${model.table} as t0`)
    .select(['t0.id', sql<string>`${sql.raw(expr)}`.as('j')])
    .where('t0.id', 'in', ids)
    .execute();
  const byId = new Map<number, string>(rows.map((r) => [Number(r.id), String(r.j)]));
  const page: string[] = [];
  // A row deleted between the two reads is left out, as if the page had been read after it.
  for (const id of ids) {
    const text = byId.get(id);
    if (text !== undefined) page.push(text);
  }
  return page;
}

/** The id-only statement of a first page (compiled once per shape when its scope is plain). */
function idPage(db: Db, ctx: CompileContext, model: ContentTypeModel, args: ListArgs): CompiledQuery<unknown> {
  const plain = plainScope(model, args.scope);
  if (plain === null) return pageQuery(db, ctx, model, args, ['t0.id']).compile();
  const limit = args.pagination?.limit ?? null;
  const window = limit !== null ? [limit] : [];
  const key = `page|${plain.key}|t0.id|${window.length}|0`;
  return shapeQuery(db, key, [...plain.parameters, ...window], () => pageQuery(db, ctx, model, args, ['t0.id']));
}
