import type { Attribute, Schema } from '../../api/schema';
import { mainField } from './form-values';

const LISTABLE: ReadonlySet<Attribute['type']> = new Set(['string', 'email', 'uid', 'enumeration', 'integer', 'biginteger', 'float', 'decimal', 'boolean', 'date', 'datetime', 'time', 'timestamp']);

/** The attribute columns of a list: the main field first, then up to three more short fields. */
export function listColumns(schema: Schema): string[] {
  const main = mainField(schema);
  const others = Object.entries(schema.attributes)
    .filter(([name, a]) => name !== main && LISTABLE.has(a.type) && !a.private)
    .map(([name]) => name)
    .slice(0, 3);
  return main ? [main, ...others] : others;
}

/** A column header's sort state, for aria-sort. */
export function sortState(sort: string, column: string): 'ascending' | 'descending' | 'none' {
  if (sort === `${column}:asc`) return 'ascending';
  if (sort === `${column}:desc`) return 'descending';
  return 'none';
}

/** The sort after clicking a header: ascending, then descending, then back to the default. */
export function nextSort(sort: string, column: string): string {
  if (sort === `${column}:asc`) return `${column}:desc`;
  if (sort === `${column}:desc`) return '';
  return `${column}:asc`;
}

/** A field name as a column title (`publishDate` -> `Publish date`). */
export function humanize(name: string): string {
  const spaced = name.replace(/_/g, ' ').replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
}
