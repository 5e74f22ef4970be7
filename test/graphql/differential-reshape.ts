import qs from 'qs';

/**
 * One selection, written once, as both a GraphQL query and the equivalent REST request, and the
 * reshaping of REST's answer into GraphQL's. The reshaping rules (Strapi's plugin reads through
 * the same document service; test/fixtures/strapi/graphql/README.md lists the wire differences):
 * - a document has `documentId` and no `id`; a component keeps `id`, as a string (`ID`);
 * - REST's `data` (and `meta.pagination`) is GraphQL's root field (and `pageInfo`);
 * - a dynamic-zone entry's `__component: 'page-blocks.hero-banner'` is
 *   `__typename: 'ComponentPageBlocksHeroBanner'`; GraphQL lists every entry of the zone (Strapi's
 *   resolver loads the whole zone), an entry without a fragment as its `__typename` alone;
 * - `x_connection { nodes }` on a relation is REST's populated `x` list;
 * - an enumeration's value is its GraphQL name (Strapi's `toRegressedEnumValue`: `in-stock` is
 *   `in_stock`, `Out of stock` is `Out_of_stock`), REST's is the stored value;
 * - REST's offset `meta.pagination { start, limit, total }` is `pageInfo { total, page:
 *   floor(start / limit) + 1, pageSize: limit, pageCount: ceil(total / limit) }`;
 * - filters are REST's with the `$` of each operator dropped; sort and status are the same
 *   strings (`DRAFT` is `draft`); pagination is the same object (REST's `pagination[...]`);
 * - a relation list without `pagination` is one page of 25 in GraphQL (REST populates every
 *   entry): the seeded lists stay below 25.
 */
type Json = Record<string, unknown>;

/** Arguments of a list (root or relation): REST's own `filters` (with `$`), `sort`, `pagination`. */
export interface ListArgs {
  readonly filters?: Json;
  readonly sort?: string | string[];
  readonly pagination?: Json;
}

/** A field: a scalar's name, a relation/component/media with its own selection, or a dynamic zone by component uid. */
export type Field =
  | string
  | { readonly name: string; readonly select: Selection; readonly args?: ListArgs; readonly connection?: boolean }
  /** A dynamic zone: fragments by component uid; `all`, the zone's every component (REST is asked for those without a fragment too). */
  | { readonly zone: string; readonly on: Record<string, Selection>; readonly all?: readonly string[] };
export type Selection = readonly Field[];

const gqlFilters = (filters: unknown): unknown => {
  if (Array.isArray(filters)) return filters.map(gqlFilters);
  if (typeof filters !== 'object' || filters === null) return filters;
  return Object.fromEntries(Object.entries(filters).map(([k, v]) => [k.replace(/^\$/, ''), gqlFilters(v)]));
};

/** A GraphQL value literal (objects, lists, strings, numbers, booleans, null). */
const literal = (value: unknown): string => {
  if (Array.isArray(value)) return `[${value.map(literal).join(', ')}]`;
  if (typeof value === 'object' && value !== null) return `{ ${Object.entries(value).map(([k, v]) => `${k}: ${literal(v)}`).join(', ')} }`;
  return JSON.stringify(value);
};

/** `(filters: {...}, sort: [...], pagination: {...})` or nothing. */
export function gqlArgs(args: ListArgs & { readonly extra?: Record<string, string> } = {}): string {
  const parts: string[] = [];
  if (args.filters) parts.push(`filters: ${literal(gqlFilters(args.filters))}`);
  if (args.sort !== undefined) parts.push(`sort: ${literal(args.sort)}`);
  if (args.pagination) parts.push(`pagination: ${literal(args.pagination)}`);
  for (const [k, v] of Object.entries(args.extra ?? {})) parts.push(`${k}: ${v}`);
  return parts.length > 0 ? `(${parts.join(', ')})` : '';
}

/** The selection as GraphQL text. */
export function gqlSelection(selection: Selection): string {
  return `{ ${selection
    .map((f) => {
      if (typeof f === 'string') return f;
      if ('zone' in f) return `${f.zone} { __typename ${Object.entries(f.on).map(([uid, s]) => `... on ${componentType(uid)} ${gqlSelection(s)}`).join(' ')} }`;
      const inner = gqlSelection(f.select);
      return f.connection ? `${f.name}_connection${gqlArgs(f.args)} { nodes ${inner} }` : `${f.name}${gqlArgs(f.args)} ${inner}`;
    })
    .join(' ')} }`;
}

/** `page-blocks.hero-banner` -> `ComponentPageBlocksHeroBanner` (the seeded uids are kebab-case words). */
export const componentType = (uid: string): string =>
  `Component${uid.split(/[.-]/).map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join('')}`;

/** The selection as REST's `fields` and `populate` (a component's or a document's). */
export function restSelection(selection: Selection): Json {
  const fields = selection.filter((f): f is string => typeof f === 'string' && f !== 'documentId' && f !== 'id' && f !== '__typename');
  const populate: Json = {};
  for (const f of selection) {
    if (typeof f === 'string') continue;
    if ('zone' in f) {
      const bare = (f.all ?? []).filter((uid) => !(uid in f.on)).map((uid) => [uid, true]);
      populate[f.zone] = { on: Object.fromEntries([...Object.entries(f.on).map(([uid, s]) => [uid, restSelection(s)]), ...bare]) };
      continue;
    }
    const args = f.args ?? {};
    populate[f.name] = { ...restSelection(f.select), ...(args.filters ? { filters: args.filters } : {}), ...(args.sort !== undefined ? { sort: args.sort } : {}) };
  }
  return { ...(fields.length > 0 ? { fields } : {}), ...(Object.keys(populate).length > 0 ? { populate } : {}) };
}

/** REST's query string for a root list or document read. */
export const restQuery = (selection: Selection, args: ListArgs & { readonly status?: string; readonly locale?: string } = {}): string =>
  qs.stringify({ ...restSelection(selection), ...args }, { encodeValuesOnly: true });

/** The enumeration attributes of the model (by name, in every type and component). */
let enumFields: ReadonlySet<string> = new Set();
export const setEnumFields = (names: readonly string[]): void => {
  enumFields = new Set(names);
};
const enumName = (value: unknown): unknown => (typeof value === 'string' ? value.replace(/[^A-Za-z0-9]+/g, '_').replace(/^_+|_+$/g, '') : value);

/** REST's `meta.pagination` as GraphQL's `pageInfo`. */
export function pageInfoOf(pagination: Json): Json {
  if (!('start' in pagination)) return pagination;
  const { start, limit, total } = pagination as { start: number; limit: number; total: number };
  return { total, page: Math.floor(start / limit) + 1, pageSize: limit, pageCount: Math.ceil(total / limit) };
}

/** REST's value reshaped into what GraphQL answers for the same selection (the rules above). */
export function reshape(selection: Selection, rest: unknown): unknown {
  if (rest === null || rest === undefined) return rest ?? null;
  if (Array.isArray(rest)) return rest.map((r) => reshape(selection, r));
  if (typeof rest !== 'object') return rest;
  const entry = rest as Json;
  const out: Json = {};
  for (const f of selection) {
    if (typeof f === 'string') {
      if (f === 'id') out.id = entry.id === undefined ? undefined : String(entry.id);
      else out[f] = enumFields.has(f) ? enumName(entry[f]) : entry[f];
      continue;
    }
    if ('zone' in f) {
      const list = entry[f.zone];
      out[f.zone] = Array.isArray(list)
        ? list.map((item: Json) => {
            const uid = String(item.__component);
            return { __typename: componentType(uid), ...(reshape(f.on[uid] ?? [], item) as Json) };
          })
        : list;
      continue;
    }
    const value = reshape(f.select, entry[f.name]);
    if (f.connection) out[`${f.name}_connection`] = { nodes: value };
    else out[f.name] = value;
  }
  return out;
}
