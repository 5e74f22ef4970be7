import { GraphQLBoolean, GraphQLError, GraphQLID, GraphQLNonNull, GraphQLObjectType, GraphQLString, type GraphQLFieldConfig } from 'graphql';
import { forbidden } from '../errors/app-error.js';
import type { Access } from '../documents/index.js';
import type { DocumentQuery } from '../query/ast.js';
import { readOneQuery } from '../query/read-query.js';
import { USER_UID } from '../users/models.js';
import type { GraphqlContext } from './resolve.js';

/**
 * `me` (users-permissions): the signed-in user and their role. No token is FORBIDDEN; an API token
 * is no user, and Strapi answers that field with the internal error "Authentication requested".
 */
export interface MeDeps {
  readonly one: (id: number, query: DocumentQuery, access: Access) => Promise<Record<string, unknown> | null>;
}

const MeRole = new GraphQLObjectType({
  name: 'UsersPermissionsMeRole',
  fields: { id: { type: new GraphQLNonNull(GraphQLID) }, name: { type: new GraphQLNonNull(GraphQLString) }, description: { type: GraphQLString }, type: { type: GraphQLString } },
});

/** `UsersPermissionsMe`: also the `user` of the login payload (mutations-users.ts). */
export const MeType = new GraphQLObjectType({
  name: 'UsersPermissionsMe',
  fields: {
    id: { type: new GraphQLNonNull(GraphQLID) },
    documentId: { type: new GraphQLNonNull(GraphQLID) },
    username: { type: new GraphQLNonNull(GraphQLString) },
    email: { type: GraphQLString },
    confirmed: { type: GraphQLBoolean },
    blocked: { type: GraphQLBoolean },
    role: { type: MeRole },
  },
});

const ALLOW_ALL: Access = { canRead: () => true };

export const meField: GraphQLFieldConfig<unknown, GraphqlContext> = {
  type: MeType,
  resolve: async (_parent, _args, ctx) => {
    if (ctx.caller.kind === 'public') throw forbidden();
    if (ctx.caller.kind !== 'user' || ctx.caller.id === null) throw new GraphQLError('Authentication requested');
    if (!ctx.allows(`${USER_UID}.me`)) throw forbidden();
    const model = ctx.registry.contentType(USER_UID);
    if (!model) return null;
    const query = readOneQuery({ populate: { role: true } }, model, { registry: ctx.registry, limits: ctx.limits, canRead: () => true });
    return ctx.me.one(ctx.caller.id, query, ALLOW_ALL);
  },
};
