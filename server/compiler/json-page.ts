import { CompiledQuery } from 'kysely';
import type { Db, Row } from '../db/database.js';
import type { ContentTypeModel } from '../schema/types.js';
import type { CompileContext } from './context.js';
import { pageQuery, plainScope, type ListArgs } from './list.js';
import { runShape } from './shapes.js';

/**
 * One page of rows as JSON texts (`expr` from json-select.ts over `t0`), in the page's order. The
 * page is found by id first (its statement is small), then its rows' JSON is read by the ids,
 * given as one JSON array: the big statement then has no parameter SQLite plans by (a bound
 * LIMIT or an indexed column's value makes SQLite prepare a statement again at each run, which
 * for a statement this size costs more than running it), so it is prepared once per shape.
 */
export async function jsonPage(db: Db, ctx: CompileContext, model: ContentTypeModel, args: ListArgs, expr: string): Promise<string[]> {
  const ids = await pageIds(db, ctx, model, args);
  if (ids.length === 0) return [];
  const text = `select k."key" as i, ${expr} as j from json_each(?) k cross join "${model.table.replace(/"/g, '""')}" t0 on t0."id" = k."value"`;
  const rows = (await db.executeQuery<Row>(CompiledQuery.raw(text, [JSON.stringify(ids)]))).rows;
  const page: (string | undefined)[] = new Array<string | undefined>(ids.length);
  for (const row of rows) page[Number(row.i)] = String(row.j);
  // A row deleted between the two reads is left out, as if the page had been read after it.
  return page.filter((t): t is string => t !== undefined);
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
