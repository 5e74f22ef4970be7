import { invalidKey } from '../errors/app-error.js';
import { lookupField } from '../schema/fields.js';
import type { Registry } from '../schema/registry.js';
import type { ContentTypeModel, Model } from '../schema/types.js';
import { checkMorphInput } from './morph-input.js';
import { isRecord } from '../errors/is-record.js';

/** Keys Strapi lets through anywhere in a body (relation operations and dynamic-zone tags). */
const PASS_THROUGH = new Set(['connect', 'disconnect', 'set', '__component', 'options']);

interface Visit {
  readonly key: string;
  readonly model: Model;
  /** Attribute path of the key's container (null at the root). */
  readonly parentPath: string | null;
}

/** What a level of a body is: its object, model and attribute path (null at the root). */
type LevelVisit = (level: Record<string, unknown>, model: Model, path: string | null) => void;

/**
 * Walks a body like Strapi's traverseEntity: into components and dynamic-zone entries, not relations.
 * `visit` sees each key; `onLevel`, when given, each object level before its keys.
 */
function walk(data: unknown, model: Model, parentPath: string | null, registry: Registry, visit: (v: Visit) => void, onLevel?: LevelVisit): void {
  if (Array.isArray(data)) {
    for (const item of data) walk(item, model, parentPath, registry, visit, onLevel);
    return;
  }
  if (!isRecord(data)) return;
  onLevel?.(data, model, parentPath);
  for (const [key, value] of Object.entries(data)) {
    visit({ key, model, parentPath });
    const attribute = model.attributes.get(key);
    if (!attribute || value === null || value === undefined) continue;
    const path = parentPath === null ? key : `${parentPath}.${key}`;
    if (attribute.kind === 'component') {
      const component = registry.component(attribute.component);
      if (component) walk(value, component, path, registry, visit, onLevel);
    } else if (attribute.kind === 'dynamiczone' && Array.isArray(value)) {
      for (const entry of value) {
        const uid = isRecord(entry) ? entry.__component : undefined;
        const component = typeof uid === 'string' && attribute.components.includes(uid) ? registry.component(uid) : undefined;
        if (component) walk(entry, component, path, registry, visit, onLevel);
      }
    }
  }
}

/**
 * Strapi's input validation of a body's `data`: `id`/`documentId` are refused at the root,
 * then any non-writable attribute (timestamps, creator fields, `localizations`), then any key
 * that names no attribute, each with Strapi's `Invalid key` error and `details`.
 */
export function checkInput(data: unknown, model: ContentTypeModel, registry: Registry, canRead?: (uid: string) => boolean): void {
  if (Array.isArray(data)) {
    for (const entry of data) checkInput(entry, model, registry, canRead);
    return;
  }
  if (!isRecord(data)) return;
  for (const key of ['id', 'documentId']) {
    if (key in data) throw invalidKey({ key, path: null, source: 'body', omitPath: true });
  }
  walk(data, model, null, registry, ({ key, model: at, parentPath }) => {
    if (key === 'id' && at.modelType === 'component') return;
    const field = lookupField(at, key);
    if (field && !field.writable && at.modelType === 'contentType') {
      const path = parentPath === null ? key : `${parentPath}.${key}`;
      throw invalidKey({ key, path, source: 'body' });
    }
  });
  walk(data, model, null, registry, ({ key, model: at, parentPath }) => {
    if (PASS_THROUGH.has(key) || (key === 'id' && at.modelType === 'component')) return;
    if (!lookupField(at, key) && !at.morphs?.has(key)) throw invalidKey({ key, path: parentPath, source: 'body' });
  });
  walk(data, model, null, registry, () => undefined, (level, at, path) => checkMorphInput(at, level, path, registry, canRead));
  if (!canRead) return;
  walk(data, model, null, registry, ({ key, model: at, parentPath }) => {
    const attribute = at.attributes.get(key);
    if (attribute?.kind === 'relation' && !canRead(attribute.target)) {
      throw invalidKey({ key, path: parentPath === null ? key : `${parentPath}.${key}`, source: 'body' });
    }
  });
}
