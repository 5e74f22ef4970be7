import { GraphQLID, GraphQLNonNull, GraphQLObjectType, type GraphQLFieldConfigArgumentMap, type GraphQLFieldResolver } from 'graphql';
import { checkInput } from '../documents/index.js';
import { forbidden, notFound } from '../errors/app-error.js';
import { readOneQuery } from '../query/read-query.js';
import { FILE_UID, type ContentTypeModel } from '../schema/types.js';
import { ROLE_UID, USER_UID } from '../users/models.js';
import { inputOf, restData } from './inputs.js';
import { typeNameOf } from './names.js';
import { accessOf, envOf, rootResolvers, type GraphqlContext } from './resolve.js';
import type { MutationFields, SchemaParts } from './schema-parts.js';

/**
 * The content-type mutations of Strapi's GraphQL plugin: `createX(status, data, locale)`,
 * `updateX(documentId, status, data, locale)`, `deleteX(documentId, locale)`, and for single types
 * `updateX(status, data, locale)` (creates the document when missing) and `deleteX(locale)`. Each
 * checks REST's action (`<uid>.create|update|delete`), translates `data` to the REST body (inputs.ts)
 * and calls the document service; the answer is then read as `x(documentId, status, locale)` reads
 * it, so relations resolve and nested permissions hold as in a query.
 */

type Args = Record<string, unknown>;
type Resolver = GraphQLFieldResolver<unknown, GraphqlContext, Args>;

/** Types whose mutations are not these (upload files, users and roles have their own). */
const OWN_MUTATIONS = new Set([FILE_UID, USER_UID, ROLE_UID]);

function authorize(ctx: GraphqlContext, model: ContentTypeModel, action: 'create' | 'update' | 'delete'): void {
  if (!ctx.allows(`${model.uid}.${action}`)) throw forbidden();
}

/** The status and locale of a write as the query parser reads them (REST's `?status=&locale=`). */
function writeScope(model: ContentTypeModel, args: Args, ctx: GraphqlContext) {
  const raw: Args = { status: args.status ?? 'published' };
  if (args.locale !== undefined && args.locale !== null) raw.locale = args.locale;
  return readOneQuery(raw, model, envOf(ctx));
}

/** The REST body of `data`, checked as REST checks a body (keys, relations the caller may not read). */
function bodyOf(model: ContentTypeModel, args: Args, ctx: GraphqlContext, parts: SchemaParts): unknown {
  const data = restData(model, args.data, parts);
  checkInput(data, model, ctx.registry, accessOf(ctx).canRead);
  return data;
}

const authorOf = (ctx: GraphqlContext): number | null => (ctx.caller.kind === 'admin' ? ctx.caller.id : null);

/** The create, update and delete resolvers of one content type. */
function resolversOf(model: ContentTypeModel, parts: SchemaParts): { create: Resolver; update: Resolver; remove: Resolver } {
  const { readQuery } = rootResolvers(model);

  /** The answer's read, parsed before the write: a selection the caller may not read fails with nothing written. */
  const answerOf = (args: Args, ctx: GraphqlContext, info: Parameters<Resolver>[3]) => {
    const query = readQuery({ status: args.status, locale: args.locale }, ctx, info);
    return (documentId: string) => ctx.documents.findOne({ model, documentId, query, access: accessOf(ctx) });
  };

  const create: Resolver = async (_p, args, ctx, info) => {
    authorize(ctx, model, 'create');
    const body = bodyOf(model, args, ctx, parts);
    const answer = answerOf(args, ctx, info);
    const made = await ctx.documents.create({ model, data: body, query: writeScope(model, args, ctx), access: accessOf(ctx), author: authorOf(ctx) });
    return answer(String(made.documentId));
  };
  const update: Resolver = async (_p, args, ctx, info) => {
    authorize(ctx, model, 'update');
    const body = bodyOf(model, args, ctx, parts);
    const answer = answerOf(args, ctx, info);
    const id = model.kind === 'singleType' ? null : String(args.documentId);
    const written = await ctx.documents.update({ model, documentId: id, data: body, query: writeScope(model, args, ctx), access: accessOf(ctx), author: authorOf(ctx) });
    return written === null ? null : answer(String(written.documentId));
  };
  const remove: Resolver = async (_p, args, ctx) => {
    authorize(ctx, model, 'delete');
    const query = writeScope(model, { locale: args.locale }, ctx);
    if (model.kind !== 'singleType') {
      // Strapi echoes the documentId even when there is no such document.
      await ctx.documents.remove({ model, documentId: String(args.documentId), query, statusGiven: false });
      return { documentId: args.documentId };
    }
    const scope = writeScope(model, { locale: args.locale, status: model.draftAndPublish ? 'draft' : 'published' }, ctx);
    const existing = await ctx.documents.findOne({ model, documentId: null, query: scope, access: accessOf(ctx) });
    if (existing === null) throw notFound('Document not found');
    await ctx.documents.remove({ model, documentId: String(existing.documentId), query, statusGiven: false });
    return { documentId: existing.documentId };
  };
  return { create, update, remove };
}

/** The mutations of one content type, with Strapi's names and arguments. */
function mutationsOf(model: ContentTypeModel, parts: SchemaParts): MutationFields {
  const type = parts.objectOf(model);
  const name = typeNameOf(model);
  const { create, update, remove } = resolversOf(model, parts);
  const locale: GraphQLFieldConfigArgumentMap = model.localized ? { locale: { type: parts.localeCode, description: 'The locale to use for the query' } } : {};
  const status: GraphQLFieldConfigArgumentMap = { status: { type: parts.publicationStatus, defaultValue: 'published' } };
  const data: GraphQLFieldConfigArgumentMap = { data: { type: new GraphQLNonNull(inputOf(parts, model)) } };
  const documentId: GraphQLFieldConfigArgumentMap = { documentId: { type: new GraphQLNonNull(GraphQLID) } };
  const deleted = deleteResponse(parts);
  if (model.kind === 'singleType') {
    return {
      [`update${name}`]: { type, args: { ...status, ...data, ...locale }, resolve: update },
      [`delete${name}`]: { type: deleted, args: locale, resolve: remove },
    };
  }
  return {
    [`create${name}`]: { type, args: { ...status, ...data, ...locale }, resolve: create },
    [`update${name}`]: { type, args: { ...documentId, ...status, ...data, ...locale }, resolve: update },
    [`delete${name}`]: { type: deleted, args: { ...documentId, ...locale }, resolve: remove },
  };
}

/** `DeleteMutationResponse { documentId }`, made once per schema. */
function deleteResponse(parts: SchemaParts): GraphQLObjectType {
  const known = parts.named('DeleteMutationResponse');
  if (known instanceof GraphQLObjectType) return known;
  return parts.remember(new GraphQLObjectType({ name: 'DeleteMutationResponse', fields: { documentId: { type: new GraphQLNonNull(GraphQLID) } } }));
}

/** The create/update/delete mutations of every exposed content type (upload files, users and roles aside). */
export function contentMutations(parts: SchemaParts): MutationFields {
  const fields: MutationFields = {};
  for (const model of parts.exposed) if (!OWN_MUTATIONS.has(model.uid)) Object.assign(fields, mutationsOf(model, parts));
  return fields;
}
