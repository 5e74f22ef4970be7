import { sql, type Expression, type SqlBool } from 'kysely';
import type { Db, Row } from '../db/database.js';
import type { FilterNode, SortTerm } from '../query/ast.js';
import type { Model } from '../schema/types.js';
import type { CompileContext } from './context.js';
import { fixedConditions, type Link } from './links.js';
import { runShape } from './shapes.js';
import { sortExpression } from './sort.js';
import { compileFilter } from './where.js';

const CHUNK = 500;
/** Splits ids into chunks small enough for one `IN (...)`. */
export const chunks = <T>(items: readonly T[]): T[][] => {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += CHUNK) out.push(items.slice(i, i + CHUNK));
  return out;
};

/** Each id once, first occurrence order. */
export const unique = (ids: Iterable<number>): number[] => [...new Set(ids)];

/** The publication-state condition for rows of a draft & publish type (null for others). */
export function statusCondition(model: Model, alias: string, status: 'draft' | 'published'): Expression<SqlBool> | null {
  if (model.modelType !== 'contentType' || !model.draftAndPublish) return null;
  return status === 'draft' ? sql<SqlBool>`${sql.ref(`${alias}.publishedAt`)} IS NULL` : sql<SqlBool>`${sql.ref(`${alias}.publishedAt`)} IS NOT NULL`;
}

/** Which linked rows a populate level reads. */
export interface LinkedSelect {
  readonly link: Link;
  readonly target: Model;
  readonly status: 'draft' | 'published';
  readonly filters: FilterNode | null;
  readonly sort: readonly SortTerm[];
  readonly parentIds: readonly number[];
  /** Columns of the target to read (each row also carries `__parent`, its owner's id). */
  readonly columns: readonly string[];
}

/**
 * The rows linked to `parentIds`, each with `__parent`, one statement per chunk of parents:
 * grouped by parent, then in the populate's sort, then in link order.
 */
export async function selectLinked(db: Db, ctx: CompileContext, args: LinkedSelect): Promise<Row[]> {
  const rows: Row[] = [];
  // Without filters or sort the statement depends only on the link, columns, status and number of ids.
  const plain = args.filters === null && args.sort.length === 0;
  const shape = `linked|${linkKey(args.link)}|${args.target.table}|${statusKey(args.target, args.status)}|${args.columns.join(',')}`;
  for (const ids of chunks(args.parentIds)) {
    if (plain) rows.push(...(await runShape(db, `${shape}|${ids.length}`, [...ids, ...fixedValues(args.link)], () => linkedQuery(db, ctx, args, ids))));
    else rows.push(...(await linkedQuery(db, ctx, args, ids).execute()));
  }
  return rows;
}

/** What of a link its statement's text depends on (its fixed values are bound). */
const linkKey = (link: Link): string => `${link.table}|${link.self}|${link.other}|${link.order}|${link.type ?? ''}|${link.fixed.map((f) => f.column).join(',')}`;
const statusKey = (model: Model, status: 'draft' | 'published' | null): string => (status !== null && statusCondition(model, 't0', status) ? status : '');
const fixedValues = (link: Link): string[] => link.fixed.map((f) => f.value);

/** The statement of selectLinked for one chunk of parent ids. */
export function linkedQuery(db: Db, ctx: CompileContext, args: Omit<LinkedSelect, 'parentIds'>, ids: readonly number[]) {
  const { link, target } = args;
  let q = db
    .selectFrom(`${link.table} as l`)
    .innerJoin(`${target.table} as t0`, 't0.id', `l.${link.other}`)
    .select([`l.${link.self} as __parent`, ...args.columns.map((c) => `t0.${c}`)])
    .where(`l.${link.self}`, 'in', ids);
  const status = statusCondition(target, 't0', args.status);
  if (status) q = q.where(status);
  for (const cond of fixedConditions(link, 'l')) q = q.where(cond);
  const filters = args.filters;
  if (filters) q = q.where((eb) => compileFilter(ctx, eb, target, 't0', filters));
  q = q.orderBy(`l.${link.self}`);
  for (const term of args.sort) {
    q = q.orderBy((eb) => sortExpression(ctx, eb, target, 't0', term.path), (ob) =>
      term.direction === 'asc' ? ob.asc().nullsFirst() : ob.desc().nullsLast(),
    );
  }
  return q.orderBy(`l.${link.order}`).orderBy('l.id');
}

/** How many distinct linked rows each parent has (a populate `count`), by parent id. */
export async function countLinked(db: Db, ctx: CompileContext, args: Omit<LinkedSelect, 'sort' | 'columns'>): Promise<Map<number, number>> {
  const counts = new Map<number, number>();
  for (const ids of chunks(args.parentIds)) {
    for (const row of await countLinkedQuery(db, ctx, args, ids).execute()) counts.set(Number(row.parent), Number(row.count));
  }
  return counts;
}

/** The statement of countLinked for one chunk of parent ids. */
export function countLinkedQuery(db: Db, ctx: CompileContext, args: Omit<LinkedSelect, 'sort' | 'columns' | 'parentIds'>, ids: readonly number[]) {
  const { link, target } = args;
  let q = db
    .selectFrom(`${link.table} as l`)
    .innerJoin(`${target.table} as t0`, 't0.id', `l.${link.other}`)
    .select([`l.${link.self} as parent`, (eb) => eb.fn.count<number>('t0.id').distinct().as('count')])
    .where(`l.${link.self}`, 'in', ids)
    .groupBy(`l.${link.self}`);
  const status = statusCondition(target, 't0', args.status);
  if (status) q = q.where(status);
  for (const cond of fixedConditions(link, 'l')) q = q.where(cond);
  const filters = args.filters;
  if (filters) q = q.where((eb) => compileFilter(ctx, eb, target, 't0', filters));
  return q;
}

/** One link of a link whose rows name their own model (a dynamic zone, a morph-to side). */
export interface TypedLink {
  readonly parent: number;
  readonly type: string;
  readonly id: number;
}

/**
 * The links of `parentIds` through a link naming each row's model (`link.type`), in link order,
 * optionally only those of `types`. Reads the link table alone: the rows are read per model.
 */
export async function selectTypedLinks(db: Db, link: Link, parentIds: readonly number[], types?: readonly string[]): Promise<TypedLink[]> {
  const links: TypedLink[] = [];
  const named = types === undefined ? [] : types.length > 0 ? types : [''];
  const shape = `typed|${linkKey(link)}|${types === undefined ? '' : named.length}`;
  for (const ids of chunks(parentIds)) {
    const rows = await runShape(db, `${shape}|${ids.length}`, [...ids, ...fixedValues(link), ...named], () => typedLinksQuery(db, link, ids, types));
    for (const r of rows) links.push({ parent: Number(r.parent), type: String(r.type), id: Number(r.id) });
  }
  return links;
}

/** The statement of selectTypedLinks for one chunk of parent ids. */
export function typedLinksQuery(db: Db, link: Link, ids: readonly number[], types?: readonly string[]) {
  const type = link.type;
  if (type === null) throw new Error(`${link.table} names no model per link`);
  let q = db
    .selectFrom(`${link.table} as l`)
    .select([`l.${link.self} as parent`, `l.${link.other} as id`, `l.${type} as type`])
    .where(`l.${link.self}`, 'in', ids);
  for (const cond of fixedConditions(link, 'l')) q = q.where(cond);
  // An empty list of types matches no link (`IN ('')`: no model has an empty uid).
  if (types) q = q.where(`l.${type}`, 'in', types.length > 0 ? types : ['']);
  return q.orderBy(`l.${link.self}`).orderBy(`l.${link.order}`).orderBy('l.id');
}

/** Which rows of one model a read by id (or by document) picks. */
export interface RowsSelect {
  readonly model: Model;
  readonly columns: readonly string[];
  /** The publication state to keep on draft & publish types; null reads rows in any state. */
  readonly status: 'draft' | 'published' | null;
  readonly filters: FilterNode | null;
}

/** Rows of `model` by id, one statement per chunk, in no particular order (`ctx` compiles the filters: none without). */
export async function selectRowsById(db: Db, ctx: CompileContext | null, args: RowsSelect & { readonly ids: readonly number[] }): Promise<Row[]> {
  const rows: Row[] = [];
  const shape = `byId|${args.model.table}|${statusKey(args.model, args.status)}|${args.columns.join(',')}`;
  for (const chunk of chunks(unique(args.ids))) {
    if (args.filters === null) rows.push(...(await runShape(db, `${shape}|${chunk.length}`, chunk, () => rowsByIdQuery(db, ctx, args, chunk))));
    else rows.push(...(await rowsByIdQuery(db, ctx, args, chunk).execute()));
  }
  return rows;
}

/** The statement of selectRowsById for one chunk of ids. */
export function rowsByIdQuery(db: Db, ctx: CompileContext | null, args: RowsSelect, ids: readonly number[]) {
  const { model } = args;
  let q = db.selectFrom(`${model.table} as t0`).select(args.columns.map((c) => `t0.${c}`)).where('t0.id', 'in', ids);
  const status = args.status === null ? null : statusCondition(model, 't0', args.status);
  if (status) q = q.where(status);
  const filters = args.filters;
  if (filters && ctx) q = q.where((eb) => compileFilter(ctx, eb, model, 't0', filters));
  else if (filters) throw new Error('filters without a compile context');
  return q;
}

/** The rows of `documentIds` in the status being read (published rows for types without draft & publish), in id order per chunk. */
export async function selectRowsByDocument(db: Db, ctx: CompileContext, args: RowsSelect & { readonly status: 'draft' | 'published'; readonly documentIds: readonly string[] }): Promise<Row[]> {
  const { model } = args;
  const rows: Row[] = [];
  for (const ids of chunks(args.documentIds)) {
    let q = db.selectFrom(`${model.table} as t0`).select(args.columns.map((c) => `t0.${c}`)).where('t0.documentId', 'in', ids);
    const status = statusCondition(model, 't0', args.status);
    if (status) q = q.where(status);
    else q = q.where('t0.publishedAt', 'is not', null);
    const filters = args.filters;
    if (filters) q = q.where((eb) => compileFilter(ctx, eb, model, 't0', filters));
    rows.push(...(await q.orderBy('t0.id').execute()));
  }
  return rows;
}
