import { lookupField } from '../schema/fields.js';
import type { Registry } from '../schema/registry.js';
import type { Model } from '../schema/types.js';
import { childPath, createFindings, isEmptyValue, isIdKey, isRecord, restricted, ROOT, targetModel, type CanRead, type Pass, type Path, type Visit } from './check.js';

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

/** The sort passes, in Strapi's order (each runs over the whole tree before the next). */
export function sortPasses(canRead?: CanRead): Pass[] {
  return [
    (v) => !isIdKey(v.key) && !v.field,
    (v) => v.field?.kind === 'dynamiczone',
    (v) => v.field?.kind === 'scalar' && v.field.type === 'password',
    (v) => Boolean(v.field?.private),
    (v) => !isIdKey(v.key) && v.field?.kind !== 'scalar' && isEmptyValue(v.value),
    (v) => restricted(v, canRead),
  ];
}

/** The keys of a `fields` value as Strapi's validator reads them (a comma string, lists flattened, an object's keys). */
export function fieldKeys(fields: unknown): string[] {
  if (typeof fields === 'string') return fields.split(',').map((f) => f.trim());
  if (Array.isArray(fields)) return fields.flatMap((f) => fieldKeys(f));
  if (isRecord(fields)) return Object.keys(fields);
  return [];
}

/** The fields passes, in Strapi's order: only scalar attributes, never private or password ones. */
const FIELD_PASSES: Pass[] = [
  (v) => !isIdKey(v.key) && v.field?.kind !== 'scalar',
  (v) => Boolean(v.field?.private) && !(v.field?.kind === 'scalar' && v.field.type === 'password'),
  (v) => v.field?.kind === 'scalar' && v.field.type === 'password',
];

/** Checks the keys of a `fields` value (from fieldKeys) against the fields passes. */
export function checkFieldKeys(keys: readonly string[], model: Model): void {
  const findings = createFindings(FIELD_PASSES, 'fields');
  keys.forEach((key, i) => {
    const field = lookupField(model, key);
    findings.visit({ key, field, path: childPath(ROOT, key, field), value: undefined, model }, [i]);
  });
  findings.raise();
}

/** Validates a `fields` value without converting it (what a populate's structure pass needs). */
export function validateFields(fields: unknown, model: Model): void {
  if (fields === '*') return;
  checkFieldKeys(fieldKeys(fields), model);
}
