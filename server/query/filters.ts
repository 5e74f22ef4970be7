import { AppError, invalidKey, validationError } from '../errors/app-error.js';
import { MAX_FILTER_DEPTH, MAX_FILTER_LIST, MAX_FILTER_NODES } from '../limits.js';
import { lookupField, targetUid } from '../schema/fields.js';
import type { Registry } from '../schema/registry.js';
import type { Model, ScalarType } from '../schema/types.js';
import { storedTemporal, toBooleanLikeStrapi, toNumberLikeLodash, ValueError } from '../schema/values.js';
import { COMPARISON_OPERATORS, type BoundValue, type ComparisonOperator, type FieldRef, type FilterNode } from './ast.js';
import { ARRAY_OPERATORS, isOperator } from './operators.js';

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const COMPARISONS = new Set<string>(COMPARISON_OPERATORS);

interface Ctx {
  readonly registry: Registry;
  nodes: number;
}

function filterError(message: string, key: string, path: string | null): AppError {
  return validationError(message, { key, path, source: 'query', param: 'filters' });
}

function count(ctx: Ctx, depth: number): void {
  ctx.nodes++;
  if (ctx.nodes > MAX_FILTER_NODES) throw validationError(`Too many filters: at most ${MAX_FILTER_NODES} conditions are accepted`, { source: 'query', param: 'filters' });
  if (depth > MAX_FILTER_DEPTH) throw validationError(`Filters are nested too deeply: at most ${MAX_FILTER_DEPTH} levels are accepted`, { source: 'query', param: 'filters' });
}

const and = (children: FilterNode[]): FilterNode | null =>
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
  try {
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
  } catch (err) {
    if (err instanceof ValueError) throw validationError(err.message);
    throw err;
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

function operatorNode(field: FieldRef, operator: ComparisonOperator, value: unknown, path: string | null, ctx: Ctx, depth: number): FilterNode {
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

/** The conditions on one scalar field: a bare value, a list, or an object of operators. */
function attributeNode(field: FieldRef, value: unknown, path: string | null, ctx: Ctx, depth: number): FilterNode | null {
  count(ctx, depth);
  if (value === undefined) return null;
  if (value === null || !isRecord(value)) {
    if (Array.isArray(value)) return operatorNode(field, '$in', value, path, ctx, depth + 1);
    return operatorNode(field, '$eq', value, path, ctx, depth + 1);
  }
  const parts: FilterNode[] = [];
  for (const [key, operand] of Object.entries(value)) {
    if (operand === undefined) continue;
    if (key === '$not') {
      const inner = isRecord(operand) ? attributeNode(field, operand, path, ctx, depth + 1) : operatorNode(field, '$eq', operand, path, ctx, depth + 1);
      if (inner) parts.push({ kind: 'not', child: inner });
    } else if (key === '$and' || key === '$or') {
      if (!Array.isArray(operand)) throw filterError(`Invalid filter: ${key} expects a list`, key, path);
      const children = operand.map((o) => attributeNode(field, o, path, ctx, depth + 1)).filter((n): n is FilterNode => n !== null);
      if (children.length > 0) parts.push({ kind: key === '$and' ? 'and' : 'or', children });
    } else if (COMPARISONS.has(key)) {
      parts.push(operatorNode(field, key as ComparisonOperator, operand, path, ctx, depth + 1));
    } else if (key === '$jsonSupersetOf') {
      throw filterError('The $jsonSupersetOf operator is not supported', key, path);
    } else {
      throw invalidKey({ key, path, source: 'query', param: 'filters' });
    }
  }
  return and(parts);
}

/** A relation, component or media attribute: a value filters the target's id; an object filters the target. */
function throughNode(
  model: Model,
  key: string,
  via: 'relation' | 'component' | 'media',
  target: Model,
  value: unknown,
  path: string,
  ctx: Ctx,
  depth: number,
): FilterNode | null {
  count(ctx, depth);
  const idField: FieldRef = { name: 'id', type: 'integer' };
  let child: FilterNode | null;
  if (!isRecord(value)) {
    child = attributeNode(idField, value, path, ctx, depth + 1);
  } else {
    const parts: FilterNode[] = [];
    const attributes: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      if (COMPARISONS.has(k)) {
        const node = attributeNode(idField, { [k]: v }, path, ctx, depth + 1);
        if (node) parts.push(node);
      } else {
        attributes[k] = v;
      }
    }
    const rest = whereNode(attributes, target, path, ctx, depth + 1);
    if (rest) parts.push(rest);
    child = and(parts);
  }
  if (!child) return null;
  void model;
  return { kind: 'through', attribute: key, via, target: target.uid, child };
}

function whereNode(where: unknown, model: Model, path: string | null, ctx: Ctx, depth: number): FilterNode | null {
  count(ctx, depth);
  // A list is an implicit $and group, at any depth (inside $and, $or, $not and other lists too).
  if (Array.isArray(where)) {
    return and(where.map((w) => whereNode(requireGroup(w, path), model, path, ctx, depth + 1)).filter((n): n is FilterNode => n !== null));
  }
  if (!isRecord(where)) throw validationError('The filters parameter must be an object or an array');
  const parts: FilterNode[] = [];
  for (const [key, value] of Object.entries(where)) {
    if (value === undefined) continue;
    if (key === '$and' || key === '$or') {
      if (!Array.isArray(value)) throw filterError(`Invalid filter: ${key} expects a list of filters`, key, path);
      const children = value
        .map((v) => whereNode(requireGroup(v, path), model, path, ctx, depth + 1))
        .filter((n): n is FilterNode => n !== null);
      if (children.length > 0) parts.push({ kind: key === '$and' ? 'and' : 'or', children });
      continue;
    }
    if (key === '$not') {
      const inner = whereNode(requireGroup(value, path), model, path, ctx, depth + 1);
      if (inner) parts.push({ kind: 'not', child: inner });
      continue;
    }
    if (isOperator(key)) {
      throw filterError(`Invalid key ${key}: only $and, $or and $not can be used where attributes are expected`, key, path);
    }
    const field = lookupField(model, key);
    const fieldPath = path === null ? key : `${path}.${key}`;
    if (!field) throw invalidKey({ key, path, source: 'query', param: 'filters' });
    if (field.kind === 'scalar') {
      const node = attributeNode({ name: key, type: field.type }, value, fieldPath, ctx, depth + 1);
      if (node) parts.push(node);
      continue;
    }
    const uid = targetUid(field);
    const target = uid === undefined ? undefined : ctx.registry.model(uid);
    if (!target || (field.kind !== 'relation' && field.kind !== 'component' && field.kind !== 'media')) {
      throw filterError(`Filtering on ${key} is not supported`, key, fieldPath);
    }
    const node = throughNode(model, key, field.kind, target, value, fieldPath, ctx, depth + 1);
    if (node) parts.push(node);
  }
  return and(parts);
}

/** An object of conditions, or a list of them (an implicit $and group). */
function requireGroup(value: unknown, path: string | null): Record<string, unknown> | unknown[] {
  if (!isRecord(value) && !Array.isArray(value)) throw filterError('Invalid filter: expected an object of conditions', '$and', path);
  return value;
}

/** Builds the filter tree of a query (already validated) for `model`; null when it filters nothing. */
export function convertFilters(raw: unknown, model: Model, registry: Registry): FilterNode | null {
  if (raw === undefined || raw === null || raw === '') return null;
  if (typeof raw !== 'object') throw validationError('The filters parameter must be an object or an array');
  return whereNode(raw, model, null, { registry, nodes: 0 }, 0);
}
