import type { Row } from '../db/database.js';
import { FILES_RELATED_TABLE } from '../db/system-tables.js';
import { AppError, notFound, validationError } from '../errors/app-error.js';
import type { DocumentQuery } from '../query/ast.js';
import type { ContentTypeModel, Model } from '../schema/types.js';
import { cloneChildren } from './clone.js';
import { writeEnv, type Access, type DocumentDeps } from './context.js';
import { copyVersionRow } from './publish.js';
import { eventTransaction } from './events.js';
import { present } from './reader.js';
import { scalarColumns } from './scalars.js';
import { syncComponentsInPlace } from './sync-components.js';
import { deleteChildren, deleteRows } from './delete-rows.js';
import { insertRow, newDocumentId, resolveBodyRefs, writeRelational, type WriteEnv } from './store.js';
import { validateEntity } from './validate.js';
import { validationOptions } from './write-validation.js';
import { treeValues, valuesOf } from './values-of.js';
import { rowValues, runWrite, writeRows } from './write-shapes.js';
import { isRecord } from '../errors/is-record.js';

/** A write of the content API: the body's `data`, the query (status, locale, response fields/populate), the caller. */
export interface WriteRequest {
  readonly data: unknown;
  readonly query: DocumentQuery;
  readonly access: Access;
  /** The admin user behind the write (an admin session), stored as createdBy/updatedBy; null otherwise. */
  readonly author?: number | null;
}


/** The single locale a write targets; unknown locales are refused (Strapi accepts any: strapi#27108). */
async function writeLocale(deps: DocumentDeps, model: ContentTypeModel, query: DocumentQuery): Promise<string | null> {
  if (!model.localized) return null;
  const locale = query.locale;
  if (locale === null) return deps.locales.defaultCode();
  if (locale.kind !== 'one') throw validationError("Invalid parameter at 'locale'. A write targets one locale, not several.");
  if (!(await deps.locales.exists(locale.code))) {
    throw validationError(`Locale "${locale.code}" does not exist`, { locale: locale.code });
  }
  return locale.code;
}

const withSystem = (model: ContentTypeModel, data: unknown, publishedAt: string | null, locale: string | null): unknown =>
  isRecord(data) ? { ...data, publishedAt, ...(model.localized ? { locale } : {}) } : data;

/** Creates one row (a draft, or the only version of a type without draft & publish). */
async function insertVersion(env: WriteEnv, model: ContentTypeModel, args: { documentId: string; locale: string | null; data: unknown }): Promise<number> {
  const status = model.draftAndPublish ? 'draft' : 'published';
  const resolved = await resolveBodyRefs(env, model, args.data, { status, locale: args.locale });
  const now = env.now();
  const publishedAt = status === 'published' ? now : null;
  const validated = await validateEntity(
    model,
    withSystem(model, args.data, publishedAt, args.locale) as Record<string, unknown>,
    env.registry,
    validationOptions(env, model, { mode: 'creation', isDraft: model.draftAndPublish, locale: args.locale, entity: null }),
  );
  const columns = await scalarColumns(model, validated);
  const rowId = await insertRow(env.db, model.table, {
    documentId: args.documentId,
    ...columns,
    createdAt: now,
    updatedAt: now,
    publishedAt,
    locale: args.locale,
    createdBy: env.author ?? null,
    updatedBy: env.author ?? null,
  });
  await writeRelational(env, model, rowId, validated, { status, locale: args.locale, fresh: true }, resolved);
  return rowId;
}

async function updateVersion(env: WriteEnv, model: ContentTypeModel, row: Row, data: unknown, locale: string | null): Promise<void> {
  const status = model.draftAndPublish ? 'draft' : 'published';
  const resolved = await resolveBodyRefs(env, model, data, { status, locale });
  const now = env.now();
  const publishedAt = status === 'published' ? now : null;
  const validated = await validateEntity(
    model,
    withSystem(model, data, publishedAt, locale) as Record<string, unknown>,
    env.registry,
    validationOptions(env, model, { mode: 'update', isDraft: model.draftAndPublish, locale, entity: row }),
  );
  const columns = await scalarColumns(model, validated);
  const set: Record<string, unknown> = { ...columns, updatedAt: now, ...(status === 'published' ? { publishedAt } : {}), ...(env.author != null ? { updatedBy: env.author } : {}) };
  const names = Object.keys(set);
  const values = rowValues(names, [set]);
  const update = () => env.db.updateTable(model.table).set(set).where('id', '=', Number(row.id));
  if (values === null) await update().execute();
  else await runWrite(env.db, `update|${model.table}|${names.join(',')}`, [...values, Number(row.id)], update);
  await writeRelational(env, model, Number(row.id), validated, { status, locale }, resolved);
}

async function versionRow(env: WriteEnv, model: ContentTypeModel, documentId: string, locale: string | null, status: 'draft' | 'published'): Promise<Row | undefined> {
  const draft = model.draftAndPublish && status === 'draft';
  const [row] = await writeRows(env.db, `version|${model.table}|${locale === null}|${draft}`, locale === null ? [documentId] : [documentId, locale], () => {
    let q = env.db.selectFrom(model.table).selectAll().where('documentId', '=', documentId).where('locale', locale === null ? 'is' : '=', locale);
    q = q.where('publishedAt', draft ? 'is' : 'is not', null);
    return q.orderBy('id');
  });
  return row;
}

const nonLocalized = (model: Model) => (name: string) => {
  const attr = model.attributes.get(name);
  return attr !== undefined && !attr.localized && attr.kind !== 'relation' && attr.kind !== 'localizations';
};

/** Copies the non-localized attributes of a row to the document's other locales in the same state. */
async function syncNonLocalized(env: WriteEnv, model: ContentTypeModel, rowId: number): Promise<void> {
  if (!model.localized) return;
  const source = await env.db.selectFrom(model.table).selectAll().where('id', '=', rowId).executeTakeFirstOrThrow();
  const others = await env.db
    .selectFrom(model.table)
    .selectAll()
    .where('documentId', '=', String(source.documentId))
    .where('id', '<>', rowId)
    .where('publishedAt', source.publishedAt === null ? 'is' : 'is not', null)
    .where('locale', 'is not', null)
    .execute();
  if (others.length === 0) return;
  const pick = nonLocalized(model);
  const scalars: Record<string, unknown> = {};
  for (const attr of model.attributes.values()) if (attr.kind === 'scalar' && pick(attr.name)) scalars[attr.name] = source[attr.name];
  const relational = [...model.attributes.values()].filter((a) => (a.kind === 'component' || a.kind === 'dynamiczone' || a.kind === 'media') && pick(a.name));
  for (const other of others) {
    const id = Number(other.id);
    if (Object.keys(scalars).length > 0) await env.db.updateTable(model.table).set(scalars).where('id', '=', id).execute();
    if (relational.length === 0) continue;
    // Components are updated in place where they can be (their ids kept, as Strapi keeps them); media links and the rest are copied anew.
    const components = relational.filter((a) => a.kind !== 'media').map((a) => a.name);
    const redo = [...relational.filter((a) => a.kind === 'media').map((a) => a.name), ...(await syncComponentsInPlace(env, model, rowId, id, components))];
    if (redo.length === 0) continue;
    await deleteFields(env, model, id, redo);
    await cloneChildren(env, model, rowId, id, source.publishedAt === null ? 'draft' : 'published', new Map(), (name) => redo.includes(name));
  }
}

/** Removes the components and media of some attributes of a row. */
async function deleteFields(env: WriteEnv, model: ContentTypeModel, rowId: number, fields: string[]): Promise<void> {
  const hasComponents = fields.some((f) => ['component', 'dynamiczone'].includes(model.attributes.get(f)?.kind ?? ''));
  if (hasComponents) {
    const table = env.registry.componentsTable(model);
    const links = await env.db.selectFrom(table).selectAll().where('entity_id', '=', rowId).where('field', 'in', fields).execute();
    await env.db.deleteFrom(table).where('entity_id', '=', rowId).where('field', 'in', fields).execute();
    for (const link of links) {
      const component = env.registry.component(String(link.component_type));
      if (component) {
        await deleteChildren(env, component, [Number(link.cmp_id)]);
        await env.db.deleteFrom(component.table).where('id', '=', Number(link.cmp_id)).execute();
      }
    }
  }
  await env.db.deleteFrom(FILES_RELATED_TABLE).where('related_type', '=', model.uid).where('related_id', '=', rowId).where('field', 'in', fields).execute();
}

/** Publishes the draft of (documentId, locale): validates it in full, then copies it as the published version. */
export async function publishVersion(env: WriteEnv, model: ContentTypeModel, documentId: string, locale: string | null): Promise<number> {
  return (await publishRow(env, model, documentId, locale)).id;
}

/** `publishVersion`, also giving the published row (see copyVersionRow). */
async function publishRow(env: WriteEnv, model: ContentTypeModel, documentId: string, locale: string | null): Promise<{ id: number; row: Row }> {
  const draft = await versionRow(env, model, documentId, locale, 'draft');
  if (!draft) throw notFound();
  const old = await versionRow(env, model, documentId, locale, 'published');
  const copied = await copyVersionRow(env, model, {
    fromId: Number(draft.id),
    source: draft,
    replaceId: old ? Number(old.id) : null,
    status: 'published',
    publishedAt: env.now(),
    validate: async (tree) => {
      const data = { ...treeValues(model, draft, tree), publishedAt: env.now(), ...(model.localized ? { locale } : {}) };
      await validateEntity(model, data, env.registry, { ...validationOptions(env, model, { mode: 'creation', isDraft: false, locale, entity: null }), checkOnly: true });
    },
  });
  await syncNonLocalized(env, model, copied.id);
  env.events?.raise('entry.publish', model, copied.id);
  return copied;
}

/** The answer of a write: the row `rowId` (read, unless the caller has it as the database holds it) presented as a read presents it. */
async function respond(deps: DocumentDeps, env: WriteEnv, model: ContentTypeModel, rowId: number, req: WriteRequest, known?: Row): Promise<Record<string, unknown>> {
  const [row] = known ? [known] : await writeRows(env.db, `row|${model.table}`, [rowId], () => env.db.selectFrom(model.table).selectAll().where('id', '=', rowId));
  if (row === undefined) throw new AppError('InternalServerError', 'Internal Server Error');
  const [entry] = await present(deps, env.db, model, [row], req.query, req.access);
  if (!entry) throw new AppError('InternalServerError', 'Internal Server Error');
  return entry;
}

const localizedSchemas = new WeakMap<object, boolean>();

/**
 * The default locale the relations of a write resolve against: only a localized target uses it
 * (relations-input.ts targetLocale), so with no localized content type it is not read (and unused).
 */
async function relationLocale(deps: DocumentDeps): Promise<string> {
  let localized = localizedSchemas.get(deps.registry);
  if (localized === undefined) localizedSchemas.set(deps.registry, (localized = deps.registry.contentTypes.some((m) => m.localized)));
  return localized ? deps.locales.defaultCode() : '';
}

function transaction<T>(deps: DocumentDeps, defaultLocale: string, fn: (env: WriteEnv) => Promise<T>, author: number | null = null): Promise<T> {
  return eventTransaction(deps, (trx, events) => fn({ ...writeEnv(deps, trx, defaultLocale), author, events }));
}

/** `POST /api/:plural`: creates a document (draft + published version unless `status=draft`). */
export async function createDocument(deps: DocumentDeps, model: ContentTypeModel, req: WriteRequest): Promise<Record<string, unknown>> {
  const locale = await writeLocale(deps, model, req.query);
  const defaultLocale = await relationLocale(deps);
  return transaction(deps, defaultLocale, async (trx) => {
    const env: WriteEnv = { ...trx, uniqueSeen: new Map() };
    const documentId = newDocumentId();
    const rowId = await insertVersion(env, model, { documentId, locale, data: req.data });
    env.events?.raise('entry.create', model, rowId);
    if (!model.draftAndPublish || req.query.status !== 'published') return respond(deps, env, model, rowId, req);
    const published = await publishRow(env, model, documentId, locale);
    return respond(deps, env, model, published.id, req, published.row);
  }, req.author ?? null);
}

/** The values a new localization starts from: another locale's non-localized attributes. */
async function localizationBase(env: WriteEnv, model: ContentTypeModel, documentId: string): Promise<{ values: Record<string, unknown>; sourceId: number } | null> {
  const source = await env.db
    .selectFrom(model.table)
    .selectAll()
    .where('documentId', '=', documentId)
    .orderBy((eb) => eb.case().when('publishedAt', 'is', null).then(0).else(1).end())
    .orderBy('id')
    .executeTakeFirst();
  if (!source) return null;
  const pick = nonLocalized(model);
  return { values: await valuesOf(env, model, source, (name) => pick(name) && model.attributes.get(name)?.kind === 'scalar'), sourceId: Number(source.id) };
}

/** Updates the version of (document, locale), or creates it: a new localization, or (single types) a new document. */
async function writeOrLocalize(
  env: WriteEnv,
  model: ContentTypeModel,
  args: { existingId: string | null; mustExist: boolean; locale: string | null; data: unknown; status: 'draft' | 'published' },
): Promise<{ documentId: string; rowId: number } | null> {
  const { existingId, locale, data, status } = args;
  const row = existingId === null ? undefined : await versionRow(env, model, existingId, locale, status);
  if (existingId !== null && row) {
    await updateVersion(env, model, row, data, locale);
    env.events?.raise('entry.update', model, Number(row.id));
    return { documentId: existingId, rowId: Number(row.id) };
  }
  const base = existingId === null ? null : await localizationBase(env, model, existingId);
  if (existingId === null || base === null) {
    if (args.mustExist) return null;
    const documentId = newDocumentId();
    const created = await insertVersion(env, model, { documentId, locale, data });
    env.events?.raise('entry.create', model, created);
    return { documentId, rowId: created };
  }
  const merged = isRecord(data) ? { ...base.values, ...data } : data;
  const rowId = await insertVersion(env, model, { documentId: existingId, locale, data: merged });
  const pick = nonLocalized(model);
  const copied = (name: string) => pick(name) && !(isRecord(data) && name in data) && model.attributes.get(name)?.kind !== 'scalar';
  await cloneChildren(env, model, base.sourceId, rowId, status, new Map(), copied);
  env.events?.raise('entry.create', model, rowId);
  return { documentId: existingId, rowId };
}

/**
 * `PUT /api/:plural/:documentId` (and single types with documentId null): updates the draft (and
 * publishes it unless `status=draft`); a locale the document lacks is created from its other locales.
 * Returns null when there is no such document.
 */
export async function updateDocument(deps: DocumentDeps, model: ContentTypeModel, documentId: string | null, req: WriteRequest): Promise<Record<string, unknown> | null> {
  const locale = await writeLocale(deps, model, req.query);
  const defaultLocale = await relationLocale(deps);
  return transaction(deps, defaultLocale, async (env) => {
    let id = documentId;
    if (id === null) {
      const any = await env.db.selectFrom(model.table).select('documentId').orderBy('id').executeTakeFirst();
      id = any ? String(any.documentId) : null;
    }
    const status = model.draftAndPublish ? 'draft' : 'published';
    const written = await writeOrLocalize(env, model, { existingId: id, mustExist: documentId !== null, locale, data: req.data, status });
    if (!written) return null;
    await syncNonLocalized(env, model, written.rowId);
    if (!model.draftAndPublish || req.query.status !== 'published') return respond(deps, env, model, written.rowId, req);
    const published = await publishRow(env, model, written.documentId, locale);
    return respond(deps, env, model, published.id, req, published.row);
  }, req.author ?? null);
}

/** `DELETE`: removes every version of the document in the selected locale(s); nothing to delete is fine. */
export async function deleteDocument(deps: DocumentDeps, model: ContentTypeModel, documentId: string | null, query: DocumentQuery, statusGiven: boolean): Promise<void> {
  if (model.draftAndPublish && statusGiven && query.status === 'draft') throw validationError('Cannot delete a draft document');
  const defaultLocale = await deps.locales.defaultCode();
  await transaction(deps, defaultLocale, async (env) => {
    let id = documentId;
    if (id === null) {
      const any = await env.db.selectFrom(model.table).select('documentId').orderBy('id').executeTakeFirst();
      if (!any) return;
      id = String(any.documentId);
    }
    let q = env.db.selectFrom(model.table).selectAll().where('documentId', '=', id);
    if (model.localized) {
      const locale = query.locale ?? { kind: 'one' as const, code: defaultLocale };
      if (locale.kind === 'one') q = q.where('locale', '=', locale.code);
      else if (locale.kind === 'list') q = q.where('locale', 'in', [...locale.codes]);
    }
    const rows = await q.orderBy('id').execute();
    env.events?.removed('entry.delete', model, rows);
    await deleteRows(env, model, rows.map((r) => Number(r.id)));
  });
}
