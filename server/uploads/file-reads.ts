import type { CompileContext } from '../compiler/context.js';
import type { Database, Row } from '../db/database.js';
import { countRows, defaultFields, listRows, serializeRow, type ReadScope } from '../documents/index.js';
import type { Pagination } from '../query/ast.js';
import type { Registry } from '../schema/registry.js';
import { fileModel } from '../schema/file-model.js';
import type { FileUrls } from './file-access.js';
import type { FileQuery } from './file-query.js';
import { populateRelated, type FileItem } from './related.js';
import type { StorageProvider } from './storage-provider.js';

/** What reading files needs. */
export interface FileReadDeps {
  readonly database: Database;
  readonly registry: () => Registry;
  readonly provider: StorageProvider;
  readonly urls: FileUrls;
}

/** Who reads: entries linked through `related` are shown only for types the caller may `find`. */
export type CanRead = (uid: string) => boolean;

/**
 * Reads of the media library for the upload endpoints. File objects are printed in Strapi's
 * column order (with the attributes a project's extension adds), then `related` when populated,
 * then `isUrlSigned` (which only the upload endpoints print, never media populated into entries).
 */
export function createFileReads(deps: FileReadDeps) {
  const { database, provider, urls } = deps;
  const db = database.db;
  const context = (): CompileContext => ({ kind: database.kind, registry: deps.registry(), aliases: 0 });

  async function shape(rows: readonly Row[], fields: readonly string[], related: FileQuery['related'], canRead: CanRead) {
    const model = fileModel(deps.registry());
    const items: FileItem[] = rows.map((row) => ({ id: Number(row.id), out: serializeRow(model, row, fields) }));
    if (related) await populateRelated({ db, registry: deps.registry(), canRead, items, mode: related });
    await urls.present(items.map((i) => i.out));
    return items.map((item, i) => {
      item.out.isUrlSigned = provider.signsUrls && rows[i]?.provider === provider.name;
      return item.out;
    });
  }

  /** A window of files matching a query, and their total when the window counts. */
  async function list(query: FileQuery, pagination: Pagination, canRead: CanRead): Promise<{ items: Record<string, unknown>[]; total?: number }> {
    const scope: ReadScope = { status: 'published', locale: null, publicationFilter: null, search: null, filters: query.filters };
    const columns = [...new Set([...query.fields, 'provider'])];
    const model = fileModel(deps.registry());
    const rows = await listRows(db, context(), model, { scope, fields: columns, sort: query.sort, pagination });
    const total = pagination.withCount ? await countRows(db, context(), model, scope) : undefined;
    const items = await shape(rows, query.fields, query.related, canRead);
    return total === undefined ? { items } : { items, total };
  }

  /** One file with every field (Strapi's findOne ignores `fields`), or null. */
  async function one(id: number, related: FileQuery['related'], canRead: CanRead): Promise<Record<string, unknown> | null> {
    if (!Number.isSafeInteger(id)) return null;
    const model = fileModel(deps.registry());
    const row = await db.selectFrom(model.table).selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) return null;
    const [item] = await shape([row], defaultFields(model), related, canRead);
    return item ?? null;
  }

  /** The entries and components linking each of some files (`populate=related`), for all of them at once: one read per level and type. */
  async function related(ids: readonly number[], canRead: CanRead): Promise<Map<number, Record<string, unknown>[]>> {
    const items: FileItem[] = [...new Set(ids)].map((id) => ({ id, out: {} }));
    await populateRelated({ db, registry: deps.registry(), canRead, items, mode: 'entries' });
    return new Map(items.map((i) => [i.id, Array.isArray(i.out.related) ? (i.out.related as Record<string, unknown>[]) : []]));
  }

  return { list, one, related };
}

/** Reads of the media library. */
export type FileReads = ReturnType<typeof createFileReads>;
