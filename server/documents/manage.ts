import type { Db, Row } from '../db/database.js';
import { applicationError, notFound, validationError } from '../errors/app-error.js';
import type { ContentTypeModel } from '../schema/types.js';
import { writeEnv, type DocumentDeps } from './context.js';
import { copyVersion } from './publish.js';
import { eventTransaction } from './events.js';
import type { WriteEnv } from './store.js';
import { deleteRows } from './delete-rows.js';
import { publishVersion } from './writer.js';

/**
 * The content manager's actions the content API lacks: each document's status across locales,
 * publish, unpublish, discard draft and delete one locale. Every write is one transaction.
 */

/** `draft`: never published; `published`: the draft equals the published version; `modified`: a newer draft. */
export type DocumentStatus = 'draft' | 'published' | 'modified';

/** Status per document and locale (`''` stands for "no locale" on types without i18n). */
export type StatusMap = Map<string, Map<string, DocumentStatus>>;

const localeKey = (locale: unknown): string => (typeof locale === 'string' ? locale : '');

/** The status of every version of the given documents, in one query. */
export async function documentStatuses(db: Db, model: ContentTypeModel, documentIds: readonly string[]): Promise<StatusMap> {
  const out: StatusMap = new Map();
  if (documentIds.length === 0) return out;
  const rows = await db
    .selectFrom(model.table)
    .select(['documentId', 'locale', 'publishedAt', 'updatedAt'])
    .where('documentId', 'in', [...new Set(documentIds)])
    .orderBy('id')
    .execute();
  const versions = new Map<string, { draft?: Row; published?: Row }>();
  for (const row of rows) {
    const key = `${String(row.documentId)}\u0000${localeKey(row.locale)}`;
    const entry = versions.get(key) ?? {};
    if (row.publishedAt === null) entry.draft = row;
    else entry.published = row;
    versions.set(key, entry);
  }
  for (const [key, { draft, published }] of versions) {
    const [documentId = '', locale = ''] = key.split('\u0000');
    let status: DocumentStatus = 'published';
    if (model.draftAndPublish) {
      if (!published) status = 'draft';
      else if (draft && String(draft.updatedAt) > String(published.updatedAt)) status = 'modified';
    }
    const byLocale = out.get(documentId) ?? new Map<string, DocumentStatus>();
    byLocale.set(locale, status);
    out.set(documentId, byLocale);
  }
  return out;
}

/** The locale an action targets: the given one (which must exist), else the default; null for types without i18n. */
export async function actionLocale(deps: DocumentDeps, model: ContentTypeModel, given: string | null): Promise<string | null> {
  if (!model.localized) return null;
  if (given === null) return deps.locales.defaultCode();
  if (!(await deps.locales.exists(given))) throw validationError(`Locale "${given}" does not exist`, { locale: given });
  return given;
}

async function version(env: WriteEnv, model: ContentTypeModel, documentId: string, locale: string | null, published: boolean): Promise<Row | undefined> {
  return env.db
    .selectFrom(model.table)
    .selectAll()
    .where('documentId', '=', documentId)
    .where('locale', locale === null ? 'is' : '=', locale)
    .where('publishedAt', published ? 'is not' : 'is', null)
    .orderBy('id')
    .executeTakeFirst();
}

function inTransaction<T>(deps: DocumentDeps, fn: (env: WriteEnv) => Promise<T>): Promise<T> {
  return deps.locales.defaultCode().then((defaultLocale) => eventTransaction(deps, (trx, events) => fn({ ...writeEnv(deps, trx, defaultLocale), events })));
}

function needsDraftAndPublish(model: ContentTypeModel): void {
  if (!model.draftAndPublish) throw applicationError(`${model.uid} does not use draft & publish`);
}

/**
 * Publishes the draft of one locale (validated in full, as the content API's publish). As Strapi's
 * content-manager publish (which saves the draft, then publishes it) it raises `entry.update` of
 * the draft, then `entry.publish`.
 */
export async function publishDocument(deps: DocumentDeps, model: ContentTypeModel, documentId: string, locale: string | null): Promise<void> {
  needsDraftAndPublish(model);
  await inTransaction(deps, async (env) => {
    const draft = await version(env, model, documentId, locale, false);
    if (draft) env.events?.raise('entry.update', model, Number(draft.id));
    return publishVersion(env, model, documentId, locale);
  });
}

/** Removes the published version of one locale; the draft stays. A document never published is left as it is. */
export async function unpublishDocument(deps: DocumentDeps, model: ContentTypeModel, documentId: string, locale: string | null): Promise<void> {
  needsDraftAndPublish(model);
  await inTransaction(deps, async (env) => {
    const draft = await version(env, model, documentId, locale, false);
    const published = await version(env, model, documentId, locale, true);
    if (!draft && !published) throw notFound();
    if (!published) return;
    // Strapi's content-manager unpublish sends the published version populated (its bulk unpublish: scalars).
    await env.events?.removing('entry.unpublish', model, published);
    await deleteRows(env, model, [Number(published.id)]);
  });
}

/** Resets the draft of one locale to its published version (components, media and relations included). */
export async function discardDraft(deps: DocumentDeps, model: ContentTypeModel, documentId: string, locale: string | null): Promise<void> {
  needsDraftAndPublish(model);
  await inTransaction(deps, async (env) => {
    const draft = await version(env, model, documentId, locale, false);
    const published = await version(env, model, documentId, locale, true);
    if (!draft && !published) throw notFound();
    if (!published) throw applicationError('This document was never published: there is no published version to go back to');
    const id = await copyVersion(env, model, { fromId: Number(published.id), replaceId: draft ? Number(draft.id) : null, status: 'draft', publishedAt: null });
    env.events?.raise('entry.draft-discard', model, id);
  });
}

/** Deletes every version of a document in one locale (or in every locale when `locale` is null); false when there was none. */
export async function deleteDocumentLocale(deps: DocumentDeps, model: ContentTypeModel, documentId: string, locale: string | null): Promise<boolean> {
  return inTransaction(deps, async (env) => {
    let q = env.db.selectFrom(model.table).selectAll().where('documentId', '=', documentId);
    if (locale !== null) q = q.where('locale', '=', locale);
    const rows = await q.orderBy('id').execute();
    env.events?.removed('entry.delete', model, rows);
    await deleteRows(env, model, rows.map((r) => Number(r.id)));
    return rows.length > 0;
  });
}
