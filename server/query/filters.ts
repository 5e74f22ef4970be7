import { invalidKey, validationError } from '../errors/app-error.js';
import { targetUid } from '../schema/fields.js';
import type { Registry } from '../schema/registry.js';
import type { Model } from '../schema/types.js';
import { COMPARISON_OPERATORS, type ComparisonOperator, type FieldRef, type FilterNode } from './ast.js';
import { createFindings, isRecord, ROOT, type CanRead, type Parsed, type Path, type Position } from './check.js';
import { filterPasses, filterVisit, itemPath, walkBelow, walkFilters, type FilterVisitor } from './check-filters.js';
import { and, count, filterError, operatorNode, type Ctx } from './filter-values.js';
import { isOperator } from './operators.js';

/**
 * `filters` parsed in one walk: every key is checked by Strapi's validator passes (check-filters.ts)
 * as it is converted into the filter tree. Below a key the converter reads as a value (an
 * operator's operand), the walk goes on as Strapi's traversal does, checking only.
 */

const COMPARISONS = new Set<string>(COMPARISON_OPERATORS);
const notNull = (n: FilterNode | null): n is FilterNode => n !== null;

interface Walk extends Ctx {
  readonly registry: Registry;
  readonly visit: FilterVisitor;
}

/** Visits `key` of a record at its place, and returns the visit (its path is the key's). */
function visitKey(w: Walk, model: Model, path: Path, key: string, value: unknown, at: Position) {
  const v = filterVisit(model, path, key, value);
  w.visit(v, at);
  return v;
}

/** The conditions on one scalar field: a bare value, a list, or an object of operators. */
function attributeNode(field: FieldRef, value: unknown, model: Model, path: Path, at: Position, w: Walk, depth: number): FilterNode | null {
  count(w, depth);
  if (value === undefined) return null;
  const p = path.attribute;
  if (value === null || !isRecord(value)) {
    if (Array.isArray(value)) return operatorNode(field, '$in', value, p, w, depth + 1);
    return operatorNode(field, '$eq', value, p, w, depth + 1);
  }
  const parts: FilterNode[] = [];
  Object.keys(value).forEach((key, i) => {
    const operand = value[key];
    const pos = [...at, i];
    const v = visitKey(w, model, path, key, operand, pos);
    if (operand === undefined) return;
    if (key === '$not') {
      if (!isRecord(operand)) walkBelow(v, w.registry, w.visit, pos);
      const inner = isRecord(operand) ? attributeNode(field, operand, model, v.path, pos, w, depth + 1) : operatorNode(field, '$eq', operand, p, w, depth + 1);
      if (inner) parts.push({ kind: 'not', child: inner });
    } else if (key === '$and' || key === '$or') {
      if (!Array.isArray(operand)) throw filterError(`Invalid filter: ${key} expects a list`, key, p);
      const children = operand
        .map((o, j) => {
          if (!isRecord(o)) walkFilters(o, model, itemPath(v.path, j), w.registry, w.visit, [...pos, j]);
          return attributeNode(field, o, model, itemPath(v.path, j), [...pos, j], w, depth + 1);
        })
        .filter(notNull);
      if (children.length > 0) parts.push({ kind: key === '$and' ? 'and' : 'or', children });
    } else if (COMPARISONS.has(key)) {
      walkBelow(v, w.registry, w.visit, pos);
      parts.push(operatorNode(field, key as ComparisonOperator, operand, p, w, depth + 1));
    } else if (key === '$jsonSupersetOf') {
      throw filterError('The $jsonSupersetOf operator is not supported', key, p);
    } else {
      throw invalidKey({ key, path: p, source: 'query', param: 'filters' });
    }
  });
  return and(parts);
}

/** A relation, component or media attribute: a value filters the target's id; an object filters the target. */
function throughNode(key: string, via: 'relation' | 'component' | 'media', target: Model, value: unknown, path: Path, at: Position, w: Walk, depth: number): FilterNode | null {
  count(w, depth);
  const idField: FieldRef = { name: 'id', type: 'integer' };
  let child: FilterNode | null;
  if (!isRecord(value)) {
    walkFilters(value, target, path, w.registry, w.visit, at);
    child = attributeNode(idField, value, target, path, at, w, depth + 1);
  } else {
    // Operators on the target's id first, then the target's attributes (one group).
    const parts: FilterNode[] = [];
    const attributes: [string, unknown, number][] = [];
    Object.keys(value).forEach((k, i) => {
      if (k === '__proto__') {
        // Never an attribute: checked (Strapi names it), but not converted (it was never a key of the attribute group).
        const v = visitKey(w, target, path, k, value[k], [...at, i]);
        walkBelow(v, w.registry, w.visit, [...at, i]);
        return;
      }
      if (!COMPARISONS.has(k)) {
        attributes.push([k, value[k], i]);
        return;
      }
      const v = visitKey(w, target, path, k, value[k], [...at, i]);
      count(w, depth + 1);
      if (v.value === undefined) return;
      walkBelow(v, w.registry, w.visit, [...at, i]);
      parts.push(operatorNode(idField, k as ComparisonOperator, v.value, path.attribute, w, depth + 2));
    });
    count(w, depth + 1);
    const rest = whereEntries(attributes, target, path, at, w, depth + 1);
    if (rest) parts.push(rest);
    child = and(parts);
  }
  if (!child) return null;
  return { kind: 'through', attribute: key, via, target: target.uid, child };
}

/** An object of conditions, or a list of them (an implicit $and group). */
function requireGroup(value: unknown, path: string | null): Record<string, unknown> | unknown[] {
  if (!isRecord(value) && !Array.isArray(value)) throw filterError('Invalid filter: expected an object of conditions', '$and', path);
  return value;
}

function whereNode(where: unknown, model: Model, path: Path, at: Position, w: Walk, depth: number): FilterNode | null {
  count(w, depth);
  // A list is an implicit $and group, at any depth (inside $and, $or, $not and other lists too).
  if (Array.isArray(where)) return and(groupList(where, model, path, at, w, depth + 1));
  if (!isRecord(where)) throw validationError('The filters parameter must be an object or an array');
  return whereEntries(Object.keys(where).map((key, i) => [key, where[key], i]), model, path, at, w, depth);
}

/** The members of a list of groups (`$and`, `$or`, a bare list). */
function groupList(list: unknown[], model: Model, path: Path, at: Position, w: Walk, depth: number): FilterNode[] {
  return list.map((item, i) => whereNode(requireGroup(item, path.attribute), model, itemPath(path, i), [...at, i], w, depth)).filter(notNull);
}

/** The keys of an object of conditions (each with its index in the object, for its place in the walk). */
function whereEntries(entries: [string, unknown, number][], model: Model, path: Path, at: Position, w: Walk, depth: number): FilterNode | null {
  const parts: FilterNode[] = [];
  const p = path.attribute;
  for (const [key, value, i] of entries) {
    const pos = [...at, i];
    const v = visitKey(w, model, path, key, value, pos);
    if (value === undefined) continue;
    if (key === '$and' || key === '$or') {
      if (!Array.isArray(value)) throw filterError(`Invalid filter: ${key} expects a list of filters`, key, p);
      const children = groupList(value, model, v.path, pos, w, depth + 1);
      if (children.length > 0) parts.push({ kind: key === '$and' ? 'and' : 'or', children });
      continue;
    }
    if (key === '$not') {
      const inner = whereNode(requireGroup(value, p), model, v.path, pos, w, depth + 1);
      if (inner) parts.push({ kind: 'not', child: inner });
      continue;
    }
    if (isOperator(key)) {
      throw filterError(`Invalid key ${key}: only $and, $or and $not can be used where attributes are expected`, key, p);
    }
    const field = v.field;
    if (!field) throw invalidKey({ key, path: p, source: 'query', param: 'filters' });
    if (field.kind === 'scalar') {
      const node = attributeNode({ name: key, type: field.type }, value, model, v.path, pos, w, depth + 1);
      if (node) parts.push(node);
      continue;
    }
    const uid = targetUid(field);
    const target = uid === undefined ? undefined : w.registry.model(uid);
    if (!target || (field.kind !== 'relation' && field.kind !== 'component' && field.kind !== 'media')) {
      throw filterError(`Filtering on ${key} is not supported`, key, v.path.attribute);
    }
    const node = throughNode(key, field.kind, target, value, v.path, pos, w, depth + 1);
    if (node) parts.push(node);
  }
  return and(parts);
}

/** What parsing a `filters` value needs: the model it filters, the registry, and the caller's read check. */
export interface FilterScope {
  readonly model: Model;
  readonly registry: Registry;
  readonly canRead?: CanRead;
}

/**
 * `filters` validated and converted in one walk: Strapi's `Invalid key` 400 (naming the key and its
 * path) is thrown at once; a conversion error is returned, to be thrown once every parameter is
 * validated. When conversion stops early, the walk finishes checking only, so that Strapi's
 * validator error still wins over it.
 */
export function parseFilters(raw: unknown, scope: FilterScope): Parsed<FilterNode | null> {
  if (raw === undefined || raw === null || raw === '') return { ok: true, value: null };
  const { model, registry } = scope;
  const findings = createFindings(filterPasses(scope.canRead), 'filters');
  let parsed: Parsed<FilterNode | null>;
  try {
    parsed = { ok: true, value: whereNode(raw, model, ROOT, [], { registry, visit: findings.visit, nodes: 0 }, 0) };
  } catch (error) {
    walkFilters(raw, model, ROOT, registry, findings.visit);
    parsed = { ok: false, error };
  }
  findings.raise();
  return parsed;
}

const NO_CHECKS: FilterVisitor = () => {};

/**
 * The filter tree of `raw` for `model` (null when it filters nothing), converted without Strapi's
 * validator passes: for a query Strapi does not validate (a single type's write, through its
 * populate) and for the filters of a populate, which the populate's own walk checked.
 */
export function convertFilters(raw: unknown, model: Model, registry: Registry): FilterNode | null {
  if (raw === undefined || raw === null || raw === '') return null;
  return whereNode(raw, model, ROOT, [], { registry, visit: NO_CHECKS, nodes: 0 }, 0);
}
