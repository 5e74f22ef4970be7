import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../db/database.js';
import type { Registry } from './registry.js';
import type { TableState } from './storage-steps.js';
import type { ContentTypeModel, Model } from './types.js';

/**
 * How many documents a data loss touches. Rows are versions (a draft and a published row per
 * locale), and a component's rows belong to whatever holds them, so the builder's confirmation
 * counts distinct `documentId`s of the content types the lost rows belong to, through any depth
 * of component nesting.
 */

/** A subquery selecting the ids of a model's affected rows. */
export type RowIds = RawBuilder<unknown>;

/** Rows of `table` whose `column` holds a value. */
export const rowsWithValue = (table: string, column: string): RowIds => sql`SELECT id FROM ${sql.table(table)} WHERE ${sql.ref(column)} IS NOT NULL`;

/** Every row of `table`. */
export const allRows = (table: string): RowIds => sql`SELECT id FROM ${sql.table(table)}`;

/** The rows holding one attribute's links in a link table (`entity_id`, or `related_id` of media links). */
export function linkedRows(args: { table: string; column: 'entity_id' | 'related_id'; field?: string; relatedType?: string; exceptTypes?: readonly string[] }): RowIds {
  const where: RawBuilder<unknown>[] = [sql`1 = 1`];
  if (args.field !== undefined) where.push(sql`field = ${args.field}`);
  if (args.relatedType !== undefined) where.push(sql`related_type = ${args.relatedType}`);
  if (args.exceptTypes !== undefined && args.exceptTypes.length > 0) where.push(sql`component_type NOT IN (${sql.join([...args.exceptTypes])})`);
  return sql`SELECT ${sql.ref(args.column)} FROM ${sql.table(args.table)} WHERE ${sql.join(where, sql` AND `)}`;
}

/** The models whose attributes hold a component (directly or in a dynamic zone). */
function holdersOf(registry: Registry, uid: string): Model[] {
  return [...registry.contentTypes, ...registry.components].filter((m) =>
    [...m.attributes.values()].some((a) => (a.kind === 'component' && a.component === uid) || (a.kind === 'dynamiczone' && a.components.includes(uid))),
  );
}

/** Adds, per content type, the subqueries of its rows that hold the given rows of `model` (components are followed up to their holders). */
function collect(args: { registry: Registry; state: TableState; model: Model; ids: RowIds; out: Map<ContentTypeModel, RowIds[]>; depth: number }): void {
  const { registry, state, model, ids, out } = args;
  if (model.modelType === 'contentType') {
    out.set(model, [...(out.get(model) ?? []), ids]);
    return;
  }
  // Component nesting is acyclic (the registry refuses loops); the bound is a guard only.
  if (args.depth > registry.components.length) return;
  for (const holder of holdersOf(registry, model.uid)) {
    const links = registry.componentsTable(holder);
    if (!state.has(links)) continue;
    const held = sql`SELECT entity_id FROM ${sql.table(links)} WHERE component_type = ${model.uid} AND cmp_id IN (${ids})`;
    collect({ ...args, model: holder, ids: held, depth: args.depth + 1 });
  }
}

/** The number of distinct documents owning the rows `ids` of `model` (in the registry before the change). */
export async function countDocuments(db: Db, args: { registry: Registry; state: TableState; model: Model; ids: RowIds }): Promise<number> {
  const out = new Map<ContentTypeModel, RowIds[]>();
  collect({ ...args, out, depth: 0 });
  let total = 0;
  for (const [type, subqueries] of out) {
    if (!args.state.has(type.table)) continue;
    const ids = sql.join(subqueries, sql` UNION `);
    const { rows } = await sql<{ n: unknown }>`SELECT COUNT(DISTINCT ${sql.ref('documentId')}) AS n FROM ${sql.table(type.table)} WHERE id IN (${ids})`.execute(db);
    total += Number(rows[0]?.n ?? 0);
  }
  return total;
}
