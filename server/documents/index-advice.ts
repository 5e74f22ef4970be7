import type { DocumentQuery, FilterNode } from '../query/ast.js';
import { strapiColumnName } from '../schema/parse.js';
import type { ContentTypeModel } from '../schema/types.js';

/** Operators an index answers as one value (equality) or as a range; the others it cannot serve. */
const EQUALITY = new Set(['$eq', '$null']);
const RANGE = new Set(['$lt', '$lte', '$gt', '$gte', '$between', '$in', '$ne', '$notNull', '$startsWith']);

/** The columns the top-level AND of a filter compares, by how an index could use them. */
function filteredColumns(node: FilterNode | null, equality: Set<string>, range: Set<string>): void {
  if (node === null) return;
  if (node.kind === 'and') for (const child of node.children) filteredColumns(child, equality, range);
  else if (node.kind === 'compare' && EQUALITY.has(node.operator)) equality.add(node.field.name);
  else if (node.kind === 'compare' && RANGE.has(node.operator)) range.add(node.field.name);
}

/**
 * Advice for a slow list: the index that would answer it, columns in the classic order
 * (equality, then sort, then range), as Strapi's `indexes` entry. null when the list filters
 * and sorts on nothing an index could serve, or a declared index already starts the same way.
 */
export function indexAdvice(model: ContentTypeModel, query: DocumentQuery, ms: number): { key: string; message: string } | null {
  const equality = new Set<string>();
  const range = new Set<string>();
  filteredColumns(query.filters, equality, range);
  const sort = query.sort.filter((t) => t.path.length === 1).map((t) => t.path[0] ?? '');
  const columns = [...new Set([...equality, ...sort, ...range])].filter((c) => c !== 'locale' && c !== 'publishedAt');
  if (columns.length === 0) return null;
  const [first] = columns;
  if (model.indexes.some((index) => index.columns[0] === first)) return null;
  const names = columns.map(strapiColumnName);
  const entry = JSON.stringify({ name: `${model.table}_${names.join('_')}`.slice(0, 50), columns: names });
  const what = [equality.size + range.size > 0 ? `filtered on ${[...equality, ...range].join(', ')}` : '', sort.length > 0 ? `sorted on ${sort.join(', ')}` : ''].filter(Boolean).join(' and ');
  return {
    key: `${model.uid}\u0000${columns.join('\u0000')}`,
    message: `${model.uid}: a list ${what} took ${Math.round(ms)} ms. An index declared in its schema.json can answer it: "indexes": [${entry}] (README, "Indexes")`,
  };
}

/** Logs each piece of advice once per process (a bounded number of them). */
export function createIndexAdvisor(log: (message: string) => void, max = 200): (model: ContentTypeModel, query: DocumentQuery, ms: number) => void {
  const given = new Set<string>();
  return (model, query, ms) => {
    const advice = indexAdvice(model, query, ms);
    if (advice === null || given.has(advice.key) || given.size >= max) return;
    given.add(advice.key);
    log(advice.message);
  };
}
