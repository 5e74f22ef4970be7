import { sql, type AliasableExpression, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { Db, DynamicDB, Row } from '../db/database.js';
import { compileFilter } from '../compiler/where.js';
import { sqlDialect } from '../db/sql-dialect.js';
import { TWO_STEP_PAGE_MAX } from '../limits.js';
import { invalidKey } from '../errors/app-error.js';
import { nextAlias, type CompileContext } from '../compiler/context.js';
import type { FilterNode, LocaleSelection, Pagination, PublicationFilter, SortTerm } from '../query/ast.js';
import { lookupField } from '../schema/fields.js';
import { FILE_UID, type ContentTypeModel, type Model } from '../schema/types.js';

type EB = ExpressionBuilder<DynamicDB, string>;

/** Which rows of a content type a read sees. */
export interface ReadScope {
  readonly status: 'draft' | 'published';
  /** Already resolved: the default locale stands in for "none given" on localized types. */
  readonly locale: LocaleSelection | null;
  readonly publicationFilter: PublicationFilter | null;
  readonly search: string | null;
  readonly filters: FilterNode | null;
}

/** Rows of the same document and locale as `alias`, in the other publication state. */
function sibling(eb: EB, model: ContentTypeModel, alias: string, published: boolean, sameLocale: boolean, extra?: (a: string) => Expression<SqlBool>) {
  const other = `${alias}_s`;
  let q = eb
    .selectFrom(`${model.table} as ${other}`)
    .select(sql.lit(1).as('one'))
    .whereRef(`${other}.documentId`, '=', `${alias}.documentId`)
    .where(`${other}.publishedAt`, published ? 'is not' : 'is', null);
  if (sameLocale) {
    q = q.where((w) =>
      w.or([
        w(`${other}.locale`, '=', w.ref(`${alias}.locale`)),
        w.and([w(`${other}.locale`, 'is', null), w(`${alias}.locale`, 'is', null)]),
      ]),
    );
  }
  if (extra) q = q.where(extra(other));
  return q;
}

/** Strapi's publicationFilter: rows picked by how their draft and published versions relate. */
function publicationCondition(eb: EB, model: ContentTypeModel, alias: string, filter: PublicationFilter): Expression<SqlBool> {
  const isDraft = eb(`${alias}.publishedAt`, 'is', null);
  const published = (sameLocale: boolean, extra?: (a: string) => Expression<SqlBool>) => eb.exists(sibling(eb, model, alias, true, sameLocale, extra));
  const draft = (extra?: (a: string) => Expression<SqlBool>) => eb.exists(sibling(eb, model, alias, false, true, extra));
  const self = (cond: Expression<SqlBool>) => cond;
  const newerThan = (a: string) => eb(sql.ref(`${alias}.updatedAt`), '>', sql.ref(`${a}.updatedAt`));
  const olderOrEqual = (a: string) => eb(sql.ref(`${alias}.updatedAt`), '<=', sql.ref(`${a}.updatedAt`));
  const publishedSelf = eb(`${alias}.publishedAt`, 'is not', null);
  switch (filter) {
    case 'never-published':
      return eb.and([isDraft, eb.not(published(true))]);
    case 'has-published-version':
      return eb.or([publishedSelf, published(true)]);
    case 'modified':
      return eb.or([
        eb.and([isDraft, published(true, newerThan)]),
        eb.and([publishedSelf, draft((a) => eb(sql.ref(`${a}.updatedAt`), '>', sql.ref(`${alias}.updatedAt`)))]),
      ]);
    case 'unmodified':
      return eb.or([
        eb.and([isDraft, published(true, olderOrEqual)]),
        eb.and([publishedSelf, draft((a) => eb(sql.ref(`${a}.updatedAt`), '<=', sql.ref(`${alias}.updatedAt`)))]),
      ]);
    case 'never-published-document':
      return eb.and([isDraft, eb.not(published(false))]);
    case 'has-published-version-document':
      return eb.or([publishedSelf, published(false)]);
    case 'published-without-draft':
      return eb.and([publishedSelf, eb.not(draft())]);
    case 'published-with-draft':
      return eb.and([publishedSelf, self(draft())]);
  }
}

/** Searchable attribute types for `_q`, as Strapi's search helper picks them. */
const SEARCHABLE = new Set(['string', 'text', 'richtext', 'email', 'uid', 'enumeration']);

function searchCondition(ctx: CompileContext, eb: EB, model: Model, alias: string, term: string): Expression<SqlBool> {
  const escaped = `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const dialect = sqlDialect(ctx.kind);
  const lowerValue = dialect.unicodeLower(sql.val(escaped));
  const parts: Expression<SqlBool>[] = [];
  for (const attr of model.attributes.values()) {
    if (attr.kind !== 'scalar' || attr.private || !SEARCHABLE.has(attr.type)) continue;
    const col = sql.ref(`${alias}.${attr.name}`);
    parts.push(sql<SqlBool>`${dialect.unicodeLower(col)} LIKE ${lowerValue} ESCAPE '\\'`);
  }
  const numeric = Number(term);
  if (term.trim() !== '' && Number.isFinite(numeric)) {
    for (const attr of model.attributes.values()) {
      if (attr.kind === 'scalar' && !attr.private && ['integer', 'biginteger', 'float', 'decimal'].includes(attr.type)) {
        parts.push(eb(`${alias}.${attr.name}`, '=', numeric));
      }
    }
    if (Number.isInteger(numeric)) parts.push(eb(`${alias}.id`, '=', numeric));
  }
  return parts.length === 0 ? sql<SqlBool>`1 = 0` : eb.or(parts);
}

/** The WHERE of a read: publication state, locale, publicationFilter, `_q`, and the filters. */
export function scopeCondition(ctx: CompileContext, eb: EB, model: ContentTypeModel, alias: string, scope: ReadScope): Expression<SqlBool> {
  const parts: Expression<SqlBool>[] = [];
  if (model.draftAndPublish) parts.push(eb(`${alias}.publishedAt`, scope.status === 'draft' ? 'is' : 'is not', null));
  else parts.push(eb(`${alias}.publishedAt`, 'is not', null));
  if (model.localized) {
    const locale = scope.locale;
    if (locale?.kind === 'one') parts.push(eb(`${alias}.locale`, '=', locale.code));
    else if (locale?.kind === 'list') parts.push(eb(`${alias}.locale`, 'in', [...locale.codes]));
  } else if (model.uid !== FILE_UID) {
    parts.push(eb(`${alias}.locale`, 'is', null));
  }
  if (scope.publicationFilter && model.draftAndPublish) parts.push(publicationCondition(eb, model, alias, scope.publicationFilter));
  if (scope.search !== null) parts.push(searchCondition(ctx, eb, model, alias, scope.search));
  if (scope.filters) parts.push(compileFilter(ctx, eb, model, alias, scope.filters));
  return eb.and(parts);
}

/** An ORDER BY expression for a sort path; steps through relations/components use their first row. */
export function sortExpression(ctx: CompileContext, eb: EB, model: Model, alias: string, path: readonly string[]): AliasableExpression<unknown> {
  const [head, ...rest] = path;
  if (head === undefined) throw new Error('empty sort path');
  if (rest.length === 0) return sql.ref(`${alias}.${head}`);
  const field = lookupField(model, head);
  const targetAlias = nextAlias(ctx);
  const linkAlias = nextAlias(ctx);
  if (field?.kind === 'relation' && field.attribute.kind === 'relation') {
    const target = ctx.registry.model(field.attribute.target);
    if (!target) throw new Error(`unknown target of ${head}`);
    const storage = ctx.registry.relationStorage(model, field.attribute);
    return eb
      .selectFrom(`${storage.joinTable} as ${linkAlias}`)
      .innerJoin(`${target.table} as ${targetAlias}`, `${targetAlias}.id`, `${linkAlias}.${storage.otherColumn}`)
      .select(sortExpression(ctx, eb, target, targetAlias, rest).as('v'))
      .whereRef(`${linkAlias}.${storage.selfColumn}`, '=', `${alias}.id`)
      .orderBy(`${linkAlias}.${storage.orderColumn}`)
      .orderBy(`${linkAlias}.id`)
      .limit(1);
  }
  if (field?.kind === 'component' && field.attribute.kind === 'component') {
    const target = ctx.registry.model(field.attribute.component);
    if (!target) throw new Error(`unknown component of ${head}`);
    return eb
      .selectFrom(`${ctx.registry.componentsTable(model)} as ${linkAlias}`)
      .innerJoin(`${target.table} as ${targetAlias}`, `${targetAlias}.id`, `${linkAlias}.cmp_id`)
      .select(sortExpression(ctx, eb, target, targetAlias, rest).as('v'))
      .whereRef(`${linkAlias}.entity_id`, '=', `${alias}.id`)
      .where(`${linkAlias}.field`, '=', head)
      .orderBy(`${linkAlias}.ord`)
      .orderBy(`${linkAlias}.id`)
      .limit(1);
  }
  if (field?.kind === 'media') {
    const files = ctx.registry.model(FILE_UID);
    if (!files) throw new Error('file model missing');
    return eb
      .selectFrom(`hearth_files_related as ${linkAlias}`)
      .innerJoin(`${files.table} as ${targetAlias}`, `${targetAlias}.id`, `${linkAlias}.file_id`)
      .select(sortExpression(ctx, eb, files, targetAlias, rest).as('v'))
      .whereRef(`${linkAlias}.related_id`, '=', `${alias}.id`)
      .where(`${linkAlias}.related_type`, '=', model.uid)
      .where(`${linkAlias}.field`, '=', head)
      .orderBy(`${linkAlias}.ord`)
      .orderBy(`${linkAlias}.id`)
      .limit(1);
  }
  // `sort=title.x` or `sort[title][x]=asc`: the validator walks only into relations, components
  // and media, so a path continuing past a scalar arrives here. It is the caller's mistake: a 400.
  throw invalidKey({ key: rest[0] ?? '', path: path.join('.'), source: 'query', param: 'sort' });
}

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
 * One page of rows of a content type, in the requested order (ties broken by id, as Strapi's
 * rowid order). A sorted or offset page is found first by id alone, then its rows are read: an
 * index holding the filtered and sorted columns then answers the first step without touching
 * the table, and neither the sort nor the skipped rows carry whole rows (blocks, json) that
 * will be thrown away. A first page in id order is one statement: it stops at its last row; so
 * is a page too long to name by ids in one statement (API_REST_MAX_LIMIT=0 allows any size).
 */
export async function listRows(db: Db, ctx: CompileContext, model: ContentTypeModel, args: ListArgs): Promise<Row[]> {
  let q = db.selectFrom(`${model.table} as t0`).where((eb) => scopeCondition(ctx, eb, model, 't0', args.scope));
  for (const term of args.sort) {
    q = q.orderBy((eb) => sortExpression(ctx, eb, model, 't0', term.path), (ob) =>
      term.direction === 'asc' ? ob.asc().nullsFirst() : ob.desc().nullsLast(),
    );
  }
  q = q.orderBy('t0.id', 'asc');
  const { noLimit } = sqlDialect(ctx.kind);
  const columns = selectedColumns(model, args.fields).map((c) => `t0.${c}`);
  const limit = args.pagination?.limit ?? null;
  if (args.pagination) {
    if (limit !== null) q = q.limit(limit);
    else if (args.pagination.start > 0 && noLimit !== null) q = q.limit(noLimit);
    if (args.pagination.start > 0) q = q.offset(args.pagination.start);
  }
  const oneStep = limit === null || limit > TWO_STEP_PAGE_MAX || (args.sort.length === 0 && (args.pagination?.start ?? 0) === 0);
  if (oneStep) return q.select(columns).execute();
  const ids = (await q.select('t0.id').execute()).map((r) => Number(r.id));
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

/** How many rows a read scope matches (every row is looked at: filters through relations read their matches once). */
export async function countRows(db: Db, ctx: CompileContext, model: ContentTypeModel, scope: ReadScope): Promise<number> {
  const counting: CompileContext = { ...ctx, semiJoins: 'in' };
  const row = await db
    .selectFrom(`${model.table} as t0`)
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where((eb) => scopeCondition(counting, eb, model, 't0', scope))
    .executeTakeFirst();
  return Number(row?.count ?? 0);
}
