import { isRecord } from '../../api/decode';
import type { Attribute, Schema } from '../../api/schema';
import { normalizeBlocks } from './blocks/blocks-value';
import type { ComponentLookup, FormValues, MediaRef, RelationItem, Row } from './form-values';

/** A value the form cannot turn into API input: reported at the field like a server ValidationError. */
export class FormProblem extends Error {
  constructor(
    readonly path: readonly string[],
    message: string,
  ) {
    super(message);
  }
}

const isArray = (v: unknown): v is readonly unknown[] => Array.isArray(v);
const emptyToNull = (v: unknown) => (v === '' || v === undefined ? null : v);

function numberOf(v: unknown, path: readonly string[], integer: boolean): number | null {
  if (v === '' || v === null || v === undefined) return null;
  const n = Number(v);
  if (!Number.isFinite(n)) throw new FormProblem(path, 'Enter a number.');
  if (integer && !Number.isInteger(n)) throw new FormProblem(path, 'Enter a whole number.');
  return n;
}

function rowsOf(value: unknown): Row[] {
  return isArray(value) ? value.filter((r): r is Row => isRecord(r) && typeof r.key === 'string' && isRecord(r.values)) : [];
}

function fieldToApi(attribute: Attribute, value: unknown, path: readonly string[], lookup: ComponentLookup): unknown {
  switch (attribute.type) {
    case 'relation': {
      const items = isArray(value) ? value.filter((v): v is RelationItem => isRecord(v) && typeof v.documentId === 'string') : [];
      return { set: items.map((i) => i.documentId) };
    }
    case 'media': {
      const ids = isArray(value) ? value.filter((v): v is MediaRef => isRecord(v) && typeof v.id === 'number').map((m) => m.id) : [];
      return attribute.multiple ? ids : (ids[0] ?? null);
    }
    case 'component': {
      const schema = lookup(attribute.component ?? '');
      if (attribute.repeatable) return rowsOf(value).map((r, i) => toApiValues(schema, r.values, [...path, String(i)], lookup));
      return isRecord(value) ? toApiValues(schema, value, path, lookup) : null;
    }
    case 'dynamiczone':
      return rowsOf(value).map((r, i) => ({ __component: r.component, ...toApiValues(lookup(r.component ?? ''), r.values, [...path, String(i)], lookup) }));
    case 'json': {
      if (typeof value !== 'string' || value.trim() === '') return null;
      try {
        return JSON.parse(value);
      } catch {
        throw new FormProblem(path, 'This is not valid JSON.');
      }
    }
    case 'integer':
      return numberOf(value, path, true);
    case 'float':
    case 'decimal':
      return numberOf(value, path, false);
    case 'biginteger':
      return value === '' || value === null || value === undefined ? null : String(value);
    case 'boolean':
      return typeof value === 'boolean' ? value : null;
    case 'datetime':
    case 'timestamp': {
      if (typeof value !== 'string' || value === '') return null;
      const d = new Date(value);
      if (Number.isNaN(d.getTime())) throw new FormProblem(path, 'Enter a date and time.');
      return d.toISOString();
    }
    case 'time':
      return typeof value === 'string' && value !== '' ? (value.length === 5 ? `${value}:00.000` : value) : null;
    case 'blocks':
      return isArray(value) ? normalizeBlocks(value) : null;
    default:
      return emptyToNull(value);
  }
}

/** API input (`data`) from form values: relations as `{ set }`, media as ids, components keep their `id`. */
export function toApiValues(schema: Schema | undefined, values: FormValues, path: readonly string[], lookup: ComponentLookup): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (typeof values.id === 'number') out.id = values.id;
  for (const [name, attribute] of Object.entries(schema?.attributes ?? {})) {
    const value = values[name];
    // Not loaded (nested relations and media below one level): leave the stored value alone.
    if (value === undefined) continue;
    if (attribute.type === 'password' && value === '') continue;
    out[name] = fieldToApi(attribute, value, [...path, name], lookup);
  }
  return out;
}
