import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { DynamicDB } from '../db/database.js';
import { sqlDialect } from '../db/sql-dialect.js';
import type { FilterNode, LocaleSelection, PublicationFilter } from '../query/ast.js';
import { FILE_UID, type ContentTypeModel, type Model } from '../schema/types.js';
import type { CompileContext } from './context.js';
import { compileFilter } from './where.js';

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
