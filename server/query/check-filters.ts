import type { Registry } from '../schema/registry.js';
import { lookupField } from '../schema/fields.js';
import type { Model } from '../schema/types.js';
import { childPath, fail, isIdKey, isNil, isRecord, restricted, ROOT, targetModel, type CanRead, type Path, type Visit } from './check.js';
import { isOperator } from './operators.js';

/** True when an operator operand looks like a nested filter rather than an opaque value. */
const isFilterLike = (value: Record<string, unknown>, model: Model): boolean =>
  Object.keys(value).some((k) => isOperator(k) || model.attributes.has(k));

/** Walks a filters value the way Strapi's filters traversal does, calling `visit` for every key. */
export function walkFilters(value: unknown, model: Model, path: Path, registry: Registry, visit: (v: Visit) => void): void {
  if (Array.isArray(value)) {
    value.forEach((item, i) => walkFilters(item, model, { ...path, raw: `${path.raw}[${i}]` }, registry, visit));
    return;
  }
  if (!isRecord(value)) return;
  for (const key of Object.keys(value)) {
    const field = lookupField(model, key);
    const next = childPath(path, key, field);
    const child = value[key];
    visit({ key, field, path: next, value: child, model });
    if (isNil(child)) continue;
    if (!field) {
      if (isOperator(key) && key !== '$not' && isRecord(child) && !isFilterLike(child, model)) continue;
      walkFilters(child, model, next, registry, visit);
      continue;
    }
    const target = targetModel(field, registry);
    if (target) walkFilters(child, target, next, registry, visit);
    else if (field.kind === 'scalar' && isRecord(child)) walkFilters(child, model, next, registry, visit);
  }
}

/** The filter passes, each over the whole tree, in Strapi's order. */
export function validateFilters(filters: unknown, model: Model, registry: Registry, canRead?: CanRead): void {
  const walk = (check: (v: Visit) => void) => walkFilters(filters, model, ROOT, registry, check);
  walk((v) => {
    if (!isIdKey(v.key) && !v.field && !isOperator(v.key)) fail(v, 'filters');
  });
  walk((v) => {
    if (v.field?.kind === 'dynamiczone') fail(v, 'filters');
  });
  walk((v) => {
    if (v.field?.kind === 'scalar' && v.field.type === 'password') fail(v, 'filters');
  });
  walk((v) => {
    if (v.field?.private) fail(v, 'filters');
  });
  walk((v) => {
    if (restricted(v, canRead)) fail(v, 'filters');
  });
}
