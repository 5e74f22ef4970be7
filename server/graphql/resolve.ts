import type { FieldNode, GraphQLFieldResolver, GraphQLResolveInfo, SelectionSetNode } from 'graphql';
import type { DocumentService } from '../documents/index.js';
import { AppError, forbidden } from '../errors/app-error.js';
import type { PaginationLimits } from '../query/pagination.js';
import { readListQuery, readOneQuery, type QueryEnv } from '../query/read-query.js';
import type { Registry } from '../schema/registry.js';
import { FILE_UID, type ContentTypeModel, type Model } from '../schema/types.js';
import { toRestFilters } from './filters.js';
import type { RelationLoader } from './loader.js';
import type { MeDeps } from './me.js';
import { fieldsOf, populateOf, withWindows, type PopulateScope, type Windows } from './populate.js';
import { readOne, readPage } from './reads.js';
import { NEEDS_RESOLVER, replaying, withDirect, type Prefetched } from './direct.js';

/** What every resolver of one request reads: the caller, the document service, the registry the schema was built from. */
export interface GraphqlContext {
  readonly allows: (action: string) => boolean;
  /** Who is calling (the kind decides what `me` answers). */
  readonly caller: { readonly kind: string; readonly id: number | null };
  /** Reads the signed-in user for `me`. */
  readonly me: MeDeps;
  readonly documents: DocumentService;
  readonly registry: Registry;
  readonly limits: PaginationLimits;
  /** The request's populate bookkeeping (which selections the root reads loaded). */
  readonly scope: PopulateScope;
  readonly loader: RelationLoader;
  /** Root fields' outcomes the plain executor ran ahead (by response key), for graphql-js to reuse (direct.ts). */
  readonly prefetched?: Map<string, Prefetched>;
}

type Raw = Record<string, unknown>;
type Args = Record<string, unknown>;

/** The action REST checks for a read of this type (`api::tag.tag.find`, `plugin::upload.content-api.find`). */
const actionOf = (model: ContentTypeModel, action: 'find' | 'findOne'): string =>
  model.uid === FILE_UID ? `plugin::upload.content-api.${action}` : `${model.uid}.${action}`;

/** A FORBIDDEN error unless the caller may run `action` (the REST route's action). */
export function authorize(ctx: GraphqlContext, action: string): void {
  if (!ctx.allows(action)) throw forbidden();
}

/** GraphQL's pagination (`{page,pageSize}` or `{start,limit}`) as a REST window: capped silently at maxLimit, as Strapi's plugin does. */
export function windowOf(pagination: unknown, limits: PaginationLimits): { start: number; limit: number } {
  const p = (typeof pagination === 'object' && pagination !== null ? pagination : {}) as Record<string, number | null | undefined>;
  const given = (v: number | null | undefined): v is number => v !== undefined && v !== null;
  const max = limits.maxLimit ?? Number.MAX_SAFE_INTEGER;
  const cap = (n: number | null) => Math.min(Math.max(n ?? limits.defaultLimit, 1), max);
  if ((given(p.page) || given(p.pageSize)) && (given(p.start) || given(p.limit))) {
    throw new AppError('PaginationError', 'Cannot use both page & offset pagination in the same query');
  }
  if (given(p.page) || given(p.pageSize)) {
    const limit = cap(p.pageSize ?? limits.defaultLimit);
    return { start: (Math.max(p.page ?? 1, 1) - 1) * limit, limit };
  }
  const limit = p.limit === -1 ? max : cap(p.limit ?? limits.defaultLimit);
  return { start: Math.max(p.start ?? 0, 0), limit };
}

function restQuery(model: ContentTypeModel, args: Args, ctx: GraphqlContext, info: GraphQLResolveInfo, list: boolean): { raw: Raw; windows: Windows } {
  const set = list && info.fieldName.endsWith('_connection') ? nodesOf(info) : info.fieldNodes[0]?.selectionSet;
  const { populate, windows, fields } = populateOf(model, set, ctx.scope, info);
  const raw: Raw = { status: args.status, populate };
  if (fields) raw.fields = fields;
  if (args.filters) raw.filters = toRestFilters(args.filters);
  if (Array.isArray(args.sort) && args.sort.length > 0) raw.sort = args.sort;
  if (typeof args.sort === 'string') raw.sort = args.sort;
  if (args.locale !== undefined && args.locale !== null) raw.locale = args.locale;
  if (args.publicationFilter) raw.publicationFilter = args.publicationFilter;
  if (typeof args.hasPublishedVersion === 'boolean') raw.hasPublishedVersion = args.hasPublishedVersion;
  return { raw, windows };
}

const nodesOf = (info: GraphQLResolveInfo): SelectionSetNode | undefined =>
  fieldsOf(info.fieldNodes[0]?.selectionSet, info).find((f) => f.name.value === 'nodes')?.selectionSet;

/** The query parser's environment for a caller: REST's limits and its populate permission check. */
export const envOf = (ctx: Pick<GraphqlContext, 'registry' | 'limits' | 'allows'>): QueryEnv => ({ registry: ctx.registry, limits: ctx.limits, canRead: (uid) => ctx.allows(`${uid}.find`) });
export const accessOf = (ctx: Pick<GraphqlContext, 'allows'>) => ({ canRead: (uid: string) => ctx.allows(`${uid}.find`) });

/** The root queries of one content type: `x(documentId)`, `xs`, `xs_connection`, a single type's `x`. */
export function rootResolvers(model: ContentTypeModel) {
  const page = async (args: Args, ctx: GraphqlContext, info: GraphQLResolveInfo, count: boolean) => {
    authorize(ctx, actionOf(model, 'find'));
    const window = windowOf(args.pagination, ctx.limits);
    const { raw, windows } = restQuery(model, args, ctx, info, true);
    const parsed = readListQuery({ ...raw, pagination: window }, model, envOf(ctx));
    // The connection's total is counted by the read itself; a plain list counts nothing.
    const pagination = { ...parsed.pagination, withCount: count };
    const query = { ...parsed.query, populate: withWindows(parsed.query.populate, windows) };
    const { data, total } = await readPage(ctx.documents, { model, query, pagination, access: accessOf(ctx) });
    return { data: data as unknown[], window, total };
  };
  /** The parsed read of one document for this selection (its populate checked: a forbidden relation is a 400 here). */
  const readQuery = (args: Args, ctx: GraphqlContext, info: GraphQLResolveInfo) => {
    const { raw, windows } = restQuery(model, args, ctx, info, false);
    const parsed = readOneQuery(raw, model, envOf(ctx));
    return { ...parsed, populate: withWindows(parsed.populate, windows) };
  };
  const one = async (documentId: string | null, args: Args, ctx: GraphqlContext, info: GraphQLResolveInfo) =>
    readOne(ctx.documents, { model, documentId, query: readQuery(args, ctx, info), access: accessOf(ctx) });
  const list: GraphQLFieldResolver<unknown, GraphqlContext, Args> = async (_p, args, ctx, info) => (await page(args, ctx, info, false)).data;
  const connection: GraphQLFieldResolver<unknown, GraphqlContext, Args> = async (_p, args, ctx, info) => {
    const { data, window, total } = await page(args, ctx, info, true);
    const pageInfo = { total, page: Math.floor(window.start / window.limit) + 1, pageSize: window.limit, pageCount: Math.ceil(total / window.limit) };
    return { nodes: data, pageInfo };
  };
  const byId: GraphQLFieldResolver<unknown, GraphqlContext, Args> = (_p, args, ctx, info) => {
    authorize(ctx, actionOf(model, 'findOne'));
    return one(String(args.documentId), args, ctx, info);
  };
  const single: GraphQLFieldResolver<unknown, GraphqlContext, Args> = (_p, args, ctx, info) => {
    authorize(ctx, actionOf(model, 'find'));
    return one(null, args, ctx, info);
  };
  // `readQuery`: how `x(documentId, status, locale)` reads this selection, without the find check (a mutation's answer, parsed before it writes).
  return { list: replaying(list), connection: replaying(connection), one: replaying(byId), single: replaying(single), readQuery };
}

const entryOf = (parent: unknown, name: string): unknown => (typeof parent === 'object' && parent !== null ? (parent as Raw)[name] : undefined);

/** A relation or media field's value read from its parent when the root's populate loaded it; NEEDS_RESOLVER when the batch loader must read it. */
function populatedValue(model: Model, name: string, parent: unknown, ctx: GraphqlContext, node: FieldNode | undefined): unknown {
  if (!node || ctx.scope.populated.has(node) || model.modelType !== 'contentType' || typeof parent !== 'object' || parent === null) return entryOf(parent, name);
  return NEEDS_RESOLVER;
}

/**
 * A relation or media field's value: from the populate when this selection was populated (at once,
 * not as a promise: graphql-js completes a plain value without a microtask), else through the batch loader.
 */
function relationValue(model: Model, name: string, parent: unknown, ctx: GraphqlContext, info: GraphQLResolveInfo): unknown {
  const value = populatedValue(model, name, parent, ctx, info.fieldNodes[0]);
  return value === NEEDS_RESOLVER ? ctx.loader.load(model as ContentTypeModel, parent as Raw, info.fieldNodes[0] as FieldNode, info) : value;
}

/** `f(value)`, after the value when it is a promise. */
const then = (value: unknown, f: (v: unknown) => unknown): unknown => (value instanceof Promise ? value.then(f) : f(value));
const listOf = (value: unknown): unknown => (Array.isArray(value) ? value : []);
const nodesOfList = (value: unknown): unknown => ({ nodes: listOf(value) });
/** `f` of the populated value, or NEEDS_RESOLVER. */
const direct = (model: Model, name: string, f: (v: unknown) => unknown) => (parent: unknown, ctx: GraphqlContext, node: FieldNode): unknown => {
  const value = populatedValue(model, name, parent, ctx, node);
  return value === NEEDS_RESOLVER ? value : f(value);
};

/** A to-many relation or media list: `[]` when absent. */
export const relationList = (name: string, model: Model): GraphQLFieldResolver<unknown, GraphqlContext> =>
  withDirect((parent, _args, ctx: GraphqlContext, info) => then(relationValue(model, name, parent, ctx, info), listOf), direct(model, name, listOf));

/** `x_connection` on a relation: `{ nodes }` (no pageInfo, as Strapi). */
export const connectionOf = (name: string, model: Model): GraphQLFieldResolver<unknown, GraphqlContext> =>
  withDirect((parent, _args, ctx: GraphqlContext, info) => then(relationValue(model, name, parent, ctx, info), nodesOfList), direct(model, name, nodesOfList));

/** A to-one relation or single media. */
export const relationOne = (name: string, model: Model): GraphQLFieldResolver<unknown, GraphqlContext> =>
  withDirect((parent, _args, ctx: GraphqlContext, info) => relationValue(model, name, parent, ctx, info), direct(model, name, (v) => v));

/** A repeatable component or a dynamic zone: the populated list (`[]` when empty). */
export const toManyField = (name: string): GraphQLFieldResolver<unknown, GraphqlContext> => {
  const value = (parent: unknown): unknown => {
    const v = entryOf(parent, name);
    return Array.isArray(v) ? v : v === undefined ? [] : v;
  };
  return withDirect((parent) => value(parent), (parent) => value(parent));
};
