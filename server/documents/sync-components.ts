import type { Row } from '../db/database.js';
import type { ContentTypeModel, Model } from '../schema/types.js';
import { selectIn } from './batch-write.js';
import type { WriteEnv } from './store.js';
import { componentRowsOf } from './values-of.js';

/** A component whose rows hold only their own columns: no nested components, media, relations or morph links. */
const isLeaf = (component: Model): boolean => (component.morphs?.size ?? 0) === 0 && [...component.attributes.values()].every((a) => a.kind === 'scalar');

/**
 * Copies the components of some non-localized fields of row `fromId` onto the other locale's row
 * `toId` in place: where the target holds components of the same types in the same order, each
 * of its rows takes the source row's values and keeps its id, as Strapi 5 leaves the other
 * locales' component rows in place when one locale is written (recorded: a `PUT ?locale=fr` that
 * creates the fr version keeps the en rows' ids, GraphQL transcripts 045 and 052). Returns the
 * fields it could not sync so (a different shape, or components with children of their own): the
 * caller deletes and copies those.
 */
export async function syncComponentsInPlace(env: WriteEnv, model: ContentTypeModel, fromId: number, toId: number, fields: readonly string[]): Promise<string[]> {
  if (fields.length === 0) return [];
  const table = env.registry.componentsTable(model);
  const links = (await selectIn(env.db, { table, column: 'entity_id', values: [fromId, toId], orderBy: ['field', 'ord', 'id'] })).filter((l) => fields.includes(String(l.field)));
  const rest: string[] = [];
  const pairs: Array<readonly [Row, Row]> = [];
  for (const field of fields) {
    const source = links.filter((l) => Number(l.entity_id) === fromId && l.field === field);
    const target = links.filter((l) => Number(l.entity_id) === toId && l.field === field);
    const sameShape =
      source.length === target.length &&
      source.every((s, i) => {
        const component = env.registry.component(String(s.component_type));
        return component !== undefined && isLeaf(component) && target[i]?.component_type === s.component_type;
      });
    if (!sameShape) {
      rest.push(field);
      continue;
    }
    source.forEach((s, i) => pairs.push([s, target[i] as Row]));
  }
  const rows = await componentRowsOf(env, pairs.map(([s]) => s));
  for (const [s, t] of pairs) {
    const component = env.registry.component(String(s.component_type));
    const row = rows.get(String(s.component_type))?.get(Number(s.cmp_id));
    if (!component || !row) continue;
    const { id: _id, ...values } = row;
    void _id;
    if (Object.keys(values).length > 0) await env.db.updateTable(component.table).set(values).where('id', '=', Number(t.cmp_id)).execute();
  }
  return rest;
}
