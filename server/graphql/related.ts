import { GraphQLList, GraphQLUnionType, type GraphQLFieldConfig, type GraphQLObjectType } from 'graphql';
import type { Registry } from '../schema/registry.js';
import type { Model } from '../schema/types.js';
import { pluginsOf } from './plugin-deps.js';
import type { GraphqlContext } from './resolve.js';

/**
 * `UploadFile.related: [GenericMorph]`: the entries and components a file is linked from, as
 * REST's `GET /api/upload/files/:id?populate=related` lists them (types the caller may not `find`
 * left out), each resolved to its type by its `__type` uid. Strapi 5.54 generates the field but
 * answers every use of it with INTERNAL_SERVER_ERROR `Missing schema in validateQuery` (transcript
 * 048); Hearth answers the linked entries. `GenericMorph` holds every component and exposed type.
 */
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
      return pluginsOf(ctx).media.related(fileId, { canRead: (uid) => ctx.allows(`${uid}.find`) });
    },
  };
}
