import type { Access, DocumentService } from '../documents/index.js';
import type { DocumentQuery, Pagination } from '../query/ast.js';
import type { ContentTypeModel } from '../schema/types.js';

/**
 * The root queries' reads, through the path REST's reads take: the document service's SQL-built
 * answer (SQLite prints the entries' JSON on a read thread, `findManyText`), parsed back into the
 * entries the resolvers walk; a read that path does not print (PostgreSQL, relation windows,
 * morphs ...) through `findMany`. Both give the same entries (tests check every SQL-built answer
 * against the JS path's, byte for byte), so what a query answers does not depend on the path.
 */

type Entry = Record<string, unknown>;

interface PageAnswer {
  readonly data: Entry[];
  readonly meta: { readonly pagination: { readonly total?: number } };
}

/** One page of entries; `total` (when `pagination.withCount`) counted by the same read. */
export async function readPage(
  documents: DocumentService,
  args: { model: ContentTypeModel; query: DocumentQuery; pagination: Pagination; access: Access },
): Promise<{ data: Entry[]; total: number }> {
  const text = await documents.findManyText(args);
  const answer = text === undefined ? await documents.findMany(args) : (JSON.parse(text) as PageAnswer);
  return { data: answer.data, total: answer.meta.pagination.total ?? 0 };
}

/** One document (`documentId` null: a single type's), or null. */
export async function readOne(
  documents: DocumentService,
  args: { model: ContentTypeModel; documentId: string | null; query: DocumentQuery; access: Access },
): Promise<Entry | null> {
  const text = await documents.findOneText(args);
  if (text === undefined) return documents.findOne(args);
  return text === null ? null : (JSON.parse(text) as { data: Entry }).data;
}
