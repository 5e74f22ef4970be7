import type { Row } from '../db/database.js';
import type { Model } from '../schema/types.js';
import { selectIn } from './batch-write.js';
import { outputValue } from './serialize.js';
import type { WriteEnv } from './store.js';
import type { CopyNode } from './clone.js';
import { writeRows } from './write-shapes.js';

/**
 * A row's attribute values in API form (scalars, components deep), as Strapi re-reads a draft to
 * validate it for publishing or to copy non-localized values to a new localization.
 * Relations and media are left out: validation treats them as opaque.
 * Components are read one statement per component type, not one per component.
 */
export async function valuesOf(env: WriteEnv, model: Model, row: Row, only?: (name: string) => boolean): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  let components: { links: Row[]; rows: Map<string, Map<number, Row>> } | null = null;
  for (const attr of model.attributes.values()) {
    if (only && !only(attr.name)) continue;
    if (attr.kind === 'scalar') {
      if (attr.type !== 'password') out[attr.name] = outputValue(attr.type, row[attr.name]);
      continue;
    }
    if (attr.kind !== 'component' && attr.kind !== 'dynamiczone') continue;
    components ??= await componentRows(env, model, Number(row.id));
    const items: Record<string, unknown>[] = [];
    for (const link of components.links.filter((l) => l.field === attr.name)) {
      const component = env.registry.component(String(link.component_type));
      if (!component) continue;
      const cmpRow = components.rows.get(component.uid)?.get(Number(link.cmp_id));
      if (!cmpRow) continue;
      const value = await valuesOf(env, component, cmpRow);
      items.push(attr.kind === 'dynamiczone' ? { __component: component.uid, ...value } : value);
    }
    out[attr.name] = attr.kind === 'component' && !attr.repeatable ? (items[0] ?? null) : items;
  }
  return out;
}

/**
 * `valuesOf` for a row whose tree `readTree` has read (no statement): the same values, its
 * components taken from the tree (each field's links are in (ord, id) order there too).
 */
export function treeValues(model: Model, row: Row, node: CopyNode): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const attr of model.attributes.values()) {
    if (attr.kind === 'scalar') {
      if (attr.type !== 'password') out[attr.name] = outputValue(attr.type, row[attr.name]);
      continue;
    }
    if (attr.kind !== 'component' && attr.kind !== 'dynamiczone') continue;
    const items: Record<string, unknown>[] = [];
    for (const child of node.children) {
      if (child.link.field !== attr.name || child.node.values === null) continue;
      const value = treeValues(child.node.model, child.node.values, child.node);
      items.push(attr.kind === 'dynamiczone' ? { __component: child.node.model.uid, ...value } : value);
    }
    out[attr.name] = attr.kind === 'component' && !attr.repeatable ? (items[0] ?? null) : items;
  }
  return out;
}

/** The component links of a row (in order) and the component rows they name, by type and id. */
async function componentRows(env: WriteEnv, model: Model, rowId: number): Promise<{ links: Row[]; rows: Map<string, Map<number, Row>> }> {
  const table = env.registry.componentsTable(model);
  const links = await writeRows(env.db, `component-links-all|${table}`, [rowId], () => env.db.selectFrom(table).selectAll().where('entity_id', '=', rowId).orderBy('ord').orderBy('id'));
  return { links, rows: await componentRowsOf(env, links) };
}

/** The component rows some component links name, by component type and id: one statement per type. */
export async function componentRowsOf(env: WriteEnv, links: readonly Row[]): Promise<Map<string, Map<number, Row>>> {
  const rows = new Map<string, Map<number, Row>>();
  for (const uid of new Set(links.map((l) => String(l.component_type)))) {
    const component = env.registry.component(uid);
    if (!component) continue;
    const found = await selectIn(env.db, { table: component.table, column: 'id', values: links.filter((l) => String(l.component_type) === uid).map((l) => Number(l.cmp_id)) });
    rows.set(uid, new Map(found.map((r) => [Number(r.id), r])));
  }
  return rows;
}
