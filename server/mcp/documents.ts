import type { Caller } from '../auth/caller.js';
import { checkInput, type DocumentService } from '../documents/index.js';
import { forbidden, notFound, validationError } from '../errors/app-error.js';
import { isRecord } from '../errors/is-record.js';
import { queryOfObject } from '../query/query-string.js';
import { readListQuery, readOneQuery, validateQuery } from '../query/read-query.js';
import { writeQuery } from '../query/write-query.js';
import type { Registry } from '../schema/registry.js';
import type { ContentTypeModel } from '../schema/types.js';
import { answer, answerText, pick, queryEnv, textArg, writeAnswer, type Args, type McpContext, type ToolAnswer } from './context.js';
import { checkedDocumentId, resolveType, type ContentAction } from './model-info.js';

/** One call's bearings: the registry it started with, its caller, the type it names. */
interface Call {
  readonly ctx: McpContext;
  readonly registry: Registry;
  readonly caller: Caller;
  readonly model: ContentTypeModel;
}

const access = (caller: Caller) => ({ canRead: (uid: string) => caller.allows(`${uid}.find`) });

/** Resolves the type and checks the action, as the content API's route does (403 before the query is read). */
async function begin(ctx: McpContext, args: Args, action: ContentAction | ((model: ContentTypeModel) => ContentAction)): Promise<Call> {
  const caller = await ctx.caller();
  const registry = ctx.services.registry();
  const model = resolveType(registry, caller, textArg(args, 'contentType', true));
  const name = typeof action === 'function' ? action(model) : action;
  if (!caller.allows(`${model.uid}.${name}`)) throw forbidden();
  return { ctx, registry, caller, model };
}

/** Runs a document-service call with the call's registry bound (the service reads it once, as each call starts). */
const run = <T>(call: Call, fn: (documents: DocumentService) => Promise<T>): Promise<T> => call.ctx.services.schemas.within(call.registry, () => fn(call.ctx.services.documents));

/** The next page's `pagination` argument when meta.pagination says there is more, for the answer's `_meta`. */
function moreOf(meta: unknown): Record<string, unknown> | undefined {
  const pagination = isRecord(meta) && isRecord(meta.pagination) ? meta.pagination : null;
  if (!pagination) return undefined;
  const { page, pageSize, pageCount, start, limit, total } = pagination;
  if (typeof page === 'number' && typeof pageCount === 'number' && page < pageCount) return { more: { pagination: { page: page + 1, pageSize } } };
  if (typeof start === 'number' && typeof limit === 'number' && typeof total === 'number' && start + limit < total) return { more: { pagination: { start: start + limit, limit } } };
  return undefined;
}

/** `find_documents`: what `GET /api/:plural` answers for the same query (a single type: `GET /api/:singular`). */
export async function findDocuments(ctx: McpContext, args: Args): Promise<ToolAnswer> {
  const call = await begin(ctx, args, 'find');
  const { model, caller } = call;
  const env = queryEnv(ctx.services, call.registry, caller);
  if (model.kind === 'singleType') return readOne(call, args, null);
  const raw = queryOfObject(pick(args, ['filters', 'sort', 'fields', 'populate', 'pagination', 'status', 'locale']));
  const { query, pagination } = readListQuery(raw, model, env);
  const text = await run(call, (d) => d.findManyText({ model, query, pagination, access: access(caller) }));
  if (text !== undefined) {
    const parsed: unknown = JSON.parse(text);
    return answerText(text, moreOf(isRecord(parsed) ? parsed.meta : undefined));
  }
  const page = await run(call, (d) => d.findMany({ model, query, pagination, access: access(caller) }));
  return answer(page, moreOf(page.meta));
}

/** `get_document`: what `GET /api/:plural/:documentId` answers. */
export async function getDocument(ctx: McpContext, args: Args): Promise<ToolAnswer> {
  const call = await begin(ctx, args, (m) => (m.kind === 'singleType' ? 'find' : 'findOne'));
  return readOne(call, args, checkedDocumentId(call.model, textArg(args, 'documentId', false)));
}

async function readOne(call: Call, args: Args, documentId: string | null): Promise<ToolAnswer> {
  const { model, caller } = call;
  const raw = queryOfObject(pick(args, ['fields', 'populate', 'status', 'locale']));
  const query = readOneQuery(raw, model, queryEnv(call.ctx.services, call.registry, caller));
  const text = await run(call, (d) => d.findOneText({ model, documentId, query, access: access(caller) }));
  if (text === null) throw notFound();
  if (text !== undefined) return answerText(text);
  const entry = await run(call, (d) => d.findOne({ model, documentId, query, access: access(caller) }));
  if (entry === null) throw notFound();
  return answer({ data: entry, meta: {} });
}

/** The query string of a write: a draft unless `status: "published"` (types without draft & publish take none). */
function writeRaw(model: ContentTypeModel, args: Args): Args {
  const status = textArg(args, 'status', false);
  if (status !== undefined && status !== 'draft' && status !== 'published') throw validationError('status must be "draft" or "published"');
  return queryOfObject({ ...pick(args, ['locale']), ...(model.draftAndPublish ? { status: status ?? 'draft' } : {}) });
}

/** The body's `data`: an object, as the content API requires. */
function dataOf(args: Args): Record<string, unknown> {
  const data = args.data;
  if (!isRecord(data)) throw validationError('Missing "data" payload in the request body');
  return data;
}

/** `create_document` and `update_document`: `POST /api/:plural` / `PUT /api/:plural/:documentId` with `?status=draft` unless published is asked. */
export async function writeDocument(ctx: McpContext, args: Args, kind: 'create' | 'update'): Promise<ToolAnswer> {
  const call = await begin(ctx, args, kind);
  const { model, caller } = call;
  const documentId = kind === 'update' ? checkedDocumentId(model, textArg(args, 'documentId', false)) : null;
  const env = queryEnv(ctx.services, call.registry, caller);
  const raw = writeRaw(model, args);
  const parts = model.kind === 'singleType' ? null : validateQuery(raw, model, env);
  const data = dataOf(args);
  checkInput(data, model, call.registry, env.canRead);
  const query = writeQuery(raw, model, env, parts);
  const author = caller.kind === 'admin' ? caller.id : null;
  const written =
    kind === 'create'
      ? await run(call, (d) => d.create({ model, data, query, access: access(caller), author }))
      : await run(call, (d) => d.update({ model, documentId, data, query, access: access(caller), author }));
  if (written === null) throw notFound();
  return writeAnswer({ data: written, meta: {} });
}

/** The documentId an action targets: given, or a single type's own. */
async function actionTarget(call: Call, args: Args, locale: string | null): Promise<string> {
  const given = checkedDocumentId(call.model, textArg(args, 'documentId', false));
  if (given !== null) return given;
  const query = readOneQuery(queryOfObject({ status: 'draft', ...(locale === null ? {} : { locale }) }), call.model, queryEnv(call.ctx.services, call.registry, call.caller));
  const entry = await run(call, (d) => d.findOne({ model: call.model, documentId: null, query, access: access(call.caller) }));
  if (entry === null || typeof entry.documentId !== 'string') throw notFound();
  return entry.documentId;
}

/** `publish_document`, `unpublish_document`, `discard_draft`: the content manager's actions on one locale; answers the version they leave. */
export async function documentAction(ctx: McpContext, args: Args, action: 'publish' | 'unpublish' | 'discardDraft'): Promise<ToolAnswer> {
  const call = await begin(ctx, args, 'update');
  const { model } = call;
  if (!model.draftAndPublish) throw validationError(`${model.uid} has no draft & publish`);
  const locale = await run(call, (d) => d.actionLocale({ model, locale: textArg(args, 'locale', false) ?? null }));
  const documentId = await actionTarget(call, args, locale);
  await run(call, (d) => d[action]({ model, documentId, locale }));
  const status = action === 'publish' ? 'published' : 'draft';
  return readOne(call, { ...(locale === null ? {} : { locale }), status }, model.kind === 'singleType' ? null : documentId);
}

/** `delete_document`: `DELETE /api/:plural/:documentId` (every version in the locale); answers `{ data: null, meta: {} }`. */
export async function deleteDocument(ctx: McpContext, args: Args): Promise<ToolAnswer> {
  const call = await begin(ctx, args, 'delete');
  const { model, caller } = call;
  const documentId = checkedDocumentId(model, textArg(args, 'documentId', false));
  const env = queryEnv(ctx.services, call.registry, caller);
  const raw = queryOfObject(pick(args, ['locale']));
  const parts = model.kind === 'singleType' ? null : validateQuery(raw, model, env);
  await run(call, (d) => d.remove({ model, documentId, query: writeQuery(raw, model, env, parts), statusGiven: false }));
  return answer({ data: null, meta: {} });
}
