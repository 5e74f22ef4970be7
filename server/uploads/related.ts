import type { Db, Row } from '../db/database.js';
import { defaultFields, serializeRow } from '../documents/index.js';
import type { Registry } from '../schema/registry.js';

/** A serialised file with the id of its row. */
export interface FileItem {
  readonly id: number;
  readonly out: Record<string, unknown>;
}

const CHUNK = 500;
function chunks<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += CHUNK) out.push(items.slice(i, i + CHUNK));
  return out;
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
  const links: Row[] = [];
  for (const chunk of chunks(ids)) {
    links.push(
      ...(await db
        .selectFrom('hearth_files_related')
        .select(['file_id', 'related_id', 'related_type'])
        .where('file_id', 'in', chunk)
        // Strapi reads the morph join table ordered by (file, order): each link's position in its field.
        .orderBy('file_id')
        .orderBy('ord')
        .orderBy('id')
        .execute()),
    );
  }
  const visible = links.filter((l) => {
    const model = registry.model(String(l.related_type));
    return model !== undefined && (model.modelType === 'component' || canRead(model.uid));
  });
  const entries = new Map<string, Record<string, unknown>>();
  if (mode === 'entries') {
    for (const type of new Set(visible.map((l) => String(l.related_type)))) {
      const model = registry.model(type);
      if (!model) continue;
      const fields = defaultFields(model);
      const rowIds = [...new Set(visible.filter((l) => l.related_type === type).map((l) => Number(l.related_id)))];
      for (const chunk of chunks(rowIds)) {
        const rows = await db.selectFrom(model.table).select(fields.map((f) => f)).where('id', 'in', chunk).execute();
        for (const row of rows) entries.set(`${type}#${Number(row.id)}`, { ...serializeRow(model, row, fields), __type: type });
      }
    }
  }
  for (const item of items) {
    const mine = visible.filter((l) => Number(l.file_id) === item.id);
    if (mode === 'count') {
      item.out.related = { count: mine.filter((l) => registry.model(String(l.related_type))).length };
      continue;
    }
    item.out.related = mine.flatMap((l) => entries.get(`${String(l.related_type)}#${Number(l.related_id)}`) ?? []);
  }
}
