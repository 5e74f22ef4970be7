import { GraphQLID, GraphQLInputObjectType, GraphQLNonNull, GraphQLString, type GraphQLFieldConfigMap, type GraphQLNamedType, type GraphQLObjectType } from 'graphql';
import type { Registry } from '../schema/registry.js';
import { FILE_UID, type Model } from '../schema/types.js';
import { pluginsOf } from './plugin-deps.js';
import { accessOf, authorize, type GraphqlContext } from './resolve.js';

/**
 * The upload plugin's mutations as Strapi 5.54 generates them (`updateUploadFile`,
 * `deleteUploadFile`; no upload: files are uploaded over REST), on the upload service REST uses,
 * under the REST routes' actions: `plugin::upload.content-api.upload` to change a file's info,
 * `.destroy` to delete it. `id` is the file's numeric id.
 */

/** What a mutation contributor builds from (a part of the schema builder's `SchemaParts`). */
export interface ContributorParts {
  readonly registry: Registry;
  readonly objectOf: (model: Model) => GraphQLObjectType;
  readonly remember: <T extends GraphQLNamedType>(type: T) => T;
  readonly named: (name: string) => GraphQLNamedType | undefined;
}

type Args = Record<string, unknown>;
const UPLOAD = 'plugin::upload.content-api.upload';
const DESTROY = 'plugin::upload.content-api.destroy';

/** A file id as given (`"1"`); anything but digits finds no file. */
const fileId = (value: unknown): number => (typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : Number.NaN);
const text = (value: unknown): string | null | undefined => (typeof value === 'string' ? value : value === null ? null : undefined);

export function mediaMutations(parts: ContributorParts): GraphQLFieldConfigMap<unknown, GraphqlContext> {
  const fileModel = parts.registry.model(FILE_UID);
  if (!fileModel) return {};
  const file = parts.objectOf(fileModel);
  const known = parts.named('FileInfoInput');
  const info =
    known instanceof GraphQLInputObjectType
      ? known
      : parts.remember(new GraphQLInputObjectType({ name: 'FileInfoInput', fields: { name: { type: GraphQLString }, alternativeText: { type: GraphQLString }, caption: { type: GraphQLString } } }));
  return {
    updateUploadFile: {
      type: new GraphQLNonNull(file),
      args: { id: { type: new GraphQLNonNull(GraphQLID) }, info: { type: info } },
      resolve: async (_parent, args: Args, ctx) => {
        authorize(ctx, UPLOAD);
        const id = fileId(args.id);
        const given = (typeof args.info === 'object' && args.info !== null ? args.info : {}) as Args;
        await pluginsOf(ctx).media.updateInfo(id, { name: text(given.name), alternativeText: text(given.alternativeText), caption: text(given.caption) });
        return pluginsOf(ctx).media.one(id, accessOf(ctx));
      },
    },
    deleteUploadFile: {
      type: file,
      args: { id: { type: new GraphQLNonNull(GraphQLID) } },
      resolve: async (_parent, args: Args, ctx) => {
        authorize(ctx, DESTROY);
        const id = fileId(args.id);
        // Strapi answers the file as it was; an unknown id is null, not an error.
        const found = await pluginsOf(ctx).media.one(id, accessOf(ctx));
        if (!found || !(await pluginsOf(ctx).media.remove(id))) return null;
        return found;
      },
    },
  };
}
