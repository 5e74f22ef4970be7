import type { Row } from '../db/database.js';
import type { Model } from '../schema/types.js';
import { outputValue } from './serialize.js';
import type { WriteEnv } from './store.js';

/**
 * A row's attribute values in API form (scalars, components deep), as Strapi re-reads a draft to
 * validate it for publishing or to copy non-localized values to a new localization.
 * Relations and media are left out: validation treats them as opaque.
 */
export async function valuesOf(env: WriteEnv, model: Model, row: Row, only?: (name: string) => boolean): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  let links: Row[] | null = null;
  for (const attr of model.attributes.values()) {
    if (only && !only(attr.name)) continue;
    if (attr.kind === 'scalar') {
      if (attr.type !== 'password') out[attr.name] = outputValue(attr.type, row[attr.name]);
      continue;
    }
    if (attr.kind !== 'component' && attr.kind !== 'dynamiczone') continue;
    links ??= await env.db
      .selectFrom(env.registry.componentsTable(model))
      .selectAll()
      .where('entity_id', '=', Number(row.id))
      .orderBy('ord')
      .orderBy('id')
      .execute();
    const items: Record<string, unknown>[] = [];
    for (const link of links.filter((l) => l.field === attr.name)) {
      const component = env.registry.component(String(link.component_type));
      if (!component) continue;
      const cmpRow = await env.db.selectFrom(component.table).selectAll().where('id', '=', Number(link.cmp_id)).executeTakeFirst();
      if (!cmpRow) continue;
      const value = await valuesOf(env, component, cmpRow);
      items.push(attr.kind === 'dynamiczone' ? { __component: component.uid, ...value } : value);
    }
    out[attr.name] = attr.kind === 'component' && !attr.repeatable ? (items[0] ?? null) : items;
  }
  return out;
}
