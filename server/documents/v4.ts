import type { Registry } from '../schema/registry.js';
import { FILE_UID, type Model } from '../schema/types.js';

type Entry = Record<string, unknown>;
const isEntry = (v: unknown): v is Entry => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Nested values of an entry or component, with relations and media wrapped in `{ data }`. */
function attributesOf(model: Model | undefined, entry: Entry, registry: Registry, skip: ReadonlySet<string>): Entry {
  const out: Entry = {};
  for (const [key, value] of Object.entries(entry)) {
    if (skip.has(key)) continue;
    const attr = model?.attributes.get(key);
    if (!attr || value === undefined) {
      out[key] = value;
    } else if (attr.kind === 'relation' || attr.kind === 'media' || attr.kind === 'localizations') {
      const target = registry.model(attr.kind === 'relation' ? attr.target : attr.kind === 'media' ? FILE_UID : (model?.uid ?? ''));
      out[key] = { data: Array.isArray(value) ? value.map((v) => (isEntry(v) ? toV4Entry(target, v, registry) : v)) : isEntry(value) && !('count' in value && Object.keys(value).length === 1) ? toV4Entry(target, value, registry) : value };
    } else if (attr.kind === 'component') {
      const component = registry.model(attr.component);
      out[key] = Array.isArray(value) ? value.map((v) => (isEntry(v) ? toV4Component(component, v, registry) : v)) : isEntry(value) ? toV4Component(component, value, registry) : value;
    } else if (attr.kind === 'dynamiczone') {
      out[key] = Array.isArray(value) ? value.map((v) => (isEntry(v) ? toV4Component(registry.model(String(v.__component)), v, registry) : v)) : value;
    } else {
      out[key] = value;
    }
  }
  return out;
}

const ENTRY_KEYS = new Set(['id', 'documentId']);
const NO_KEYS = new Set<string>();

/** A content entry in the v4 shape: `{ id, documentId, attributes }`. */
export function toV4Entry(model: Model | undefined, entry: Entry, registry: Registry): Entry {
  const out: Entry = { id: entry.id };
  if ('documentId' in entry) out.documentId = entry.documentId;
  out.attributes = attributesOf(model, entry, registry, ENTRY_KEYS);
  return out;
}

/** Components stay flat in v4; only the relations and media inside them are wrapped. */
function toV4Component(model: Model | undefined, entry: Entry, registry: Registry): Entry {
  return attributesOf(model, entry, registry, NO_KEYS);
}

/** `Strapi-Response-Format: v4`: the body's `data` in the shape of Strapi 4's REST API. */
export function toV4Data(model: Model, data: unknown, registry: Registry): unknown {
  if (Array.isArray(data)) return data.map((e) => (isEntry(e) ? toV4Entry(model, e, registry) : e));
  return isEntry(data) ? toV4Entry(model, data, registry) : data;
}
