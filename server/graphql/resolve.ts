import { getArgumentValues, GraphQLObjectType, type FieldNode, type GraphQLFieldResolver, type GraphQLResolveInfo, type SelectionSetNode } from 'graphql';
import type { DocumentService } from '../documents/index.js';
import { AppError, forbidden } from '../errors/app-error.js';
import type { PaginationLimits } from '../query/pagination.js';
import { readListQuery, readOneQuery, type QueryEnv } from '../query/read-query.js';
import type { Registry } from '../schema/registry.js';
import { FILE_UID, type Model, type ContentTypeModel } from '../schema/types.js';
import { toRestFilters } from './filters.js';
import { componentTypeNameOf, typeNameOf } from './names.js';

/** What every resolver of one request reads: the caller, the document service, the registry the schema was built from. */
export interface GraphqlContext {
  readonly allows: (action: string) => boolean;
  readonly documents: DocumentService;
  readonly registry: Registry;
  readonly limits: PaginationLimits;
}

type Raw = Record<string, unknown>;
type Args = Record<string, unknown>;

/** The action REST checks for a read of this type (`api::tag.tag.find`, `plugin::upload.content-api.find`). */
const actionOf = (model: ContentTypeModel, action: 'find' | 'findOne'): string =>
  model.uid === FILE_UID ? `plugin::upload.content-api.${action}` : `${model.uid}.${action}`;

function authorize(ctx: GraphqlContext, action: string): void {
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

/** The fields of a selection, fragments included. */
function fieldsOf(set: SelectionSetNode | undefined, info: GraphQLResolveInfo): FieldNode[] {
  const out: FieldNode[] = [];
  for (const s of set?.selections ?? []) {
    if (s.kind === 'Field') out.push(s);
    else if (s.kind === 'InlineFragment') out.push(...fieldsOf(s.selectionSet, info));
    else {
      const fragment = info.fragments[s.name.value];
      if (fragment) out.push(...fieldsOf(fragment.selectionSet, info));
    }
  }
  return out;
}

/** The REST populate a selection needs: relations with their filters, sort and window; components and zones with theirs. */
function populateOf(model: Model, set: SelectionSetNode | undefined, ctx: GraphqlContext, info: GraphQLResolveInfo): Raw {
  const populate: Raw = {};
  const typeName = model.modelType === 'component' ? componentTypeNameOf(model) : typeNameOf(model);
  const type = info.schema.getType(typeName);
  const defs = type instanceof GraphQLObjectType ? type.getFields() : {};
  for (const node of fieldsOf(set, info)) {
    const connection = node.name.value.endsWith('_connection');
    const name = connection ? node.name.value.slice(0, -'_connection'.length) : node.name.value;
    const attribute = model.attributes.get(name);
    if (!attribute || attribute.kind === 'scalar' || populate[name] !== undefined) continue;
    const selection = connection ? fieldsOf(node.selectionSet, info).find((f) => f.name.value === 'nodes')?.selectionSet : node.selectionSet;
    if (attribute.kind === 'dynamiczone') {
      populate[name] = { on: Object.fromEntries(attribute.components.map((uid) => [uid, { populate: populateOf(ctx.registry.component(uid) as Model, node.selectionSet, ctx, info) }])) };
      continue;
    }
    const target = attribute.kind === 'component' ? ctx.registry.component(attribute.component) : attribute.kind === 'media' ? ctx.registry.model(FILE_UID) : attribute.kind === 'relation' ? ctx.registry.model(attribute.target) : model;
    if (!target) continue;
    const entry: Raw = { populate: populateOf(target, selection, ctx, info) };
    const def = defs[node.name.value];
    if (def && def.args.length > 0) {
      const args = getArgumentValues(def, node, info.variableValues);
      if (args.filters) entry.filters = toRestFilters(args.filters);
      if (Array.isArray(args.sort) && args.sort.length > 0) entry.sort = args.sort;
      const given = typeof args.pagination === 'object' && args.pagination !== null && Object.keys(args.pagination).length > 0;
      if (given) Object.assign(entry, windowOf(args.pagination, ctx.limits));
    }
    populate[name] = entry;
  }
  return populate;
}

function restQuery(model: ContentTypeModel, args: Args, ctx: GraphqlContext, info: GraphQLResolveInfo, list: boolean): Raw {
  const raw: Raw = { status: args.status, populate: populateOf(model, list && info.fieldName.endsWith('_connection') ? nodesOf(info) : info.fieldNodes[0]?.selectionSet, ctx, info) };
  if (args.filters) raw.filters = toRestFilters(args.filters);
  if (Array.isArray(args.sort) && args.sort.length > 0) raw.sort = args.sort;
  if (typeof args.sort === 'string') raw.sort = args.sort;
  if (args.locale !== undefined && args.locale !== null) raw.locale = args.locale;
  if (args.publicationFilter) raw.publicationFilter = args.publicationFilter;
  if (typeof args.hasPublishedVersion === 'boolean') raw.hasPublishedVersion = args.hasPublishedVersion;
  return raw;
}

const nodesOf = (info: GraphQLResolveInfo): SelectionSetNode | undefined =>
  fieldsOf(info.fieldNodes[0]?.selectionSet, info).find((f) => f.name.value === 'nodes')?.selectionSet;

const envOf = (ctx: GraphqlContext): QueryEnv => ({ registry: ctx.registry, limits: ctx.limits, canRead: (uid) => ctx.allows(`${uid}.find`) });
const accessOf = (ctx: GraphqlContext) => ({ canRead: (uid: string) => ctx.allows(`${uid}.find`) });

/** The root queries of one content type: `x(documentId)`, `xs`, `xs_connection`, a single type's `x`. */
export function rootResolvers(model: ContentTypeModel) {
  const page = async (args: Args, ctx: GraphqlContext, info: GraphQLResolveInfo, count: boolean) => {
    authorize(ctx, actionOf(model, 'find'));
    const window = windowOf(args.pagination, ctx.limits);
    const raw = { ...restQuery(model, args, ctx, info, true), pagination: window };
    const { query, pagination } = readListQuery(raw, model, envOf(ctx));
    const { data } = await ctx.documents.findMany({ model, query, pagination, access: accessOf(ctx) });
    const total = count ? await ctx.documents.count({ model, query }) : 0;
    return { data: data as unknown[], window, total };
  };
  const one = async (documentId: string | null, args: Args, ctx: GraphqlContext, info: GraphQLResolveInfo) => {
    const query = readOneQuery(restQuery(model, args, ctx, info, false), model, envOf(ctx));
    return ctx.documents.findOne({ model, documentId, query, access: accessOf(ctx) });
  };
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
  return { list, connection, one: byId, single };
}

const entryOf = (parent: unknown, name: string): unknown => (typeof parent === 'object' && parent !== null ? (parent as Raw)[name] : undefined);

/** A populated to-many relation or media list: `[]` when absent. */
export const relationList = (name: string): GraphQLFieldResolver<unknown, GraphqlContext> => (parent) => {
  const value = entryOf(parent, name);
  return Array.isArray(value) ? value : [];
};

/** `x_connection` on a relation: `{ nodes }` (no pageInfo, as Strapi). */
export const connectionOf = (name: string): GraphQLFieldResolver<unknown, GraphqlContext> => (parent) => {
  const value = entryOf(parent, name);
  return { nodes: Array.isArray(value) ? value : [] };
};

/** A repeatable component or a dynamic zone: the populated list (`[]` when empty). */
export const toManyField = (name: string): GraphQLFieldResolver<unknown, GraphqlContext> => (parent) => {
  const value = entryOf(parent, name);
  return Array.isArray(value) ? value : value === undefined ? [] : value;
};
