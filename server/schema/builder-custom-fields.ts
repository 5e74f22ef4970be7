import { isDeepStrictEqual } from 'node:util';
import { resolveCustomField, type CustomFieldTable } from './custom-fields.js';
import type { Model } from './types.js';
import { isRecord as isJson } from '../errors/is-record.js';

/**
 * Custom fields seen through the content-type builder, as Strapi's builder sees them: its answers
 * give a custom field's base type in `type` (beside `customField` and `options`), and a save
 * writes `"type": "customField"` back to the file.
 */

type Json = Record<string, unknown>;

/** A model's schema document as the builder answers it: custom fields carry their base type, in place. */
export function schemaWithBaseTypes(model: Model): Readonly<Json> {
  const attributes = model.raw.attributes;
  if (!isJson(attributes)) return model.raw;
  let changed = false;
  const shown: Json = {};
  for (const [name, raw] of Object.entries(attributes)) {
    const attr = model.attributes.get(name);
    if (attr?.kind === 'scalar' && attr.customField !== undefined && isJson(raw)) {
      shown[name] = { ...raw, type: attr.type };
      changed = true;
    } else {
      shown[name] = raw;
    }
  }
  return changed ? { ...model.raw, attributes: shown } : model.raw;
}

/** An attribute as the file holds it: a custom field shown with its base type gets `"type": "customField"` back. */
function asWritten(attr: unknown, customFields: CustomFieldTable): unknown {
  if (!isJson(attr) || typeof attr.customField !== 'string' || attr.type === 'customField') return attr;
  // A type other than the field's base type is the caller's own attribute: written as sent.
  if (attr.type !== resolveCustomField(customFields, attr.customField).type) return attr;
  return { ...attr, type: 'customField' };
}

/**
 * Puts a saved schema's custom fields back in their file form; one the save did not change is
 * written exactly as it was read (same keys, same order), following renames.
 */
export function keepCustomFields(args: { before: Json | undefined; after: Json; renames: ReadonlyMap<string, string>; customFields: CustomFieldTable }): void {
  const { before, after, renames, customFields } = args;
  if (!isJson(after.attributes)) return;
  const old = isJson(before?.attributes) ? before.attributes : {};
  const formerName = new Map([...renames].map(([from, to]) => [to, from]));
  const attributes: Json = {};
  for (const [name, value] of Object.entries(after.attributes)) {
    const written = asWritten(value, customFields);
    const previous = old[formerName.get(name) ?? name];
    attributes[name] = isJson(written) && isJson(previous) && previous.type === 'customField' && isDeepStrictEqual(written, previous) ? previous : written;
  }
  after.attributes = attributes;
}
