import type { Registry } from '../schema/registry.js';
import { lookupField } from '../schema/fields.js';
import type { Model } from '../schema/types.js';
import { childPath, isIdKey, isNil, isRecord, restricted, targetModel, type CanRead, type Pass, type Path, type Position, type Visit } from './check.js';
import { isOperator } from './operators.js';

/** Visits one key of a filters walk at its place in the walk. */
export type FilterVisitor = (v: Visit, at: Position) => void;

/** True when an operator operand looks like a nested filter rather than an opaque value. */
const isFilterLike = (value: Record<string, unknown>, model: Model): boolean =>
  Object.keys(value).some((k) => isOperator(k) || model.attributes.has(k));

/** The path of a list's item (the attribute path does not change). */
export const itemPath = (path: Path, i: number): Path => ({ ...path, raw: `${path.raw}[${i}]` });

/** The key of `value` at `key` in `model`, as Strapi's filters traversal sees it. */
export function filterVisit(model: Model, path: Path, key: string, value: unknown): Visit {
  const field = lookupField(model, key);
  return { key, field, path: childPath(path, key, field), value, model };
}

/** Walks a filters value the way Strapi's filters traversal does, calling `visit` for every key. */
export function walkFilters(value: unknown, model: Model, path: Path, registry: Registry, visit: FilterVisitor, at: Position = []): void {
  if (Array.isArray(value)) {
    value.forEach((item, i) => walkFilters(item, model, itemPath(path, i), registry, visit, [...at, i]));
    return;
  }
  if (!isRecord(value)) return;
  Object.keys(value).forEach((key, i) => {
    const v = filterVisit(model, path, key, value[key]);
    visit(v, [...at, i]);
    walkBelow(v, registry, visit, [...at, i]);
  });
}

/** Where Strapi's filters traversal goes below a visited key (`at` is the key's place). */
export function walkBelow(v: Visit, registry: Registry, visit: FilterVisitor, at: Position): void {
  const { key, field, value: child, model, path } = v;
  if (isNil(child)) return;
  if (!field) {
    if (isOperator(key) && key !== '$not' && isRecord(child) && !isFilterLike(child, model)) return;
    walkFilters(child, model, path, registry, visit, at);
    return;
  }
  const target = targetModel(field, registry);
  if (target) walkFilters(child, target, path, registry, visit, at);
  else if (field.kind === 'scalar' && isRecord(child)) walkFilters(child, model, path, registry, visit, at);
}

/** The filter passes, in Strapi's order (each runs over the whole tree before the next). */
export function filterPasses(canRead?: CanRead): Pass[] {
  return [
    (v) => !isIdKey(v.key) && !v.field && !isOperator(v.key),
    (v) => v.field?.kind === 'dynamiczone',
    (v) => v.field?.kind === 'scalar' && v.field.type === 'password',
    (v) => Boolean(v.field?.private),
    (v) => restricted(v, canRead),
  ];
}
