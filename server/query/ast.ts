import type { ScalarType } from '../schema/types.js';

/**
 * The typed, readonly form of a content API query. `query/` builds it from the query string and
 * checks it against the schema; `compiler/` turns it into SQL. Nothing here is a raw identifier
 * from the request: every name has been looked up on the model first.
 */

export type Direction = 'asc' | 'desc';

/** A column on the model being filtered (an attribute or a system column). */
export interface FieldRef {
  readonly name: string;
  readonly type: ScalarType;
}

export const COMPARISON_OPERATORS = [
  '$eq',
  '$eqi',
  '$ne',
  '$nei',
  '$lt',
  '$lte',
  '$gt',
  '$gte',
  '$in',
  '$notIn',
  '$contains',
  '$notContains',
  '$containsi',
  '$notContainsi',
  '$null',
  '$notNull',
  '$between',
  '$startsWith',
  '$startsWithi',
  '$endsWith',
  '$endsWithi',
] as const;
export type ComparisonOperator = (typeof COMPARISON_OPERATORS)[number];

/** A value bound as an SQL parameter (already converted to the column's stored form). */
export type BoundValue = string | number | bigint | null;

/** One node of a filters tree. */
export type FilterNode =
  | { readonly kind: 'and'; readonly children: readonly FilterNode[] }
  | { readonly kind: 'or'; readonly children: readonly FilterNode[] }
  | { readonly kind: 'not'; readonly child: FilterNode }
  | {
      readonly kind: 'compare';
      readonly field: FieldRef;
      readonly operator: ComparisonOperator;
      /** A single value, a list (`$in`, `$notIn`, `$between`), or a boolean (`$null`, `$notNull`). */
      readonly value: BoundValue | readonly BoundValue[] | boolean;
    }
  | {
      /** An existential step through a relation, component or media attribute to its target rows. */
      readonly kind: 'through';
      readonly attribute: string;
      readonly via: 'relation' | 'component' | 'media';
      readonly target: string;
      readonly child: FilterNode;
    };

/** One `ORDER BY` term; `path` walks relations/components to a scalar field. */
export interface SortTerm {
  readonly path: readonly string[];
  readonly direction: Direction;
}

export interface Pagination {
  readonly mode: 'page' | 'offset';
  readonly start: number;
  /** `null` means no limit. */
  readonly limit: number | null;
  readonly withCount: boolean;
}

/** What to populate under one attribute. */
export interface PopulateNode {
  readonly attribute: string;
  /** Scalar fields to select (id/documentId are always added); null means all. */
  readonly fields: readonly string[] | null;
  readonly filters: FilterNode | null;
  readonly sort: readonly SortTerm[];
  readonly populate: PopulateMap;
  /** Dynamic zones: per-component populate (`on` fragments); null = every component, plain. */
  readonly on: ReadonlyMap<string, PopulateNode> | null;
  /** Answer `{ count }` instead of the related entries. */
  readonly count: boolean;
  /** Populate of relational attributes one level deeper for every component (`populate: '*'`). */
  readonly star: boolean;
  /** Window over each parent's related entries (populate-level pagination); null = all. */
  readonly start: number | null;
  readonly limit: number | null;
}

export type PopulateMap = ReadonlyMap<string, PopulateNode>;

export const PUBLICATION_FILTERS = [
  'never-published',
  'has-published-version',
  'modified',
  'unmodified',
  'never-published-document',
  'has-published-version-document',
  'published-without-draft',
  'published-with-draft',
] as const;
export type PublicationFilter = (typeof PUBLICATION_FILTERS)[number];

/** A locale selection: one code, every locale (`*`), or a list. */
export type LocaleSelection = { readonly kind: 'one'; readonly code: string } | { readonly kind: 'all' } | { readonly kind: 'list'; readonly codes: readonly string[] };

/** Everything a read of documents needs. */
export interface DocumentQuery {
  readonly fields: readonly string[] | null;
  readonly filters: FilterNode | null;
  readonly sort: readonly SortTerm[];
  readonly populate: PopulateMap;
  readonly status: 'draft' | 'published';
  /** null: the default locale (or none for non-localized types). */
  readonly locale: LocaleSelection | null;
  /**
   * The filters name `locale` at their root: Strapi's locale lookup is then replaced by the
   * filter (its where is `{ ...lookup, ...filters }`), so no locale scope is added to the read.
   */
  readonly localeFromFilters?: boolean;
  readonly publicationFilter: PublicationFilter | null;
  readonly search: string | null;
}
