/**
 * A reference evaluator of Strapi 5 filters on SQLite, written as plain JavaScript over plain
 * objects and independent of Hearth's compiler: it judges the compiler in the property tests.
 *
 * Semantics (SQLite, as Strapi runs there, plus Hearth's documented fixes):
 * - SQL three-valued logic: a comparison with NULL is unknown, NOT unknown is unknown, and a row
 *   matches only when the whole condition is true.
 * - `$contains`/`$startsWith`/`$endsWith` are LIKE: case-insensitive for ASCII letters only;
 *   `%` and `_` in values match literally (Hearth escapes them).
 * - `$eqi`, `$containsi`, ... compare lower-cased text (full Unicode, Hearth's fix of strapi#14597).
 * - A relation filter holds when some related row satisfies it; a document with no related row
 *   is judged on one all-NULL row (Strapi's LEFT JOIN).
 */

export type Row = Record<string, unknown>;

/** What the evaluator needs to know of the model: field types and relations. */
export interface RefModel {
  readonly scalars: Record<string, 'string' | 'integer' | 'float' | 'boolean'>;
  readonly relations: Record<string, RefModel>;
}

type Truth = true | false | null;

const and3 = (a: Truth, b: Truth): Truth => (a === false || b === false ? false : a === null || b === null ? null : true);
const or3 = (a: Truth, b: Truth): Truth => (a === true || b === true ? true : a === null || b === null ? null : false);
const not3 = (a: Truth): Truth => (a === null ? null : !a);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const asciiLower = (s: string) => s.replace(/[A-Z]/g, (c) => c.toLowerCase());

function likeMatch(text: string, pattern: { prefix: boolean; suffix: boolean; value: string }, unicode: boolean): boolean {
  const hay = unicode ? text.toLowerCase() : asciiLower(text);
  const needle = unicode ? pattern.value.toLowerCase() : asciiLower(pattern.value);
  if (pattern.prefix && pattern.suffix) return hay.includes(needle);
  if (pattern.suffix) return hay.startsWith(needle);
  return hay.endsWith(needle);
}

function castFor(type: string, value: unknown): unknown {
  if (value === null) return null;
  switch (type) {
    case 'integer':
    case 'float':
      return Number(value);
    case 'boolean':
      return ['true', 't', '1', 1, true].includes(value as never) ? 1 : ['false', 'f', '0', 0, false].includes(value as never) ? 0 : value ? 1 : 0;
    default:
      return String(value);
  }
}

function stored(type: string, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (type === 'boolean') return value ? 1 : 0;
  return value;
}

const truthy = (v: unknown) => ['true', 't', '1', 1, true].includes(v as never) || (!['false', 'f', '0', 0, false].includes(v as never) && Boolean(v));

function compare(type: string, column: unknown, op: string, raw: unknown): Truth {
  const col = stored(type, column);
  if (Array.isArray(raw) && !['$in', '$notIn', '$between'].includes(op)) {
    return raw.reduce<Truth>((acc, v) => or3(acc, compare(type, column, op, v)), false);
  }
  switch (op) {
    case '$null':
      return truthy(raw) ? col === null : col !== null;
    case '$notNull':
      return truthy(raw) ? col !== null : col === null;
    case '$eq':
      if (raw === null) return col === null;
      return col === null ? null : col === castFor(type, raw);
    case '$ne':
      if (raw === null) return col !== null;
      return col === null ? null : col !== castFor(type, raw);
    case '$eqi':
      if (raw === null) return col === null;
      return col === null ? null : String(col).toLowerCase() === String(raw).toLowerCase();
    case '$nei':
      if (raw === null) return col !== null;
      return col === null ? null : String(col).toLowerCase() !== String(raw).toLowerCase();
    case '$lt':
    case '$lte':
    case '$gt':
    case '$gte': {
      if (col === null) return null;
      const v = castFor(type, raw) as number | string;
      const c = col as number | string;
      return op === '$lt' ? c < v : op === '$lte' ? c <= v : op === '$gt' ? c > v : c >= v;
    }
    case '$in':
    case '$notIn': {
      const list = (Array.isArray(raw) ? raw : [raw]).map((v) => castFor(type, v));
      if (list.length === 0) return op === '$notIn';
      if (col === null) return null;
      return op === '$in' ? list.includes(col) : !list.includes(col);
    }
    case '$between': {
      const [lo, hi] = (raw as unknown[]).map((v) => castFor(type, v)) as (number | string)[];
      if (col === null || lo === undefined || hi === undefined) return null;
      return (col as number | string) >= lo && (col as number | string) <= hi;
    }
    default: {
      const insensitive = op.endsWith('i');
      const base = insensitive ? op.slice(0, -1) : op;
      const negate = base === '$notContains';
      const pattern =
        base === '$contains' || base === '$notContains'
          ? { prefix: true, suffix: true, value: String(raw) }
          : base === '$startsWith'
            ? { prefix: false, suffix: true, value: String(raw) }
            : { prefix: true, suffix: false, value: String(raw) };
      if (col === null) return null;
      const hit = likeMatch(String(col), pattern, insensitive);
      return negate ? !hit : hit;
    }
  }
}

function attributeCondition(type: string, column: unknown, value: unknown): Truth {
  if (!isObject(value)) return Array.isArray(value) ? compare(type, column, '$in', value) : compare(type, column, '$eq', value);
  let result: Truth = true;
  for (const [op, operand] of Object.entries(value)) {
    const part = op === '$not' ? not3(isObject(operand) ? attributeCondition(type, column, operand) : compare(type, column, '$eq', operand)) : compare(type, column, op, operand);
    result = and3(result, part);
  }
  return result;
}

/** Evaluates a filters object on one row (null row: every field NULL, no related rows). */
export function evaluate(model: RefModel, row: Row | null, filters: unknown): Truth {
  if (Array.isArray(filters)) return filters.reduce<Truth>((acc, f) => and3(acc, evaluate(model, row, f)), true);
  if (!isObject(filters)) return true;
  let result: Truth = true;
  for (const [key, value] of Object.entries(filters)) {
    let part: Truth;
    if (key === '$and') part = (value as unknown[]).reduce<Truth>((acc, f) => and3(acc, evaluate(model, row, f)), true);
    else if (key === '$or') part = (value as unknown[]).length === 0 ? true : (value as unknown[]).reduce<Truth>((acc, f) => or3(acc, evaluate(model, row, f)), false);
    else if (key === '$not') part = not3(evaluate(model, row, value));
    else if (key in model.relations) {
      const target = model.relations[key] as RefModel;
      const related = row === null ? [] : ((row[key] as Row[] | Row | null) ?? []);
      const rows = Array.isArray(related) ? related : [related];
      const scope = isObject(value) && Object.keys(value).every((k) => k.startsWith('$') && !['$and', '$or', '$not'].includes(k)) ? { id: value } : isObject(value) ? value : { id: value };
      const candidates: (Row | null)[] = rows.length === 0 ? [null] : rows;
      part = candidates.some((r) => evaluate(target, r, scope) === true);
    } else {
      const type = key === 'id' ? 'integer' : (model.scalars[key] ?? 'string');
      part = attributeCondition(type, row === null ? null : (row[key] ?? null), value);
    }
    result = and3(result, part);
  }
  return result;
}

/** The rows a filters object selects, in input order. */
export function select(model: RefModel, rows: readonly Row[], filters: unknown): Row[] {
  return rows.filter((row) => evaluate(model, row, filters) === true);
}
