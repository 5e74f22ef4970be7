import { isRecord } from '../../api/decode';
import type { Attribute, Schema } from '../../api/schema';
import type { DocStatus } from '../../api/types';

/** The values of a form (a document, or one component inside it), keyed by attribute name. */
export type FormValues = Readonly<Record<string, unknown>>;

/** A related document as a relation field shows it. */
export interface RelationItem {
  readonly documentId: string;
  readonly label: string;
  /** Draft, published or modified, as the admin content API says (absent when it does not). */
  readonly status?: DocStatus;
}

/** One entry of a repeatable component or a dynamic zone, with a stable key for React and reordering. */
export interface Row {
  readonly key: string;
  /** Dynamic zones only: the component's uid. */
  readonly component?: string;
  readonly values: FormValues;
}

/** A media file as a media field holds it. */
export interface MediaRef {
  readonly id: number;
  readonly name: string;
  readonly url: string;
  readonly mime: string;
  readonly thumbnail: string | null;
}

/** Looks a component's schema up by uid. */
export type ComponentLookup = (uid: string) => Schema | undefined;

let keyCounter = 0;
/** A fresh key for a new row. */
export const newKey = (): string => `row-${++keyCounter}`;

/** The label shown for an entry of a type: its first text-like attribute, else its documentId. */
export function mainField(schema: Schema | undefined): string | null {
  if (!schema) return null;
  const preferred = ['title', 'name', 'label', 'displayName', 'heading'];
  for (const name of preferred) if (schema.attributes[name]?.type === 'string') return name;
  const first = Object.entries(schema.attributes).find(([, a]) => a.type === 'string' || a.type === 'uid' || a.type === 'email');
  return first ? first[0] : null;
}

/** A relation item from an entry value (populated object). */
export function relationItem(value: unknown, labelField: string | null): RelationItem | null {
  if (!isRecord(value) || typeof value.documentId !== 'string') return null;
  const label = labelField && typeof value[labelField] === 'string' && value[labelField] !== '' ? String(value[labelField]) : value.documentId;
  const status = value.status === 'draft' || value.status === 'published' || value.status === 'modified' ? value.status : undefined;
  return status === undefined ? { documentId: value.documentId, label } : { documentId: value.documentId, label, status };
}

/** A media reference from a populated file object. */
export function mediaRef(value: unknown): MediaRef | null {
  if (!isRecord(value) || typeof value.id !== 'number' || typeof value.url !== 'string') return null;
  const formats = isRecord(value.formats) ? value.formats : {};
  const thumb = isRecord(formats.thumbnail) && typeof formats.thumbnail.url === 'string' ? formats.thumbnail.url : null;
  const mime = typeof value.mime === 'string' ? value.mime : '';
  return { id: value.id, name: typeof value.name === 'string' ? value.name : `#${value.id}`, url: value.url, mime, thumbnail: thumb ?? (mime.startsWith('image/') ? value.url : null) };
}

const pad = (n: number) => String(n).padStart(2, '0');
/** An ISO datetime as the value of a datetime-local input (local time). */
export function toLocalInput(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

function fieldToForm(attribute: Attribute, value: unknown, lookup: ComponentLookup, targetLabel: (uid: string) => string | null): unknown {
  switch (attribute.type) {
    case 'relation': {
      if (value === undefined) return undefined;
      const label = targetLabel(attribute.target ?? '');
      const list = Array.isArray(value) ? value : value === null ? [] : [value];
      return list.map((v) => relationItem(v, label)).filter((v): v is RelationItem => v !== null);
    }
    case 'media': {
      if (value === undefined) return undefined;
      const list = Array.isArray(value) ? value : value === null ? [] : [value];
      return list.map(mediaRef).filter((v): v is MediaRef => v !== null);
    }
    case 'component': {
      const schema = lookup(attribute.component ?? '');
      if (attribute.repeatable) {
        return (Array.isArray(value) ? value : []).map((v) => ({ key: newKey(), values: toFormValues(schema, v, lookup, targetLabel, true) }));
      }
      return isRecord(value) ? toFormValues(schema, value, lookup, targetLabel, true) : null;
    }
    case 'dynamiczone':
      return (Array.isArray(value) ? value : []).flatMap((v) => {
        if (!isRecord(v) || typeof v.__component !== 'string') return [];
        return [{ key: newKey(), component: v.__component, values: toFormValues(lookup(v.__component), v, lookup, targetLabel, true) }];
      });
    case 'json':
      return value === undefined || value === null ? '' : JSON.stringify(value, null, 2);
    case 'password':
      return '';
    case 'boolean':
      return typeof value === 'boolean' ? value : null;
    case 'datetime':
    case 'timestamp':
      return typeof value === 'string' ? toLocalInput(value) : '';
    case 'time':
      return typeof value === 'string' ? value.slice(0, 5) : '';
    case 'blocks':
      return Array.isArray(value) ? value : null;
    default:
      return value === undefined || value === null ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value);
  }
}

/** Form values from an entry (or component) as the API returns it; components keep their `id` so they update in place. */
export function toFormValues(schema: Schema | undefined, value: unknown, lookup: ComponentLookup, targetLabel: (uid: string) => string | null, keepId = false): FormValues {
  const source = isRecord(value) ? value : {};
  const out: Record<string, unknown> = {};
  if (keepId && typeof source.id === 'number') out.id = source.id;
  for (const [name, attribute] of Object.entries(schema?.attributes ?? {})) {
    const converted = fieldToForm(attribute, source[name], lookup, targetLabel);
    if (converted !== undefined) out[name] = converted;
  }
  return out;
}

/** Empty values for a new document or component, with the schema's defaults. */
export function emptyValues(schema: Schema | undefined): FormValues {
  const out: Record<string, unknown> = {};
  for (const [name, a] of Object.entries(schema?.attributes ?? {})) {
    if (a.type === 'relation' || a.type === 'media' || a.type === 'dynamiczone') out[name] = [];
    else if (a.type === 'component') out[name] = a.repeatable ? [] : null;
    else if (a.type === 'boolean') out[name] = typeof a.default === 'boolean' ? a.default : null;
    else if (a.type === 'blocks') out[name] = null;
    else out[name] = a.default === undefined || a.default === null ? '' : typeof a.default === 'object' ? JSON.stringify(a.default) : String(a.default);
  }
  return out;
}
