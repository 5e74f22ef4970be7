import type { ApiClient } from '../../api/client';
import { dataOf, object, record, str } from '../../api/decode';
import type { QueryValue } from '../../api/query';
import { hasDraftAndPublish, isLocalized } from '../../api/schema';
import { entryDecoder, pageDecoder, type ContentType, type Entry, type Page } from '../../api/types';

/** What the list screen asks for. */
export interface ListQuery {
  readonly page: number;
  readonly pageSize: number;
  readonly sort: string;
  readonly q: string;
  readonly filters: Readonly<Record<string, QueryValue>> | null;
  readonly locale: string | null;
  /** Relation and media columns: what to populate (absent: the list stays flat). */
  readonly populate?: Readonly<Record<string, QueryValue>> | null;
}

const base = (uid: string) => `/admin/api/content-manager/${encodeURIComponent(uid)}/documents`;

/** A page of documents (drafts, with their status). */
export async function listDocuments(client: ApiClient, uid: string, query: ListQuery): Promise<Page<Entry>> {
  const answer = await client.get(base(uid), {
    page: query.page,
    pageSize: query.pageSize,
    sort: query.sort || undefined,
    _q: query.q || undefined,
    filters: query.filters ?? undefined,
    locale: query.locale ?? undefined,
    populate: query.populate ?? undefined,
  });
  return pageDecoder(entryDecoder)(answer);
}

/** One document's draft in a locale, populated one level. */
export async function getDocument(client: ApiClient, uid: string, documentId: string, locale: string | null): Promise<Entry> {
  return dataOf(entryDecoder)(await client.get(`${base(uid)}/${encodeURIComponent(documentId)}`, locale ? { locale } : {}));
}

/** Publish, unpublish or discard the draft of one locale. */
export async function documentAction(client: ApiClient, uid: string, documentId: string, action: 'publish' | 'unpublish' | 'discard', locale: string | null): Promise<Entry> {
  return dataOf(entryDecoder)(await client.post(`${base(uid)}/${encodeURIComponent(documentId)}/actions/${action}`, {}, locale ? { locale } : {}));
}

/** Deletes one locale of a document, or every locale when locale is null. */
export async function deleteDocument(client: ApiClient, uid: string, documentId: string, locale: string | null): Promise<void> {
  await client.del(`${base(uid)}/${encodeURIComponent(documentId)}`, locale ? { locale } : {});
}

const writeAnswer = dataOf(object({ documentId: str }));

/**
 * Saves a document through the content API, as any client would: a draft for Draft & Publish types.
 * Creates it when documentId is null; a PUT in a locale it lacks creates that locale version.
 */
export async function saveDocument(client: ApiClient, type: ContentType, args: { documentId: string | null; locale: string | null; data: Record<string, unknown> }): Promise<string> {
  const { schema } = type;
  const query: Record<string, QueryValue> = {};
  if (hasDraftAndPublish(schema)) query.status = 'draft';
  if (isLocalized(schema) && args.locale) query.locale = args.locale;
  const single = schema.kind === 'singleType';
  const path = single ? `/api/${schema.info.singularName ?? type.apiID}` : `/api/${schema.info.pluralName ?? type.apiID}`;
  const body = { data: args.data };
  if (single) return writeAnswer(await client.put(path, body, query)).documentId;
  if (args.documentId) return writeAnswer(await client.put(`${path}/${encodeURIComponent(args.documentId)}`, body, query)).documentId;
  return writeAnswer(await client.post(path, body, query)).documentId;
}

/** The value of a list cell, as short text. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value.length > 80 ? `${value.slice(0, 80)}…` : value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return `${value.length} items`;
  const r = record(value);
  return typeof r.name === 'string' ? r.name : typeof r.title === 'string' ? r.title : '…';
}
