import { AppError } from '../errors/app-error.js';
import { META_TABLE } from '../db/system-tables.js';
import { getMeta, setMeta } from '../db/migrations.js';
import type { Db } from '../db/database.js';
import { LIST_VIEW_DEFAULT_PAGE_SIZE, LIST_VIEW_MAX_COLUMNS, LIST_VIEW_PAGE_SIZES } from '../limits.js';
import type { Attribute, ContentTypeModel } from '../schema/types.js';

/** The content manager's list settings of one content type (Strapi's `layouts.list` and `settings.pageSize`). */
export interface ListView {
  /** Column ids in display order: attribute names, or `id`, `documentId`, `createdAt`, `updatedAt`, `status`, `locale`. */
  readonly columns: readonly string[];
  /** The page size the list opens with. */
  readonly pageSize: number;
}

const SYSTEM_COLUMNS = ['id', 'documentId', 'createdAt', 'updatedAt'] as const;
// Long or structured values have no cell, as in Strapi's list view.
const UNLISTED_SCALARS: ReadonlySet<string> = new Set(['password', 'json', 'blocks', 'richtext']);

const keyOf = (uid: string) => `list-view:${uid}`;

function listable(attribute: Attribute): boolean {
  if (attribute.private) return false;
  if (attribute.kind === 'scalar') return !UNLISTED_SCALARS.has(attribute.type);
  return attribute.kind === 'media' || attribute.kind === 'relation';
}

/** The column ids a list of `model` may show. */
export function listableColumns(model: ContentTypeModel): string[] {
  const attributes = [...model.attributes].filter(([, a]) => listable(a)).map(([name]) => name);
  return [...attributes, ...SYSTEM_COLUMNS, ...(model.draftAndPublish ? ['status'] : []), ...(model.localized ? ['locale'] : [])];
}

const invalid = (path: readonly (string | number)[], message: string) =>
  new AppError('ValidationError', message, { errors: [{ path: path.map(String), message, name: 'ValidationError' }] });

/** Reads a PUT body `{ columns, pageSize }`, refusing what the type cannot list; names the offending path. */
export function parseListView(model: ContentTypeModel, body: Readonly<Record<string, unknown>>): ListView {
  const known = new Set(listableColumns(model));
  for (const key of Object.keys(body)) if (key !== 'columns' && key !== 'pageSize') throw invalid([key], `Invalid key ${key}`);
  const { columns, pageSize } = body;
  if (!Array.isArray(columns) || columns.length === 0) throw invalid(['columns'], 'columns must be a non-empty array of column names');
  if (columns.length > LIST_VIEW_MAX_COLUMNS) throw invalid(['columns'], `columns must have at most ${LIST_VIEW_MAX_COLUMNS} items`);
  const seen = new Set<string>();
  columns.forEach((column: unknown, i) => {
    if (typeof column !== 'string' || !known.has(column)) throw invalid(['columns', i], `${String(column)} is not a column the list of ${model.uid} can show`);
    if (seen.has(column)) throw invalid(['columns', i], `${column} is listed twice`);
    seen.add(column);
  });
  const size = pageSize ?? LIST_VIEW_DEFAULT_PAGE_SIZE;
  if (typeof size !== 'number' || !LIST_VIEW_PAGE_SIZES.includes(size)) throw invalid(['pageSize'], `pageSize must be one of ${LIST_VIEW_PAGE_SIZES.join(', ')}`);
  return { columns: [...seen], pageSize: size };
}

/** The stored list settings of a type, null when none were saved; columns the schema no longer has are left out. */
export async function readListView(db: Db, model: ContentTypeModel): Promise<ListView | null> {
  const text = await getMeta(db, keyOf(model.uid));
  if (text === undefined) return null;
  let stored: unknown;
  try {
    stored = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof stored !== 'object' || stored === null || !('columns' in stored) || !Array.isArray(stored.columns)) return null;
  const known = new Set(listableColumns(model));
  const columns = stored.columns.filter((c: unknown): c is string => typeof c === 'string' && known.has(c));
  const pageSize = 'pageSize' in stored && typeof stored.pageSize === 'number' && LIST_VIEW_PAGE_SIZES.includes(stored.pageSize) ? stored.pageSize : LIST_VIEW_DEFAULT_PAGE_SIZE;
  return columns.length > 0 ? { columns, pageSize } : null;
}

/** Saves a type's list settings (shared by every admin, as Strapi keeps its content-manager configuration). */
export async function writeListView(db: Db, model: ContentTypeModel, view: ListView): Promise<void> {
  await setMeta(db, keyOf(model.uid), JSON.stringify(view));
}

/** Forgets a type's list settings: the list falls back to its default columns. */
export async function clearListView(db: Db, model: ContentTypeModel): Promise<void> {
  await db.deleteFrom(META_TABLE).where('key', '=', keyOf(model.uid)).execute();
}
