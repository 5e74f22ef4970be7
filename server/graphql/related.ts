import { GraphQLList, GraphQLUnionType, type GraphQLFieldConfig, type GraphQLObjectType } from 'graphql';
import type { Registry } from '../schema/registry.js';
import type { Model } from '../schema/types.js';
import { pluginsOf } from './plugin-deps.js';
import { accessOf, type GraphqlContext } from './resolve.js';

/**
 * `UploadFile.related: [GenericMorph]`: the entries and components a file is linked from, as
 * REST's `GET /api/upload/files/:id?populate=related` lists them (types the caller may not `find`
 * left out), each resolved to its type by its `__type` uid; the first default page of them (the
 * field takes no pagination, and a list is never more than a page: the cost limit counts on it). Strapi 5.54 generates the field but
 * answers every use of it with INTERNAL_SERVER_ERROR `Missing schema in validateQuery` (transcript
 * 048); Hearth answers the linked entries. `GenericMorph` holds every component and exposed type.
 */
/** The files whose `related` one request asks for in the same tick: read together once that tick ends. */
interface Batch {
  readonly ids: Set<number>;
  readonly result: Promise<ReadonlyMap<number, Record<string, unknown>[]>>;
}
const batches = new WeakMap<GraphqlContext, Batch>();

/** One file's `related`, read in one batch with every other file of the same list (no read per file). */
function relatedOf(ctx: GraphqlContext, fileId: number): Promise<Record<string, unknown>[]> {
  let batch = batches.get(ctx);
  if (!batch) {
    const ids = new Set<number>();
    const result = Promise.resolve().then(() => {
      batches.delete(ctx);
      return pluginsOf(ctx).media.related([...ids], accessOf(ctx));
    });
    batch = { ids, result };
    batches.set(ctx, batch);
  }
  batch.ids.add(fileId);
  // The default page, as a relation list without pagination answers (the cost limit counts it so).
  return batch.result.then((found) => (found.get(fileId) ?? []).slice(0, ctx.limits.defaultLimit));
}

export function relatedField(args: {
  readonly registry: Registry;
  readonly nameOf: (model: Model) => string;
  /** The union's members, in Strapi's order (components, upload files, locales, users & permissions, content types). */
  readonly members: () => GraphQLObjectType[];
}): GraphQLFieldConfig<unknown, GraphqlContext> {
  const union = new GraphQLUnionType({
    name: 'GenericMorph',
    types: args.members,
    resolveType: (value: { __type?: unknown }) => {
      const model = typeof value.__type === 'string' ? args.registry.model(value.__type) : undefined;
      return model ? args.nameOf(model) : undefined;
    },
  });
  return {
    type: new GraphQLList(union),
    resolve: async (parent, _args, ctx) => {
      const id = typeof parent === 'object' && parent !== null ? (parent as { id?: unknown }).id : undefined;
      const fileId = typeof id === 'string' && /^\d+$/.test(id) ? Number(id) : id;
      if (typeof fileId !== 'number') return [];
      return relatedOf(ctx, fileId);
    },
  };
}
