import { AppError, validationError } from '../errors/app-error.js';
import { MAX_FILTER_DEPTH, MAX_FILTER_LIST, MAX_FILTER_NODES } from '../limits.js';
import type { ScalarType } from '../schema/types.js';
import { storedTemporal, toBooleanLikeStrapi, toNumberLikeLodash } from '../schema/values.js';
import { type BoundValue, type ComparisonOperator, type FieldRef, type FilterNode } from './ast.js';
import { isRecord } from './check.js';
import { ARRAY_OPERATORS } from './operators.js';

/** The values of filter conditions: a comparison's operand converted to the stored form of its field. */

/** The count of filter nodes converted so far (held to MAX_FILTER_NODES). */
export interface Ctx {
  nodes: number;
}

/** A 400 naming the filter key and path at fault. */
export function filterError(message: string, key: string, path: string | null): AppError {
  return validationError(message, { key, path, source: 'query', param: 'filters' });
}

/** Counts one node at `depth`, refusing too many or too deep. */
export function count(ctx: Ctx, depth: number): void {
  ctx.nodes++;
  if (ctx.nodes > MAX_FILTER_NODES) throw validationError(`Too many filters: at most ${MAX_FILTER_NODES} conditions are accepted`, { source: 'query', param: 'filters' });
  if (depth > MAX_FILTER_DEPTH) throw validationError(`Filters are nested too deeply: at most ${MAX_FILTER_DEPTH} levels are accepted`, { source: 'query', param: 'filters' });
}

/** The conjunction of some conditions (null for none, the condition itself for one). */
export const and = (children: FilterNode[]): FilterNode | null =>
  children.length === 0 ? null : children.length === 1 ? (children[0] as FilterNode) : { kind: 'and', children };

/** Converts one value to the stored form of a column of `type`, for the cast operators. */
export function castFilterValue(type: ScalarType, value: unknown, key: string, path: string | null): BoundValue {
  if (value === null) return null;
  if (typeof value === 'object') throw filterError(`Invalid filter value for ${key}: expected a single value`, key, path);
  const text = String(value);
  const numeric = (integer: boolean): BoundValue => {
    const n = toNumberLikeLodash(value);
    if (!Number.isFinite(n)) {
      throw filterError(`Invalid filter value for ${key}: expected ${integer ? 'an integer' : 'a number'}, received "${text}"`, key, path);
    }
    return n;
  };
  // A value that is not its type's (a bad date or time) is parsed into Strapi's 400 by schema/values.ts.
  switch (type) {
    case 'integer':
    case 'float':
    case 'decimal':
      return numeric(type === 'integer');
    case 'biginteger':
      if (/^\s*-?\d+\s*$/.test(text)) return BigInt(text.trim());
      return numeric(true);
    case 'boolean':
      return toBooleanLikeStrapi(value) ? 1 : 0;
    case 'date':
    case 'time':
    case 'datetime':
    case 'timestamp':
      return storedTemporal(type, value);
    case 'json':
    case 'blocks':
      return JSON.stringify(value);
    default:
      return text;
  }
}

function list(value: unknown, key: string, path: string | null): unknown[] {
  const items = Array.isArray(value) ? value : [value];
  if (isRecord(value)) throw filterError(`Invalid filter value for ${key}: expected a list of values`, key, path);
  if (items.length > MAX_FILTER_LIST) throw filterError(`Too many values for ${key}: at most ${MAX_FILTER_LIST} are accepted`, key, path);
  return items;
}

function likeValue(value: unknown, key: string, path: string | null): string {
  if (typeof value === 'object' && value !== null) throw filterError(`Invalid filter value for ${key}: expected a single value`, key, path);
  return String(value);
}

/** One operator applied to one field: a comparison with its value converted (a list of values is an $or). */
export function operatorNode(field: FieldRef, operator: ComparisonOperator, value: unknown, path: string | null, ctx: Ctx, depth: number): FilterNode {
  count(ctx, depth);
  if (Array.isArray(value) && !ARRAY_OPERATORS.has(operator)) {
    if (value.length > MAX_FILTER_LIST) throw filterError(`Too many values for ${field.name}: at most ${MAX_FILTER_LIST} are accepted`, field.name, path);
    return { kind: 'or', children: value.map((v) => operatorNode(field, operator, v, path, ctx, depth + 1)) };
  }
  switch (operator) {
    case '$null':
    case '$notNull':
      return { kind: 'compare', field, operator, value: toBooleanLikeStrapi(value) };
    case '$in':
    case '$notIn':
      return { kind: 'compare', field, operator, value: list(value, field.name, path).map((v) => castFilterValue(field.type, v, field.name, path)) };
    case '$between': {
      const items = list(value, field.name, path);
      if (items.length !== 2) throw filterError(`Invalid filter value for ${field.name}: $between takes two values`, field.name, path);
      return { kind: 'compare', field, operator, value: items.map((v) => castFilterValue(field.type, v, field.name, path)) };
    }
    case '$eq':
    case '$ne':
    case '$gt':
    case '$gte':
    case '$lt':
    case '$lte':
      return { kind: 'compare', field, operator, value: castFilterValue(field.type, value, field.name, path) };
    case '$eqi':
    case '$nei':
      return { kind: 'compare', field, operator, value: value === null ? null : likeValue(value, field.name, path) };
    default:
      return { kind: 'compare', field, operator, value: value === null ? 'null' : likeValue(value, field.name, path) };
  }
}
