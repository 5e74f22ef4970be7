import type { Database, Db } from '../db/database.js';
import { FILES_RELATED_TABLE } from '../db/system-tables.js';
import type { Registry } from '../schema/registry.js';
import type { ContentTypeModel, Model } from '../schema/types.js';
import { fileRow, storedFile } from '../uploads/file-rows.js';
import { textUsages } from './where-used-text.js';

/** One place a file is used: a document (version) and the attribute path holding the file. */
export interface Usage {
  readonly uid: string;
  readonly documentId: string;
  readonly locale: string | null;
  /** The attribute, dotted through components (`seo.image`). */
  readonly field: string;
  readonly displayName: string;
  /** The document's main field (its first string attribute), or null. */
  readonly title: string | null;
}

/** Models whose component or dynamic-zone attributes may hold a component. */
function holdersOf(registry: Registry, componentUid: string): Model[] {
  return [...registry.contentTypes, ...registry.components].filter((m) =>
    [...m.attributes.values()].some((a) => (a.kind === 'component' && a.component === componentUid) || (a.kind === 'dynamiczone' && a.components.includes(componentUid))),
  );
}

/** Walks from a component row up to the content-type rows holding it (the registry rejects nesting cycles), with the attribute path. */
async function owners(db: Db, registry: Registry, model: Model, rowId: number, field: string): Promise<{ model: ContentTypeModel; rowId: number; field: string }[]> {
  if (model.modelType === 'contentType') return [{ model, rowId, field }];
  const found: { model: ContentTypeModel; rowId: number; field: string }[] = [];
  for (const holder of holdersOf(registry, model.uid)) {
    const links = await db
      .selectFrom(registry.componentsTable(holder))
      .select(['entity_id', 'field'])
      .where('cmp_id', '=', rowId)
      .where('component_type', '=', model.uid)
      .execute();
    for (const link of links) found.push(...(await owners(db, registry, holder, Number(link.entity_id), `${String(link.field)}.${field}`)));
  }
  return found;
}

const mainField = (model: ContentTypeModel): string | undefined =>
  [...model.attributes.values()].find((a) => a.kind === 'scalar' && a.type === 'string' && !a.private)?.name;

/** The file's media links: the rows and attributes (of content types or components) that hold it. */
async function mediaLinks(db: Db, registry: Registry, fileId: number): Promise<{ model: Model; rowId: number; field: string }[]> {
  const links = await db.selectFrom(FILES_RELATED_TABLE).select(['related_id', 'related_type', 'field']).where('file_id', '=', fileId).orderBy('id').execute();
  const out: { model: Model; rowId: number; field: string }[] = [];
  for (const link of links) {
    const model = registry.model(link.related_type);
    if (model) out.push({ model, rowId: link.related_id, field: link.field });
  }
  return out;
}

/** What `whereUsed` needs. */
export interface WhereUsedArgs {
  readonly database: Pick<Database, 'kind' | 'db'>;
  readonly registry: Registry;
  readonly fileId: number;
}

/**
 * Every document (each locale once) using a file: through media attributes, image nodes of blocks
 * attributes, or its urls in rich-text attributes, directly or inside components and dynamic
 * zones; sorted by type, document, locale, field.
 */
export async function whereUsed({ database, registry, fileId }: WhereUsedArgs): Promise<Usage[]> {
  const { db } = database;
  const row = await fileRow(db, fileId);
  if (!row) return [];
  const file = storedFile(row);
  const places = [...(await mediaLinks(db, registry, fileId)), ...(await textUsages(database, registry, { id: fileId, urls: [file.url, ...file.formatUrls.values()] }))];
  // One usage per type, document, locale and field; the same key sorts the list.
  const key = (u: Usage) => [u.uid, u.documentId, u.locale ?? '', u.field].join('\u0000');
  const seen = new Set<string>();
  const out: Usage[] = [];
  for (const place of places) {
    for (const owner of await owners(db, registry, place.model, place.rowId, place.field)) {
      const title = mainField(owner.model);
      const row = await db.selectFrom(owner.model.table).selectAll().where('id', '=', owner.rowId).executeTakeFirst();
      if (!row) continue;
      const usage: Usage = {
        uid: owner.model.uid,
        documentId: String(row.documentId),
        locale: typeof row.locale === 'string' ? row.locale : null,
        field: owner.field,
        displayName: owner.model.displayName,
        title: title !== undefined && row[title] !== null && row[title] !== undefined ? String(row[title]) : null,
      };
      if (seen.has(key(usage))) continue;
      seen.add(key(usage));
      out.push(usage);
    }
  }
  return out.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}
