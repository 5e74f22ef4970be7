import express, { type Request } from 'express';
import { entryAuthors, withRelationStatuses } from '../admin/entry-details.js';
import type { StatusMap } from '../documents/index.js';
import { notFound } from '../errors/app-error.js';
import { ADMIN_DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../limits.js';
import { readListQuery, readOneQuery, type QueryEnv } from '../query/read-query.js';
import type { ContentTypeModel } from '../schema/types.js';
import type { Services } from '../services.js';
import { fieldError } from './admin-input.js';
import { listViewRoutes } from './admin-list-view.js';
import { parseQueryString, rawQuery } from './query-string.js';
import { sendJson } from './respond.js';

type Raw = Record<string, unknown>;
const ADMIN_ACCESS = { canRead: () => true };
/** The content manager's routes, one type's documents. */
const DOCUMENTS = '/content-manager/:uid/documents';

/** The one locale code of `?locale=`, or null. */
function localeParam(raw: Raw): string | null {
  const locale = raw.locale;
  if (locale === undefined || locale === null || locale === '') return null;
  if (typeof locale !== 'string') throw fieldError(['locale'], 'locale must be one locale code');
  return locale;
}

/** Adds `status` and (for localized types) `localizations` to entries read as drafts. */
function withStatus(model: ContentTypeModel, entries: Record<string, unknown>[], statuses: StatusMap): Record<string, unknown>[] {
  return entries.map((entry) => {
    const byLocale = statuses.get(String(entry.documentId)) ?? new Map();
    const locale = typeof entry.locale === 'string' ? entry.locale : '';
    const out: Record<string, unknown> = { ...entry, status: byLocale.get(locale) ?? 'draft' };
    if (model.localized) out.localizations = [...byLocale].map(([code, status]) => ({ locale: code, status }));
    return out;
  });
}

/**
 * The content manager under `/content-manager/:uid/documents`: lists and reads of drafts with each
 * document's status, and the publish, unpublish, discard-draft and delete-locale actions.
 * Creating and updating documents go through the content API with the session.
 */
export function contentManagerRoutes(services: Services): express.Router {
  const router = express.Router();
  const { documents } = services;
  const query = (req: Request): Raw => parseQueryString(rawQuery(req.originalUrl));
  const modelOf = (req: Request): ContentTypeModel => {
    const model = services.registry().contentType(String(req.params.uid ?? ''));
    if (!model || model.builtIn) throw notFound('Content type not found');
    return model;
  };
  const env = (): QueryEnv => ({
    registry: services.registry(),
    limits: { defaultLimit: ADMIN_DEFAULT_PAGE_SIZE, maxLimit: services.config.maxLimit ?? MAX_PAGE_SIZE },
    canRead: () => true,
  });

  /** The draft entry of one document and locale, with its status: what every action answers. */
  async function entryOf(model: ContentTypeModel, documentId: string, locale: string | null): Promise<Record<string, unknown>> {
    const raw: Raw = { status: 'draft', populate: '*', ...(locale !== null ? { locale } : {}) };
    const entry = await documents.findOne({ model, documentId, query: readOneQuery(raw, model, env()), access: ADMIN_ACCESS });
    if (!entry) throw notFound();
    const statuses = await documents.statuses({ model, documentIds: [documentId] });
    const [out] = withStatus(model, [entry], statuses);
    if (!out) throw notFound();
    // Only the admin API names who created and changed an entry (Strapi's REST never does).
    const db = services.database.db;
    const authors = await entryAuthors(db, model, Number(entry.id));
    return { ...(await withRelationStatuses(db, documents.registry(), model, out)), ...authors };
  }

  router.get(DOCUMENTS, async (req, res) => {
    const model = modelOf(req);
    const raw = query(req);
    const listRaw: Raw = { status: 'draft', pagination: { page: raw.page ?? '1', pageSize: raw.pageSize ?? String(ADMIN_DEFAULT_PAGE_SIZE) } };
    // populate: the list's relation and media columns (the target's main field, a thumbnail).
    for (const key of ['sort', '_q', 'filters', 'locale', 'populate']) if (raw[key] !== undefined) listRaw[key] = raw[key];
    const { query: documentQuery, pagination } = readListQuery(listRaw, model, env());
    const result = await documents.findMany({ model, query: documentQuery, pagination, access: ADMIN_ACCESS });
    const statuses = await documents.statuses({ model, documentIds: result.data.map((e) => String(e.documentId)) });
    sendJson(res, 200, { data: withStatus(model, result.data, statuses), meta: result.meta });
  });

  router.get(`${DOCUMENTS}/:documentId`, async (req, res) => {
    const model = modelOf(req);
    const locale = localeParam(query(req));
    sendJson(res, 200, { data: await entryOf(model, String(req.params.documentId), locale) });
  });

  const actions = { publish: documents.publish, unpublish: documents.unpublish, discard: documents.discardDraft } as const;
  router.post(`${DOCUMENTS}/:documentId/actions/:action`, async (req, res) => {
    const model = modelOf(req);
    const name = String(req.params.action);
    const action = name === 'publish' || name === 'unpublish' || name === 'discard' ? actions[name] : undefined;
    if (action === undefined) throw notFound();
    const locale = await documents.actionLocale({ model, locale: localeParam(query(req)) });
    const documentId = String(req.params.documentId);
    await action({ model, documentId, locale });
    sendJson(res, 200, { data: await entryOf(model, documentId, locale) });
  });

  router.delete(`${DOCUMENTS}/:documentId`, async (req, res) => {
    const model = modelOf(req);
    const given = localeParam(query(req));
    const locale = model.localized && given !== null ? await documents.actionLocale({ model, locale: given }) : null;
    const documentId = String(req.params.documentId);
    if (!(await documents.removeLocale({ model, documentId, locale }))) throw notFound();
    sendJson(res, 200, { data: { documentId, locale } });
  });
  router.use(listViewRoutes(services));
  return router;
}
