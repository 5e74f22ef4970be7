import { lookupField } from '../schema/fields.js';
import type { Registry } from '../schema/registry.js';
import type { Model } from '../schema/types.js';
import { childPath, fail, isEmptyValue, isIdKey, isRecord, restricted, ROOT, targetModel, type CanRead, type Path, type Visit } from './check.js';

const SORT_ORDERS = new Set(['asc', 'desc']);

function tokenizeSort(text: string): string[] {
  return text.split('.').flatMap((part) => part.split(':'));
}

function recomposeSort(parts: string[]): string | undefined {
  if (parts.length === 0) return undefined;
  return parts.reduce((acc, part) => {
    if (part === '') return acc;
    if (acc === '') return part;
    return SORT_ORDERS.has(part.toLowerCase()) ? `${acc}:${part}` : `${acc}.${part}`;
  }, '');
}
/** Walks a sort value the way Strapi's sort traversal does, calling `visit` for every key. */
export function walkSort(value: unknown, model: Model, path: Path, registry: Registry, visit: (v: Visit) => void): void {
  if (typeof value === 'string' && value.split(',').length > 1) {
    for (const part of value.split(',')) walkSort(part.trim(), model, path, registry, visit);
    return;
  }
  if (Array.isArray(value)) {
    for (const item of value) walkSort(item, model, path, registry, visit);
    return;
  }
  let entries: [string, unknown][];
  if (typeof value === 'string') {
    const tokens = tokenizeSort(value.trim());
    const [head, ...rest] = tokens;
    entries = head ? [[head, recomposeSort(rest)]] : [];
  } else if (isRecord(value)) {
    entries = Object.entries(value);
  } else {
    return;
  }
  for (const [key, child] of entries) {
    const field = lookupField(model, key);
    const next = childPath(path, key, field);
    visit({ key, field, path: next, value: child, model });
    const target = targetModel(field, registry);
    if (target) walkSort(child, target, next, registry, visit);
  }
}

/** The sort passes, in Strapi's order. */
export function validateSort(sort: unknown, model: Model, registry: Registry, canRead?: CanRead): void {
  const walk = (check: (v: Visit) => void) => walkSort(sort, model, ROOT, registry, check);
  walk((v) => {
    if (!isIdKey(v.key) && !v.field) fail(v, 'sort');
  });
  walk((v) => {
    if (v.field?.kind === 'dynamiczone') fail(v, 'sort');
  });
  walk((v) => {
    if (v.field?.kind === 'scalar' && v.field.type === 'password') fail(v, 'sort');
  });
  walk((v) => {
    if (v.field?.private) fail(v, 'sort');
  });
  walk((v) => {
    if (!isIdKey(v.key) && v.field?.kind !== 'scalar' && isEmptyValue(v.value)) fail(v, 'sort');
  });
  walk((v) => {
    if (restricted(v, canRead)) fail(v, 'sort');
  });
}

function fieldKeys(fields: unknown): string[] {
  if (typeof fields === 'string') return fields.split(',').map((f) => f.trim());
  if (Array.isArray(fields)) return fields.flatMap((f) => fieldKeys(f));
  if (isRecord(fields)) return Object.keys(fields);
  return [];
}

/** The fields passes: only scalar attributes, never private or password ones. */
export function validateFields(fields: unknown, model: Model): void {
  if (fields === '*') return;
  const visits = fieldKeys(fields).map((key): Visit => {
    const field = lookupField(model, key);
    return { key, field, path: childPath(ROOT, key, field), value: undefined, model };
  });
  for (const v of visits) if (!isIdKey(v.key) && v.field?.kind !== 'scalar') fail(v, 'fields');
  for (const v of visits) if (v.field?.private && !(v.field.kind === 'scalar' && v.field.type === 'password')) fail(v, 'fields');
  for (const v of visits) if (v.field?.kind === 'scalar' && v.field.type === 'password') fail(v, 'fields');
}
