import { isDeepStrictEqual } from 'node:util';

/**
 * The check `strapi transfer` runs on the two sides' getSchemas before any data moves
 * (@strapi/data-transfer engine: utils/json.ts diff, validation/schemas strict strategy): any
 * difference but an attribute's private/required/configurable, or an optional EE admin type,
 * stops the transfer. Ported here so the tests judge Hearth's getSchemas as the CLI does.
 */

/** One difference, with its path. */
export interface Diff {
  readonly kind: 'added' | 'deleted' | 'modified' | 'dataType';
  readonly path: readonly string[];
  readonly value?: unknown;
  readonly values?: readonly unknown[];
}

const isObject = (v: unknown): v is Record<string, unknown> => (typeof v === 'object' && v !== null) || typeof v === 'function';

function diff(a: unknown, b: unknown, path: string[] = []): Diff[] {
  if (Array.isArray(a) && Array.isArray(b)) {
    const out: Diff[] = [];
    for (let k = 0; k < Math.max(a.length, b.length); k++) out.push(...diff(a[k], b[k], [...path, String(k)]));
    return out;
  }
  if (isObject(a) && isObject(b)) {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])];
    return keys.flatMap((key) => diff(a[key], b[key], [...path, key]));
  }
  if (isDeepStrictEqual(a, b)) return [];
  if (a == b) return [{ kind: 'dataType', path, values: [a, b] }];
  if (a === undefined) return [{ kind: 'added', path, value: b }];
  if (b === undefined) return [{ kind: 'deleted', path, value: a }];
  return [{ kind: 'modified', path, values: [a, b] }];
}

const OPTIONAL_CONTENT_TYPES = ['audit-log', 'workflow', 'workflow-stage'];

const singularName = (v: unknown) => (isObject(v) && isObject(v.info) ? v.info.singularName : undefined);

function ignorable(d: Diff): boolean {
  if (d.path.length === 3 && d.path[0] === 'attributes' && ['private', 'required', 'configurable'].includes(String(d.path[2]))) return true;
  const name = 'value' in d ? singularName(d.value) : singularName(d.values?.[0]);
  return OPTIONAL_CONTENT_TYPES.includes(String(name));
}

/** The strict strategy's differences between two getSchemas answers, by uid (empty: the transfer goes ahead). */
export function strictSchemaDiffs(source: Record<string, unknown>, destination: Record<string, unknown>): Record<string, Diff[]> {
  const out: Record<string, Diff[]> = {};
  for (const uid of new Set([...Object.keys(source), ...Object.keys(destination)])) {
    const diffs = diff(source[uid], destination[uid]).filter((d) => !ignorable(d));
    if (diffs.length > 0) out[uid] = diffs;
  }
  return out;
}
