import type { Db } from '../db/database.js';
import { validationError } from '../errors/app-error.js';
import { FILE_UID, type ContentTypeModel, type Model } from '../schema/types.js';
import { isRecord } from '../errors/is-record.js';

/** A reference to a related entry as a body may give it. */
export type RelationRef =
  | { readonly kind: 'id'; readonly id: number }
  | { readonly kind: 'document'; readonly documentId: string; readonly locale?: string; readonly status?: string };

export type Position =
  | { readonly kind: 'start' }
  | { readonly kind: 'end' }
  | { readonly kind: 'before'; readonly ref: RelationRef }
  | { readonly kind: 'after'; readonly ref: RelationRef };

/** What a body asks of one relation attribute. `set` replaces; `connect`/`disconnect` edit. */
export interface RelationInput {
  readonly set?: readonly RelationRef[];
  readonly connect?: readonly { readonly ref: RelationRef; readonly position?: Position }[];
  readonly disconnect?: readonly RelationRef[];
}

/**
 * Strapi treats anything parseInt can read as a row id (documentIds start with a letter). No object
 * reads as one, and String() would throw on a JSON object with its own `toString` key.
 */
const isNumeric = (v: unknown): boolean => (typeof v !== 'object' || v === null) && !Number.isNaN(parseInt(String(v), 10));

function ref(value: unknown): RelationRef | null {
  if (value === null || value === undefined) return null;
  if (isNumeric(value) && !isRecord(value)) return { kind: 'id', id: parseInt(String(value), 10) };
  if (typeof value === 'string') return { kind: 'document', documentId: value };
  if (isRecord(value)) {
    if (typeof value.documentId === 'string') {
      return {
        kind: 'document',
        documentId: value.documentId,
        ...(typeof value.locale === 'string' ? { locale: value.locale } : {}),
        ...(typeof value.status === 'string' ? { status: value.status } : {}),
      };
    }
    if (value.id !== undefined && isNumeric(value.id)) return { kind: 'id', id: parseInt(String(value.id), 10) };
  }
  return null;
}

const refs = (value: unknown): RelationRef[] =>
  (Array.isArray(value) ? value : [value]).map(ref).filter((r): r is RelationRef => r !== null);

function position(value: unknown): Position | undefined {
  if (!isRecord(value)) return undefined;
  if (value.start) return { kind: 'start' };
  if (value.end) return { kind: 'end' };
  const anchor = (v: unknown) => (isRecord(v) ? ref(v) : ref(v));
  if (value.before !== undefined) {
    const r = anchor(value.before);
    if (r) return { kind: 'before', ref: r };
  }
  if (value.after !== undefined) {
    const r = anchor(value.after);
    if (r) return { kind: 'after', ref: r };
  }
  return undefined;
}

/** Reads a relation value of a body; undefined means "leave the relation as it is". */
export function parseRelationInput(value: unknown): RelationInput | undefined {
  if (value === undefined) return undefined;
  if (value === null) return { set: [] };
  if (Array.isArray(value) || !isRecord(value)) return { set: refs(value) };
  if ('id' in value || 'documentId' in value) return { set: refs(value) };
  if (!('set' in value) && !('connect' in value) && !('disconnect' in value)) return undefined;
  const input: { set?: RelationRef[]; connect?: { ref: RelationRef; position?: Position }[]; disconnect?: RelationRef[] } = {};
  if (value.set !== undefined && value.set !== null) input.set = refs(value.set);
  if (value.disconnect !== undefined && value.disconnect !== null) input.disconnect = refs(value.disconnect);
  if (value.connect !== undefined && value.connect !== null) {
    input.connect = (Array.isArray(value.connect) ? value.connect : [value.connect]).flatMap((item) => {
      const r = ref(item);
      if (!r) return [];
      const p = isRecord(item) ? position(item.position) : undefined;
      return [p ? { ref: r, position: p } : { ref: r }];
    });
  }
  return input;
}

/** Which publication states of the target a link from this source reaches (Strapi's rules). */
export function targetStatuses(source: Model, target: Model, sourceStatus: 'draft' | 'published', requested?: string): ('draft' | 'published')[] {
  const targetDP = target.modelType === 'contentType' && target.draftAndPublish;
  const sourceDP = source.modelType === 'contentType' && source.draftAndPublish;
  if (!targetDP) return ['published'];
  if (sourceDP) return [sourceStatus];
  if (requested !== undefined) return [requested === 'published' ? 'published' : 'draft'];
  return ['draft', 'published'];
}

/** The locale a link from this source reaches: the source's own when both are localized. */
export function targetLocale(source: Model, target: Model, sourceLocale: string | null, requested: string | undefined, defaultLocale: string): string | null {
  const sourceLocalized = source.modelType === 'contentType' && source.localized;
  const targetLocalized = target.modelType === 'contentType' && target.localized;
  const wanted = requested || sourceLocale || defaultLocale;
  if (sourceLocalized && targetLocalized && wanted !== sourceLocale) return sourceLocale;
  return targetLocalized ? wanted : null;
}

/** A value key for a reference (inputs are parsed more than once; identity would not match). */
export const refKey = (r: RelationRef): string =>
  r.kind === 'id' ? `id:${r.id}` : `doc:${r.documentId}:${r.locale ?? ''}:${r.status ?? ''}`;

/** Resolves references to row ids; a documentId with no matching row is Strapi's 400. */
export async function resolveRefs(
  db: Db,
  args: {
    source: Model;
    target: ContentTypeModel;
    sourceStatus: 'draft' | 'published';
    sourceLocale: string | null;
    defaultLocale: string;
    refs: readonly RelationRef[];
    allowMissing?: boolean;
  },
): Promise<Map<string, number[]>> {
  const out = new Map<string, number[]>();
  for (const r of args.refs) {
    if (r.kind === 'id') {
      out.set(refKey(r), [r.id]);
      continue;
    }
    const locale = args.target.uid === FILE_UID ? null : targetLocale(args.source, args.target, args.sourceLocale, r.locale, args.defaultLocale);
    const statuses = targetStatuses(args.source, args.target, args.sourceStatus, r.status);
    let q = args.target.uid === FILE_UID
      ? db.selectFrom(args.target.table).select(['id', 'publishedAt']).where('documentId', '=', r.documentId)
      : db
          .selectFrom(args.target.table)
          .select(['id', 'publishedAt'])
          .where('documentId', '=', r.documentId)
          .where('locale', locale === null ? 'is' : '=', locale);
    if (args.target.uid !== FILE_UID && !(statuses.includes('draft') && statuses.includes('published'))) {
      q = q.where('publishedAt', statuses[0] === 'draft' ? 'is' : 'is not', null);
    }
    const rows = await q.orderBy('id').execute();
    const ids = rows.map((row) => Number(row.id));
    if (ids.length === 0 && !args.allowMissing) {
      throw validationError(`Document with id "${r.documentId}", locale "${locale === null ? 'null' : locale}" not found`);
    }
    out.set(refKey(r), ids);
  }
  return out;
}

/** Every reference a relation input mentions (for resolving them in one pass). */
export function refsOf(input: RelationInput): RelationRef[] {
  const list: RelationRef[] = [...(input.set ?? []), ...(input.disconnect ?? [])];
  for (const c of input.connect ?? []) {
    list.push(c.ref);
    if (c.position && (c.position.kind === 'before' || c.position.kind === 'after')) list.push(c.position.ref);
  }
  return list;
}
