import { invalidKey } from '../errors/app-error.js';
import { isRecord } from '../errors/is-record.js';
import type { FieldInfo } from '../schema/fields.js';
import type { MorphAttribute } from '../schema/morphs.js';
import type { Registry } from '../schema/registry.js';
import { FILE_UID, type Model } from '../schema/types.js';

/**
 * The vocabulary of Strapi's query validators, reproduced (check-filters.ts, check-sort.ts,
 * populate-walk.ts): they walk `filters`, `sort`, `fields` and `populate`
 * the way Strapi's traversals do and throw the same `Invalid key` errors (same key, same path,
 * same pass order), so a client sees the very error Strapi would give it.
 */

/** Where a key sits: its raw query path, and the path of attributes only (what Strapi's errors name). */
export interface Path {
  readonly raw: string | null;
  readonly attribute: string | null;
}
/** The root of a query parameter. */
export const ROOT: Path = { raw: null, attribute: null };

/** One key met by a validator's walk. */
export interface Visit {
  readonly key: string;
  readonly field: FieldInfo | undefined;
  readonly path: Path;
  readonly value: unknown;
  readonly model: Model;
  /** The key names a morph relation of `model` (kept apart from its attributes). */
  readonly morph?: MorphAttribute;
}

/** Attribute kinds a populate may name (and `localizations`, which Hearth adds). */
export const POPULATABLE = new Set(['relation', 'component', 'media', 'dynamiczone', 'localizations']);

/** A plain object (qs objects have a null prototype): the server's one guard, re-exported for the grammars. */
export { isRecord };
/** null or undefined. */
export const isNil = (v: unknown): v is null | undefined => v === null || v === undefined;
/** Strapi's lodash `isEmpty` on a query value (nil, '', [] or {}). */
export const isEmptyValue = (v: unknown): boolean =>
  isNil(v) || v === '' || (Array.isArray(v) && v.length === 0) || (isRecord(v) && Object.keys(v).length === 0);

/** The path of `key` under `path` (the attribute path grows only when the key names a field). */
export function childPath(path: Path, key: string, field: FieldInfo | MorphAttribute | undefined): Path {
  return {
    raw: path.raw === null ? key : `${path.raw}.${key}`,
    attribute: field ? (path.attribute === null ? key : `${path.attribute}.${key}`) : path.attribute,
  };
}

/** The model a relation, component or media field leads to. */
export function targetModel(field: FieldInfo | undefined, registry: Registry): Model | undefined {
  if (!field) return undefined;
  if (field.kind === 'relation' && field.attribute.kind === 'relation') return registry.model(field.attribute.target);
  if (field.kind === 'component' && field.attribute.kind === 'component') return registry.model(field.attribute.component);
  if (field.kind === 'media') return registry.model(FILE_UID);
  return undefined;
}

/** The query parameter a validator checks. */
export type Param = 'filters' | 'sort' | 'fields' | 'populate';

/** Throws Strapi's `Invalid key` error for a visit. */
export function fail(v: Visit, param: Param, path: string | null = v.path.attribute): never {
  throw invalidKey({ key: v.key, path, source: 'query', param });
}

/** `id` and `documentId` are accepted wherever an attribute is, though no attribute names them. */
export const isIdKey = (key: string) => key === 'id' || key === 'documentId';

/** Whether the caller may `find` entries of a content type (relations it may not are refused). */
export type CanRead = (uid: string) => boolean;

/** The visit names a relation to a content type the caller may not find. */
export const restricted = (v: Visit, canRead: CanRead | undefined): boolean =>
  canRead !== undefined && v.field?.kind === 'relation' && v.field.attribute.kind === 'relation' && !canRead(v.field.attribute.target);

/** A key's place in a walk: the index of each key or list item from the root, compared in walk order. */
export type Position = readonly number[];

const precedes = (a: Position, b: Position): boolean => {
  for (let i = 0; i < a.length && i < b.length; i++) if (a[i] !== b[i]) return (a[i] as number) < (b[i] as number);
  return a.length < b.length;
};

/** A validator pass: whether a visited key fails it. */
export type Pass = (v: Visit) => boolean;

/**
 * Strapi's validator passes, checked in one walk. Strapi runs its passes one after another over
 * the whole tree, so the key it names is the first (in walk order) failing the earliest pass: each
 * visit is checked against every pass and the earliest failure of each pass is kept.
 */
export function createFindings(passes: readonly Pass[], param: Param) {
  const first: ({ readonly at: Position; readonly visit: Visit } | undefined)[] = passes.map(() => undefined);
  return {
    /** Checks one visited key at its place in the walk. */
    visit(v: Visit, at: Position): void {
      passes.forEach((failsPass, pass) => {
        const kept = first[pass];
        if ((kept === undefined || precedes(at, kept.at)) && failsPass(v)) first[pass] = { at, visit: v };
      });
    },
    /** Throws the `Invalid key` error Strapi's passes would throw, if any key failed one. */
    raise(): void {
      const failure = first.find((f) => f !== undefined);
      if (failure) fail(failure.visit, param);
    },
  };
}

/** A parameter walked once: its AST, or the conversion error to throw once every parameter is validated (Strapi validates all of them first). */
export type Parsed<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: unknown };

/** A conversion run now, its error kept for later (what a parameter Strapi does not validate gets). */
export function attempt<T>(convert: () => T): Parsed<T> {
  try {
    return { ok: true, value: convert() };
  } catch (error) {
    return { ok: false, error };
  }
}

/** The AST of a parsed parameter, or its conversion error thrown. */
export function unwrap<T>(parsed: Parsed<T>): T {
  if (!parsed.ok) throw parsed.error;
  return parsed.value;
}
