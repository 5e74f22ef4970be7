import { CompiledQuery, type Compilable } from 'kysely';
import type { Db, Row } from '../db/database.js';
import { statusIndexNames } from '../schema/storage.js';
import { sqlDialect } from '../db/sql-dialect.js';
import { TWO_STEP_PAGE_MAX } from '../limits.js';
import type { Pagination, SortTerm } from '../query/ast.js';
import { FILE_UID, type ContentTypeModel, type Model } from '../schema/types.js';
import type { CompileContext } from './context.js';
import { scopeCondition, type ReadScope } from './scope.js';
import { runShape } from './shapes.js';
import { sortExpression } from './sort.js';

/** Columns every root read selects besides the requested fields (population needs them). */
const SYSTEM_COLUMNS = ['id', 'documentId', 'locale', 'publishedAt', 'updatedAt'];

function selectedColumns(model: Model, fields: readonly string[]): string[] {
  const columns = new Set<string>(model.modelType === 'contentType' && model.uid !== FILE_UID ? SYSTEM_COLUMNS : ['id']);
  for (const f of fields) columns.add(f);
  return [...columns];
}

export interface ListArgs {
  readonly scope: ReadScope;
  readonly fields: readonly string[];
  readonly sort: readonly SortTerm[];
  readonly pagination: Pagination | null;
}

/**
 * The statement of a page: its rows in the requested order (ties broken by id, as Strapi's rowid
 * order), selecting `columns`: the page's columns, or only `t0.id` for a page's first step.
 */
export function pageQuery(db: Db, ctx: CompileContext, model: ContentTypeModel, args: ListArgs, columns: readonly string[]) {
  let q = db.selectFrom(`${model.table} as t0`).where((eb) => scopeCondition(ctx, eb, model, 't0', args.scope));
  for (const term of args.sort) {
    q = q.orderBy((eb) => sortExpression(ctx, eb, model, 't0', term.path), (ob) =>
      term.direction === 'asc' ? ob.asc().nullsFirst() : ob.desc().nullsLast(),
    );
  }
  q = q.orderBy('t0.id', 'asc');
  const { noLimit } = sqlDialect(ctx.kind);
  const limit = args.pagination?.limit ?? null;
  if (args.pagination) {
    if (limit !== null) q = q.limit(limit);
    else if (args.pagination.start > 0 && noLimit !== null) q = q.limit(noLimit);
    if (args.pagination.start > 0) q = q.offset(args.pagination.start);
  }
  return q.select(columns);
}

/** The columns a page selects (`t0.` and the system columns population needs, then `fields`). */
export const pageColumns = (model: Model, fields: readonly string[]): string[] => selectedColumns(model, fields).map((c) => `t0.${c}`);

/**
 * One page of rows of a content type, in the requested order. A sorted or offset page is found
 * first by id alone, then its rows are read: an
 * index holding the filtered and sorted columns then answers the first step without touching
 * the table, and neither the sort nor the skipped rows carry whole rows (blocks, json) that
 * will be thrown away. A first page in id order is one statement: it stops at its last row; so
 * is a page too long to name by ids in one statement (API_REST_MAX_LIMIT=0 allows any size).
 */
export async function listRows(db: Db, ctx: CompileContext, model: ContentTypeModel, args: ListArgs): Promise<Row[]> {
  const columns = pageColumns(model, args.fields);
  const limit = args.pagination?.limit ?? null;
  const oneStep = limit === null || limit > TWO_STEP_PAGE_MAX || (args.sort.length === 0 && (args.pagination?.start ?? 0) === 0);
  if (oneStep) {
    const plain = plainScope(model, args.scope);
    if (plain === null || args.sort.length > 0) return pageQuery(db, ctx, model, args, columns).execute();
    // A page without filters or sort: compiled once per shape (locale values, limit and offset bound).
    const start = args.pagination?.start ?? 0;
    const { noLimit } = sqlDialect(ctx.kind);
    const window = limit !== null ? [limit] : args.pagination && start > 0 && noLimit !== null ? [noLimit] : [];
    const offset = args.pagination && start > 0 ? [start] : [];
    const key = `page|${plain.key}|${columns.join(',')}|${window.length}|${offset.length}`;
    return runShape(db, key, [...plain.parameters, ...window, ...offset], () => pageQuery(db, ctx, model, args, columns));
  }
  const ids = (await pageQuery(db, ctx, model, args, ['t0.id']).execute()).map((r) => Number(r.id));
  if (ids.length === 0) return [];
  const rows = await db.selectFrom(`${model.table} as t0`).select(columns).where('t0.id', 'in', ids).execute();
  const byId = new Map<number, Row>(rows.map((r) => [Number(r.id), r]));
  const page: Row[] = [];
  // A row deleted between the two reads is left out, as if the page had been read after it.
  for (const id of ids) {
    const row = byId.get(id);
    if (row !== undefined) page.push(row);
  }
  return page;
}

/** The statement counting the rows a read scope matches (every row is looked at: filters through relations read their matches once). */
export function countQuery(db: Db, ctx: CompileContext, model: ContentTypeModel, scope: ReadScope) {
  const counting: CompileContext = { ...ctx, semiJoins: 'in' };
  return db
    .selectFrom(`${model.table} as t0`)
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where((eb) => scopeCondition(counting, eb, model, 't0', scope));
}

/** How many rows a read scope matches. */
export async function countRows(db: Db, ctx: CompileContext, model: ContentTypeModel, scope: ReadScope): Promise<number> {
  const plain = plainScope(model, scope);
  if (plain === null) return Number((await countQuery(db, ctx, model, scope).execute())[0]?.count ?? 0);
  const build = () => countQuery(db, ctx, model, scope);
  if (!unindexed.has(model.table)) {
    try {
      const rows = await runShape(db, `count|indexed|${plain.key}`, plain.parameters, () => statusIndexed(ctx, model, scope, build()));
      return Number(rows[0]?.count ?? 0);
    } catch (err) {
      // A table the schema sync did not make (an older data dir's copy of a built-in type): counted as any other.
      if (!(err instanceof Error && /no such index/.test(err.message))) throw err;
      unindexed.add(model.table);
    }
  }
  const rows = await runShape(db, `count|${plain.key}`, plain.parameters, build);
  return Number(rows[0]?.count ?? 0);
}

/** Tables found without their status indexes: their counts leave the choice of index to SQLite. */
const unindexed = new Set<string>();

/**
 * The count of a plain scope (one status, its locales) on SQLite, told to read the status's
 * partial index (schema/storage.ts statusIndexNames): SQLite would rather scan a wider covering
 * index of the table, as it sees no column `publishedAt` in the status index (its WHERE holds
 * it). Every scope condition names the status the index is partial on (scope.ts), so SQLite can
 * always use it. Other statements and PostgreSQL leave the choice to the planner.
 */
function statusIndexed(ctx: CompileContext, model: ContentTypeModel, scope: ReadScope, query: Compilable<Row>): Compilable<Row> {
  // Built-in types' tables come from migrations (db/migrations.ts), without status indexes.
  if (ctx.kind !== 'sqlite' || model.builtIn || scope.filters !== null) return query;
  const names = statusIndexNames(model.table);
  const index = model.draftAndPublish && scope.status === 'draft' ? names.draft : names.published;
  return {
    compile() {
      const compiled = query.compile();
      const from = `from ${quoted(model.table)} as "t0"`;
      if (!compiled.sql.includes(from)) return compiled;
      return CompiledQuery.raw(compiled.sql.replace(from, `${from} indexed by ${quoted(index)}`), [...compiled.parameters]);
    },
  };
}

const quoted = (name: string): string => `"${name.replace(/"/g, '""')}"`;

/**
 * A scope without `_q`, publicationFilter or filters (but one document's: `documentId = ?`): its
 * WHERE depends only on the model, the status and how many locales it names; their codes and the
 * documentId are its only values. Null for other scopes.
 */
export function plainScope(model: ContentTypeModel, scope: ReadScope): { key: string; parameters: readonly string[] } | null {
  if (scope.search !== null || scope.publicationFilter !== null) return null;
  const filters = scope.filters;
  const documentId = filters?.kind === 'compare' && filters.field.name === 'documentId' && filters.operator === '$eq' && typeof filters.value === 'string' ? filters.value : null;
  if (filters !== null && documentId === null) return null;
  const locale = scope.locale;
  const codes = !model.localized ? [] : locale?.kind === 'one' ? [locale.code] : locale?.kind === 'list' ? [...locale.codes] : [];
  const parameters = documentId === null ? codes : [...codes, documentId];
  const key = `${model.table}|${model.uid === FILE_UID}|${model.draftAndPublish}|${scope.status}|${model.localized}|${locale?.kind ?? ''}|${codes.length}|${documentId === null ? '' : 'document'}`;
  return { key, parameters };
}
