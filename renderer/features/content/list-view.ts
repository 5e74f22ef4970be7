import type { ApiClient } from '../../api/client';
import { array, dataOf, nullable, num, object, str } from '../../api/decode';
import type { QueryValue } from '../../api/query';
import { hasDraftAndPublish, isLocalized, type Schema } from '../../api/schema';
import { mainField } from './form-values';
import { humanize, listColumns } from './list-columns';

/** What a list column shows. */
export type ColumnKind = 'field' | 'media' | 'relation' | 'status' | 'locale' | 'system';

/** One column a type's list can show. */
export interface ColumnDef {
  readonly id: string;
  readonly label: string;
  readonly kind: ColumnKind;
  /** Sorted by the server on this column (scalars and timestamps). */
  readonly sortable: boolean;
  /** For a relation: the target's main field, shown in the cell. */
  readonly labelField?: string | null;
}

/** Page sizes offered under the list (as Strapi's). */
export const PAGE_SIZES = [10, 20, 50, 100] as const;
/** The page size of a list whose type has no saved settings. */
export const DEFAULT_PAGE_SIZE = 20;

// Long or structured values have no cell (the server refuses them as columns too).
const UNLISTED = new Set(['password', 'json', 'blocks', 'richtext', 'component', 'dynamiczone']);
const SYSTEM: readonly (readonly [string, string])[] = [
  ['id', 'Id'],
  ['documentId', 'Document id'],
  ['createdAt', 'Created'],
  ['updatedAt', 'Last update'],
];

/** Every column a type's list can show, in schema order, then system columns. */
export function availableColumns(schema: Schema, targetSchema: (uid: string) => Schema | undefined): ColumnDef[] {
  const fields = Object.entries(schema.attributes).flatMap(([id, a]): ColumnDef[] => {
    if (a.private || UNLISTED.has(a.type)) return [];
    if (a.type === 'media') return [{ id, label: humanize(id), kind: 'media', sortable: false }];
    if (a.type === 'relation') return a.target ? [{ id, label: humanize(id), kind: 'relation', sortable: false, labelField: mainField(targetSchema(a.target)) }] : [];
    return [{ id, label: humanize(id), kind: 'field', sortable: true }];
  });
  const system = SYSTEM.map(([id, label]): ColumnDef => ({ id, label, kind: 'system', sortable: id !== 'documentId' }));
  const status: ColumnDef[] = hasDraftAndPublish(schema) ? [{ id: 'status', label: 'Status', kind: 'status', sortable: false }] : [];
  const locale: ColumnDef[] = isLocalized(schema) ? [{ id: 'locale', label: 'Locales', kind: 'locale', sortable: false }] : [];
  return [...fields, ...system, ...status, ...locale];
}

/** The columns of a type that has no saved settings: main field and three short fields, status, locales, last update. */
export function defaultColumnIds(schema: Schema): string[] {
  return [...listColumns(schema), ...(hasDraftAndPublish(schema) ? ['status'] : []), ...(isLocalized(schema) ? ['locale'] : []), 'updatedAt'];
}

/** The list's populate for its relation columns (the target's main field only) and media columns. */
export function populateFor(columns: readonly ColumnDef[]): Record<string, QueryValue> | null {
  const populate: Record<string, QueryValue> = {};
  for (const c of columns) {
    if (c.kind === 'media') populate[c.id] = true;
    if (c.kind === 'relation') populate[c.id] = c.labelField ? { fields: [c.labelField] } : true;
  }
  return Object.keys(populate).length > 0 ? populate : null;
}

/** A type's saved list settings. */
export interface SavedListView {
  readonly columns: readonly string[];
  readonly pageSize: number;
}

const path = (uid: string) => `/admin/api/content-manager/${encodeURIComponent(uid)}/list-view`;
const answer = dataOf(object({ listView: nullable(object({ columns: array(str), pageSize: num })) }));

/** The saved settings of a type's list, or null when it shows its defaults. */
export async function getListView(client: ApiClient, uid: string): Promise<SavedListView | null> {
  return answer(await client.get(path(uid))).listView;
}

/** Saves a type's list settings for every admin. */
export async function saveListView(client: ApiClient, uid: string, view: SavedListView): Promise<SavedListView | null> {
  return answer(await client.put(path(uid), view)).listView;
}

/** Forgets a type's list settings (back to the default columns). */
export async function resetListView(client: ApiClient, uid: string): Promise<void> {
  await client.del(path(uid));
}
