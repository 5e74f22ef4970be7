import type { LocaleService } from '../auth/locales.js';
import type { Database, Db, Row } from '../db/database.js';
import { validationError } from '../errors/app-error.js';
import type { DocumentQuery, Pagination } from '../query/ast.js';
import type { Registry } from '../schema/registry.js';
import type { ContentTypeModel, Model } from '../schema/types.js';
import { compileContext, writeEnv, type Access, type DocumentDeps, type FilePresenter } from './context.js';
import { findManyText, findOneText, sameText } from './read-text.js';
import { createReadPool } from './read-pool.js';
import { defineSqlFunctions } from './sql-functions.js';
import { createIndexAdvisor } from './index-advice.js';
import { actionLocale, deleteDocumentLocale, discardDraft, documentStatuses, publishDocument, unpublishDocument, type StatusMap } from './manage.js';
import { countRows } from '../compiler/list.js';
import { effectiveLocale, findMany, findOne, present } from './reader.js';
import { scalarColumns } from './scalars.js';
import { missingRelations, resolveBodyRefs, writeRelational, type WriteScope } from './store.js';
import { deleteChildren, deleteRows } from './delete-rows.js';
import { toV4Data } from './v4.js';
import { createDocument, deleteDocument, updateDocument } from './writer.js';
import { eventTransaction, type EntryEvent, type EventSink } from './events.js';

/**
 * The document service's front door: everything outside `documents/` reads and writes documents
 * through `createDocumentService(...)` (one object argument per method) and the few values and
 * lower-level helpers re-exported below. Batching, populating, transactions, draft & publish and
 * locales stay inside.
 */

/** What the document service is built from. */
export interface DocumentServiceDeps {
  /** The open database (SQLite or PostgreSQL). */
  readonly db: Database;
  /** The current registry: the content-type builder replaces it at run time, so it is read on every call. */
  readonly registry: () => Registry;
  readonly locales: LocaleService;
  readonly clock: () => Date;
  /** Finishes populated file objects (absolute or signed URLs). */
  readonly files: FilePresenter;
  /**
   * Tests: every read answered as SQLite-built JSON text is also answered by the JS path, and a
   * difference is an error (a 500 whose log shows both texts).
   */
  readonly verifyReads?: boolean;
  /** Where the advice for lists slower than SLOW_LIST_MS goes (an index that would answer them); none when absent. */
  readonly log?: (message: string) => void;
  /** Threads that run SQL-built reads beside the server's own (SQLite on a file; read-pool.ts). 0 or absent: none. */
  readonly readThreads?: number;
  /** Where webhook events are recorded, in each write's transaction (the webhooks outbox); absent: none. */
  readonly events?: EventSink;
}

/** A read of one page: the model, the parsed query and window, and what the caller may see. */
export interface FindManyArgs {
  readonly model: ContentTypeModel;
  readonly query: DocumentQuery;
  readonly pagination: Pagination;
  readonly access: Access;
}

/** A write of a body's `data` with the response-shaping query; `author` is the admin user behind it, if any. */
export interface WriteArgs {
  readonly model: ContentTypeModel;
  readonly data: unknown;
  readonly query: DocumentQuery;
  readonly access: Access;
  readonly author?: number | null;
}

/** One document (and locale) a content-manager action targets. */
export interface ActionArgs {
  readonly model: ContentTypeModel;
  readonly documentId: string;
  readonly locale: string | null;
}

/** Values of some attributes checked and resolved, ready to be written with a row another service inserts. */
export interface PreparedWrite {
  /** Stored values of the scalar attributes, for the row itself. */
  readonly columns: Record<string, unknown>;
  /** Writes the relations, media and components, inside the caller's transaction. */
  write(trx: Db, rowId: number): Promise<void>;
}

/** The document service: reads, writes and the content manager's actions, each with one object argument. */
export function createDocumentService(deps: DocumentServiceDeps) {
  const slowList = deps.log ? createIndexAdvisor(deps.log) : undefined;
  if (deps.db.defineFunction) defineSqlFunctions(deps.db.defineFunction);
  const { readers } = deps.db;
  const pool = readers && (deps.readThreads ?? 0) > 0 ? createReadPool({ ...readers, threads: deps.readThreads ?? 0, log: deps.log }) : null;
  const strict = deps.verifyReads === true;
  // Bound per call: a schema change between two calls is seen by the second.
  const bound = (): DocumentDeps => ({
    database: deps.db,
    registry: deps.registry(),
    locales: deps.locales,
    now: deps.clock,
    files: deps.files,
    slowList,
    reads: pool ? pool.db : undefined,
    events: deps.events,
    verifyReads: strict,
  });

  return {
    /** The current registry (what the service reads models from). */
    registry: (): Registry => deps.registry(),

    /** Tests (`verifyReads`): reads answered two ways are compared; other services check their own fast paths too (GraphQL's plain executor). */
    verifiesReads: (): boolean => strict,

    /** The code of the default locale. */
    defaultLocale: (): Promise<string> => deps.locales.defaultCode(),

    /** One page of documents and its pagination meta (`GET /api/:plural`). */
    findMany: ({ model, query, pagination, access }: FindManyArgs) => findMany(bound(), model, query, pagination, access),

    /** The matching version of one document (`documentId` null: a single type's), or null. */
    findOne: (args: { model: ContentTypeModel; documentId: string | null; query: DocumentQuery; access: Access }): Promise<Record<string, unknown> | null> =>
      findOne(bound(), args.model, args.documentId, args.query, args.access),

    /**
     * `findMany`'s answer `{ data, meta }` as JSON text built by SQLite, or undefined when this
     * read is not answered that way (then `findMany` answers it).
     */
    async findManyText({ model, query, pagination, access }: FindManyArgs): Promise<string | undefined> {
      const documents = bound();
      const text = await findManyText(documents, model, query, pagination, access, strict);
      if (strict && text !== undefined) sameText(text, JSON.stringify(await findMany(documents, model, query, pagination, access)));
      return text;
    },

    /** `findOne`'s answer `{ data, meta: {} }` as JSON text (null: no such document), or undefined when not answered that way. */
    async findOneText(args: { model: ContentTypeModel; documentId: string | null; query: DocumentQuery; access: Access }): Promise<string | null | undefined> {
      const documents = bound();
      const text = await findOneText(documents, args.model, args.documentId, args.query, args.access, strict);
      if (strict && text !== undefined) {
        const entry = await findOne(documents, args.model, args.documentId, args.query, args.access);
        sameText(text, entry === null ? null : JSON.stringify({ data: entry, meta: {} }));
      }
      return text;
    },

    /** How many documents match a query's scope and filters. */
    async count({ model, query }: { model: ContentTypeModel; query: DocumentQuery }): Promise<number> {
      const documents = bound();
      const locale = query.localeFromFilters ? null : await effectiveLocale(documents, model, query.locale);
      const scope = { status: query.status, locale, publicationFilter: query.publicationFilter, search: query.search, filters: query.filters };
      return countRows(documents.database.db, compileContext(documents), model, scope);
    },

    /** Stored rows as responses print them: serialised, then populated as the query asks. */
    present: ({ model, rows, query, access }: { model: ContentTypeModel; rows: Row[]; query: DocumentQuery; access: Access }) =>
      present(bound(), deps.db.db, model, rows, query, access),

    /** Creates a document (draft + published version unless `status=draft`) and answers it. */
    create: ({ model, data, query, access, author }: WriteArgs) => createDocument(bound(), model, { data, query, access, author }),

    /** Updates (or localizes) a document, publishing unless `status=draft`; null when there is none. */
    update: ({ model, documentId, data, query, access, author }: WriteArgs & { documentId: string | null }) =>
      updateDocument(bound(), model, documentId, { data, query, access, author }),

    /** Deletes every version of a document in the query's locale(s); `statusGiven`: the request named a status. */
    remove: (args: { model: ContentTypeModel; documentId: string | null; query: DocumentQuery; statusGiven: boolean }): Promise<void> =>
      deleteDocument(bound(), args.model, args.documentId, args.query, args.statusGiven),

    /** Publishes the draft of one locale (validated in full). */
    publish: ({ model, documentId, locale }: ActionArgs): Promise<void> => publishDocument(bound(), model, documentId, locale),

    /** Removes the published version of one locale; the draft stays. */
    unpublish: ({ model, documentId, locale }: ActionArgs): Promise<void> => unpublishDocument(bound(), model, documentId, locale),

    /** Resets the draft of one locale to its published version. */
    discardDraft: ({ model, documentId, locale }: ActionArgs): Promise<void> => discardDraft(bound(), model, documentId, locale),

    /** Deletes every version of a document in one locale (every locale when null); false when there was none. */
    removeLocale: ({ model, documentId, locale }: ActionArgs): Promise<boolean> => deleteDocumentLocale(bound(), model, documentId, locale),

    /** The locale an action targets: the given one (which must exist), else the default; null without i18n. */
    actionLocale: ({ model, locale }: { model: ContentTypeModel; locale: string | null }): Promise<string | null> => actionLocale(bound(), model, locale),

    /** Each document's status (draft, published, modified) per locale, in one query. */
    statuses: ({ model, documentIds }: { model: ContentTypeModel; documentIds: readonly string[] }): Promise<StatusMap> =>
      documentStatuses(deps.db.db, model, documentIds),

    /** Response data in Strapi's v4 shape (`attributes`), for `Strapi-Response-Format: v4`. */
    toV4: ({ model, data }: { model: Model; data: unknown }): unknown => toV4Data(model, data, deps.registry()),

    /**
     * Checks and resolves the values a body gives for some attributes of a row that another service
     * inserts (users' extension attributes): unknown related ids are 400s, documentIds are resolved.
     * Reads happen here, outside the caller's transaction (which holds SQLite's one connection).
     */
    async prepareWrite({ model, data, scope }: { model: Model; data: Record<string, unknown>; scope: WriteScope }): Promise<PreparedWrite> {
      const documents = bound();
      const columns = await scalarColumns(model, data);
      const defaultLocale = await deps.locales.defaultCode();
      const env = writeEnv(documents, deps.db.db, defaultLocale);
      const missing = await missingRelations(env, model, data);
      if (missing !== null) throw validationError(missing);
      const resolved = await resolveBodyRefs(env, model, data, scope);
      return { columns, write: (trx, rowId) => writeRelational(writeEnv(documents, trx, defaultLocale), model, rowId, data, scope, resolved) };
    },

    /** Deletes every version of every localized type in one locale, inside the caller's transaction (the locale's own removal). */
    async removeAllInLocale({ trx, locale, defaultLocale }: { trx: Db; locale: string; defaultLocale: string }): Promise<void> {
      const documents = bound();
      const env = writeEnv(documents, trx, defaultLocale);
      for (const model of documents.registry.contentTypes) {
        if (!model.localized) continue;
        const rows = await trx.selectFrom(model.table).select('id').where('locale', '=', locale).execute();
        await deleteRows(env, model, rows.map((r) => Number(r.id)));
      }
    },

    /** The read threads running now and the statements they have answered (none on PostgreSQL or with HEARTH_READ_THREADS=0). */
    readThreads: (): { readonly threads: number; readonly reads: number } => pool?.stats() ?? { threads: 0, reads: 0 },

    /** Ends the read threads (before the database closes). */
    close: async (): Promise<void> => {
      await pool?.close();
    },

    /**
     * Runs `fn` in one transaction whose entry events (`raise(event, model, rowId)`: the row as it
     * is when `fn` ends) are recorded in it, as the service's own writes record theirs: for
     * services that write a content type's rows themselves (users-permissions' users).
     */
    eventTransaction: <T>(fn: (trx: Db, raise: (event: EntryEvent, model: ContentTypeModel, rowId: number) => void) => Promise<T>): Promise<T> =>
      eventTransaction(bound(), (trx, events) => fn(trx, events.raise)),

    /** Deletes what hangs off rows another service deletes (components, media links), inside its transaction. */
    removeChildren: ({ trx, model, rowIds, defaultLocale }: { trx: Db; model: Model; rowIds: readonly number[]; defaultLocale: string }): Promise<void> =>
      deleteChildren(writeEnv(bound(), trx, defaultLocale), model, rowIds),
  };
}

/** The document service (see createDocumentService). */
export type DocumentService = ReturnType<typeof createDocumentService>;

export type { Access } from './context.js';
export type { EventSink } from './events.js';
export type { DocumentStatus, StatusMap } from './manage.js';
export type { WriteEnv, WriteScope } from './store.js';
export type { ReadScope } from '../compiler/scope.js';
/** Lower-level helpers for services that keep their own tables (media library, users, admin, archives). */
export { newDocumentId, applyMedia } from './store.js';
export { enableDraftAndPublish, disableDraftAndPublish } from './draft-toggle.js';
export { listRows, countRows } from '../compiler/list.js';
export { defaultFields, outputValue, serializeRow } from './serialize.js';
export { extensionDefaults, toStorage } from './scalars.js';
export { documentStatuses } from './manage.js';
export { checkInput } from './input-check.js';
export { validateEntity } from './validate.js';
export { installYupLocale, yup } from './yup-setup.js';
