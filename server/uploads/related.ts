import { FILES_RELATED_LINK } from '../compiler/links.js';
import { selectRowsById, selectTypedLinks } from '../compiler/populate-select.js';
import type { Db } from '../db/database.js';
import { defaultFields, serializeRow } from '../documents/index.js';
import type { Registry } from '../schema/registry.js';

/** A serialised file with the id of its row. */
export interface FileItem {
  readonly id: number;
  readonly out: Record<string, unknown>;
}

/**
 * Populates `related`, the morph relation from files to the entries (and components) linking them,
 * as Strapi's content API prints it: `{ ...the entry's fields, __type: <uid> }`, ordered by each
 * link's position in its field. Entries of types the caller may not `find` are left out; one query per level and type.
 */
export async function populateRelated(args: {
  db: Db;
  registry: Registry;
  canRead: (uid: string) => boolean;
  items: readonly FileItem[];
  mode: 'entries' | 'count';
}): Promise<void> {
  const { db, registry, canRead, items, mode } = args;
  const ids = [...new Set(items.map((i) => i.id))];
  // Strapi reads the morph join table ordered by (file, order): each link's position in its field.
  const links = await selectTypedLinks(db, FILES_RELATED_LINK, ids);
  const visible = links.filter((l) => {
    const model = registry.model(l.type);
    return model !== undefined && (model.modelType === 'component' || canRead(model.uid));
  });
  const entries = new Map<string, Record<string, unknown>>();
  if (mode === 'entries') {
    for (const type of new Set(visible.map((l) => l.type))) {
      const model = registry.model(type);
      if (!model) continue;
      const fields = defaultFields(model);
      const ids = visible.filter((l) => l.type === type).map((l) => l.id);
      const rows = await selectRowsById(db, null, { model, ids, columns: fields, status: null, filters: null });
      for (const row of rows) entries.set(`${type}#${Number(row.id)}`, { ...serializeRow(model, row, fields), __type: type });
    }
  }
  for (const item of items) {
    const mine = visible.filter((l) => l.parent === item.id);
    if (mode === 'count') {
      item.out.related = { count: mine.filter((l) => registry.model(l.type)).length };
      continue;
    }
    item.out.related = mine.flatMap((l) => entries.get(`${l.type}#${l.id}`) ?? []);
  }
}
