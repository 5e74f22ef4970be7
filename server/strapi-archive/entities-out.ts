import type { Db, Row } from '../db/database.js';
import { morphTableName } from '../schema/morphs.js';
import type { Registry } from '../schema/registry.js';
import type { ContentTypeModel, Model } from '../schema/types.js';
import { outputValue } from '../documents/index.js';

const SYSTEM = ['createdAt', 'updatedAt', 'publishedAt', 'locale'] as const;

/** Components and dynamic-zone entries of one row, as Strapi embeds them: `{ id, ...scalars, ...nested, __component? }`. */
async function componentValues(db: Db, registry: Registry, model: Model, id: number): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  const attrs = [...model.attributes.values()].filter((a) => a.kind === 'component' || a.kind === 'dynamiczone');
  if (attrs.length === 0) return out;
  const links = await db.selectFrom(registry.componentsTable(model)).selectAll().where('entity_id', '=', id).orderBy('field').orderBy('ord').orderBy('id').execute();
  for (const attr of attrs) {
    const items: Record<string, unknown>[] = [];
    for (const link of links.filter((l) => l.field === attr.name)) {
      const uid = String(link.component_type);
      const component = registry.component(uid);
      if (component === undefined) continue;
      const row = await db.selectFrom(component.table).selectAll().where('id', '=', Number(link.cmp_id)).executeTakeFirst();
      if (row === undefined) continue;
      const item: Record<string, unknown> = { id: Number(row.id) };
      for (const a of component.attributes.values()) if (a.kind === 'scalar') item[a.name] = outputValue(a.type, row[a.name]);
      Object.assign(item, await componentValues(db, registry, component, Number(row.id)));
      if (attr.kind === 'dynamiczone') item.__component = uid;
      items.push(item);
    }
    out[attr.name] = attr.kind === 'component' && !attr.repeatable ? (items[0] ?? null) : items;
  }
  return out;
}

/** One content row as the `data` of an entity line: documentId, scalars, system fields, then components. */
export async function entityData(db: Db, registry: Registry, model: ContentTypeModel, row: Row): Promise<Record<string, unknown>> {
  const data: Record<string, unknown> = { documentId: row.documentId };
  for (const attr of model.attributes.values()) if (attr.kind === 'scalar') data[attr.name] = outputValue(attr.type, row[attr.name]);
  for (const key of SYSTEM) data[key] = row[key] ?? null;
  return Object.assign(data, await componentValues(db, registry, model, Number(row.id)));
}

/** A link line's sides, with keys in the order Strapi writes them. */
interface LinkSide {
  type: string;
  field?: string;
  ref: number | string;
  pos?: number;
}

const sideOf = (type: string, field: string | undefined, ref: number | string, pos: number | undefined): LinkSide => ({
  type,
  ...(field === undefined ? {} : { field }),
  ref,
  ...(pos === undefined ? {} : { pos }),
});

/** The relation links a model's rows own (join tables of owner-side relations), in row and attribute order. */
export async function relationLinks(db: Db, registry: Registry, model: Model, emit: (link: unknown) => Promise<void>): Promise<number> {
  let written = 0;
  for (const attr of model.attributes.values()) {
    if (attr.kind !== 'relation' || !attr.owner) continue;
    const target = registry.model(attr.target);
    if (target === undefined) continue;
    const storage = registry.relationStorage(model, attr);
    const inverse = attr.inversedBy === undefined ? undefined : target.attributes.get(attr.inversedBy);
    const inverseToMany = inverse?.kind === 'relation' && inverse.toMany;
    const rows = await db.selectFrom(storage.joinTable).selectAll().orderBy(storage.selfColumn).orderBy(storage.orderColumn).orderBy('id').execute();
    for (const row of rows) {
      await emit({
        kind: 'relation.basic',
        relation: attr.relation,
        left: sideOf(model.uid, attr.name, Number(row[storage.selfColumn]), attr.toMany ? Number(row[storage.orderColumn]) : undefined),
        right: sideOf(attr.target, attr.inversedBy, Number(row[storage.otherColumn]), inverseToMany ? Number(row[storage.inverseOrderColumn]) : undefined),
      });
      written++;
    }
  }
  return written;
}

/** Morph-to links a model's rows own (its `_mph` tables), written as Strapi writes a file's `related`: the order on the right. */
export async function morphLinks(db: Db, model: Model, emit: (link: unknown) => Promise<void>): Promise<number> {
  let written = 0;
  for (const morph of model.morphs?.values() ?? []) {
    if (morph.relation !== 'morphToOne' && morph.relation !== 'morphToMany') continue;
    const rows = await db.selectFrom(morphTableName(model, morph.name)).selectAll().orderBy('entity_id').orderBy('ord').orderBy('id').execute();
    for (const row of rows) {
      const right = { ref: Number(row.related_id), pos: Number(row.ord), type: String(row.related_type), field: String(row.field) };
      await emit({ kind: 'relation.morph', relation: morph.relation, left: { type: model.uid, field: morph.name, ref: Number(row.entity_id) }, right });
      written++;
    }
  }
  return written;
}

/** The `localizations` link Strapi writes for every exported row (to its own documentId). */
export const localizationsLink = (type: string, id: number, documentId: string) => ({
  kind: 'relation.circular',
  relation: 'oneToMany',
  left: { type, ref: id, field: 'localizations' },
  right: { type, ref: documentId },
});
