import { sql, type AliasableExpression, type ExpressionBuilder } from 'kysely';
import type { DynamicDB } from '../db/database.js';
import { invalidKey } from '../errors/app-error.js';
import { lookupField } from '../schema/fields.js';
import type { Model } from '../schema/types.js';
import { nextAlias, type CompileContext } from './context.js';
import { fixedConditions, linkOf } from './links.js';

type EB = ExpressionBuilder<DynamicDB, string>;

/** An ORDER BY expression for a sort path; steps through relations, components and media use their first linked row. */
export function sortExpression(ctx: CompileContext, eb: EB, model: Model, alias: string, path: readonly string[]): AliasableExpression<unknown> {
  const [head, ...rest] = path;
  if (head === undefined) throw new Error('empty sort path');
  if (rest.length === 0) return sql.ref(`${alias}.${head}`);
  const field = lookupField(model, head);
  const link = field?.kind === 'relation' || field?.kind === 'component' || field?.kind === 'media' ? linkOf(ctx.registry, model, head) : null;
  const target = link?.target;
  if (!link || !target) {
    // `sort=title.x` or `sort[title][x]=asc`: the validator walks only into relations, components
    // and media, so a path continuing past a scalar arrives here. It is the caller's mistake: a 400.
    throw invalidKey({ key: rest[0] ?? '', path: path.join('.'), source: 'query', param: 'sort' });
  }
  const targetAlias = nextAlias(ctx);
  const linkAlias = nextAlias(ctx);
  let q = eb
    .selectFrom(`${link.table} as ${linkAlias}`)
    .innerJoin(`${target.table} as ${targetAlias}`, `${targetAlias}.id`, `${linkAlias}.${link.other}`)
    .select(sortExpression(ctx, eb, target, targetAlias, rest).as('v'))
    .whereRef(`${linkAlias}.${link.self}`, '=', `${alias}.id`);
  for (const condition of fixedConditions(link, linkAlias)) q = q.where(condition);
  return q.orderBy(`${linkAlias}.${link.order}`).orderBy(`${linkAlias}.id`).limit(1);
}

