import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { DynamicDB } from '../db/database.js';
import { sqlDialect } from '../db/sql-dialect.js';
import type { BoundValue, FilterNode } from '../query/ast.js';
import type { Model } from '../schema/types.js';
import { nextAlias, type CompileContext } from './context.js';
import { fixedConditions, linkOf } from './links.js';

type EB = ExpressionBuilder<DynamicDB, string>;
type Truth = true | false | null;

/** Escapes LIKE wildcards so a filter value matches literally (Strapi does not escape; Hearth does). */
const escapeLike = (value: string): string => value.replace(/[\\%_]/g, (c) => `\\${c}`);

const TRUE = sql<SqlBool>`1 = 1`;
const FALSE = sql<SqlBool>`1 = 0`;

function lower(ctx: CompileContext, expr: Expression<unknown>) {
  return sqlDialect(ctx.kind).unicodeLower(expr);
}

function like(ctx: CompileContext, column: Expression<unknown>, pattern: string, negate: boolean, insensitive: boolean) {
  const value = sql.val(pattern);
  const fold = insensitive ? (e: Expression<unknown>) => lower(ctx, e) : (e: Expression<unknown>) => sqlDialect(ctx.kind).likeOperand(e);
  return negate
    ? sql<SqlBool>`${fold(column)} NOT LIKE ${fold(value)} ESCAPE '\\'`
    : sql<SqlBool>`${fold(column)} LIKE ${fold(value)} ESCAPE '\\'`;
}

function compare(ctx: CompileContext, alias: string, node: Extract<FilterNode, { kind: 'compare' }>): Expression<SqlBool> {
  const column = sql.ref(`${alias}.${node.field.name}`);
  const value = node.value;
  const single = value as BoundValue;
  const many = value as readonly BoundValue[];
  switch (node.operator) {
    case '$eq':
      return single === null ? sql<SqlBool>`${column} IS NULL` : sql<SqlBool>`${column} = ${single}`;
    case '$ne':
      return single === null ? sql<SqlBool>`${column} IS NOT NULL` : sql<SqlBool>`${column} <> ${single}`;
    case '$eqi':
      return single === null ? sql<SqlBool>`${column} IS NULL` : sql<SqlBool>`${lower(ctx, column)} = ${lower(ctx, sql.val(single))}`;
    case '$nei':
      return single === null ? sql<SqlBool>`${column} IS NOT NULL` : sql<SqlBool>`${lower(ctx, column)} <> ${lower(ctx, sql.val(single))}`;
    case '$lt':
      return sql<SqlBool>`${column} < ${single}`;
    case '$lte':
      return sql<SqlBool>`${column} <= ${single}`;
    case '$gt':
      return sql<SqlBool>`${column} > ${single}`;
    case '$gte':
      return sql<SqlBool>`${column} >= ${single}`;
    case '$in':
      return many.length === 0 ? FALSE : sql<SqlBool>`${column} IN (${sql.join(many.map((v) => sql.val(v)))})`;
    case '$notIn':
      return many.length === 0 ? TRUE : sql<SqlBool>`${column} NOT IN (${sql.join(many.map((v) => sql.val(v)))})`;
    case '$between':
      return sql<SqlBool>`${column} BETWEEN ${many[0] ?? null} AND ${many[1] ?? null}`;
    case '$null':
      return value ? sql<SqlBool>`${column} IS NULL` : sql<SqlBool>`${column} IS NOT NULL`;
    case '$notNull':
      return value ? sql<SqlBool>`${column} IS NOT NULL` : sql<SqlBool>`${column} IS NULL`;
    case '$contains':
      return like(ctx, column, `%${escapeLike(String(single))}%`, false, false);
    case '$notContains':
      return like(ctx, column, `%${escapeLike(String(single))}%`, true, false);
    case '$containsi':
      return like(ctx, column, `%${escapeLike(String(single))}%`, false, true);
    case '$notContainsi':
      return like(ctx, column, `%${escapeLike(String(single))}%`, true, true);
    case '$startsWith':
      return like(ctx, column, `${escapeLike(String(single))}%`, false, false);
    case '$startsWithi':
      return like(ctx, column, `${escapeLike(String(single))}%`, false, true);
    case '$endsWith':
      return like(ctx, column, `%${escapeLike(String(single))}`, false, false);
    case '$endsWithi':
      return like(ctx, column, `%${escapeLike(String(single))}`, false, true);
  }
}

/**
 * How a condition evaluates on the all-NULL row a LEFT JOIN yields when a document has no related
 * rows (SQL three-valued logic). Strapi filters through relations with LEFT JOINs, so e.g.
 * `filters[tags][label][$null]=true` also matches documents without tags; EXISTS alone would not.
 */
function onNullRow(node: FilterNode): Truth {
  switch (node.kind) {
    case 'and': {
      let result: Truth = true;
      for (const child of node.children) {
        const v = onNullRow(child);
        if (v === false) return false;
        if (v === null) result = null;
      }
      return result;
    }
    case 'or': {
      let result: Truth = false;
      for (const child of node.children) {
        const v = onNullRow(child);
        if (v === true) return true;
        if (v === null) result = null;
      }
      return result;
    }
    case 'not': {
      const v = onNullRow(node.child);
      return v === null ? null : !v;
    }
    case 'through':
      return onNullRow(node.child);
    case 'compare':
      switch (node.operator) {
        case '$null':
          return node.value === true;
        case '$notNull':
          return node.value !== true;
        case '$eq':
        case '$eqi':
          return node.value === null ? true : null;
        case '$ne':
        case '$nei':
          return node.value === null ? false : null;
        case '$in':
          return (node.value as readonly BoundValue[]).length === 0 ? false : null;
        case '$notIn':
          return (node.value as readonly BoundValue[]).length === 0 ? true : null;
        default:
          return null;
      }
  }
}

/**
 * The rows reachable from `alias` (a row of `model`) through one attribute, as FROM/JOIN/WHERE
 * pieces, tied to `alias` (correlated) or not (then `self` is the column naming `alias`'s id).
 */
function relatedRows(ctx: CompileContext, eb: EB, model: Model, alias: string, node: Extract<FilterNode, { kind: 'through' }>, correlated = true) {
  const link = linkOf(ctx.registry, model, node.attribute);
  const target = link?.target;
  if (!link || !target) throw new Error(`${model.uid}.${node.attribute} links no rows of one model`);
  const targetAlias = nextAlias(ctx);
  const linkAlias = nextAlias(ctx);
  const self = `${linkAlias}.${link.self}`;
  let base = eb.selectFrom(`${link.table} as ${linkAlias}`).innerJoin(`${target.table} as ${targetAlias}`, `${targetAlias}.id`, `${linkAlias}.${link.other}`);
  for (const condition of fixedConditions(link, linkAlias)) base = base.where(condition);
  return { base: correlated ? base.whereRef(self, '=', `${alias}.id`) : base, self, target, targetAlias };
}

/** Compiles a filter tree on `alias` (a row of `model`) into one boolean SQL expression. */
export function compileFilter(ctx: CompileContext, eb: EB, model: Model, alias: string, node: FilterNode): Expression<SqlBool> {
  switch (node.kind) {
    case 'and':
      return node.children.length === 0 ? TRUE : eb.and(node.children.map((c) => compileFilter(ctx, eb, model, alias, c)));
    case 'or':
      return node.children.length === 0 ? TRUE : eb.or(node.children.map((c) => compileFilter(ctx, eb, model, alias, c)));
    case 'not':
      return eb.not(compileFilter(ctx, eb, model, alias, node.child));
    case 'compare':
      return compare(ctx, alias, node);
    case 'through': {
      let exists: Expression<SqlBool>;
      if (ctx.semiJoins === 'in') {
        const { base, self, target, targetAlias } = relatedRows(ctx, eb, model, alias, node, false);
        exists = eb(`${alias}.id`, 'in', base.select(self).where(compileFilter(ctx, eb, target, targetAlias, node.child)));
      } else {
        const { base, target, targetAlias } = relatedRows(ctx, eb, model, alias, node);
        exists = eb.exists(base.select(sql.lit(1).as('one')).where(compileFilter(ctx, eb, target, targetAlias, node.child)));
      }
      if (onNullRow(node.child) !== true) return exists;
      const { base: any } = relatedRows(ctx, eb, model, alias, node);
      return eb.or([exists, eb.not(eb.exists(any.select(sql.lit(1).as('one'))))]);
    }
  }
}
