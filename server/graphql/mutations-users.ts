import {
  GraphQLBoolean, GraphQLID, GraphQLInputObjectType, GraphQLNonNull, GraphQLObjectType, GraphQLString,
  type GraphQLFieldConfig, type GraphQLFieldConfigMap, type GraphQLNamedType,
} from 'graphql';
import { applicationError, validationError } from '../errors/app-error.js';
import type { ContentTypeModel } from '../schema/types.js';
import { ROLE_UID, USER_UID } from '../users/models.js';
import type { AuthAnswer } from '../users/auth-flows.js';
import { MeType } from './me.js';
import type { ContributorParts } from './mutations-media.js';
import { pluginsOf } from './plugin-deps.js';
import { accessOf, authorize, type GraphqlContext } from './resolve.js';

/**
 * The users & permissions mutations of Strapi 5.54's schema: `login`, `register`,
 * `forgotPassword`, `resetPassword`, `changePassword`, `emailConfirmation`, and the user and role
 * CRUD (`createUsersPermissionsUser(data)`, `updateUsersPermissionsUser(id, data)`,
 * `deleteUsersPermissionsUser(id)`, `create/update/deleteUsersPermissionsRole`). Each runs the
 * service its REST route runs, after the REST route's permission check and, for the auth
 * operations, its rate limit (one budget with REST: a GraphQL login counts as a `/api/auth/local`
 * attempt), so messages and details are REST's. Strapi skips the permission check and the rate
 * limit on the auth mutations (`auth: false`, the controller called directly); Hearth does not.
 */

type Args = Record<string, unknown>;
type Field = GraphQLFieldConfig<unknown, GraphqlContext, Args>;
const AUTH = 'plugin::users-permissions.auth';

/** The REST action and rate-limited path of each auth mutation. */
const ROUTES = {
  login: { action: `${AUTH}.callback`, path: '/api/auth/local' },
  register: { action: `${AUTH}.register`, path: '/api/auth/local/register' },
  forgotPassword: { action: `${AUTH}.forgotPassword`, path: '/api/auth/forgot-password' },
  resetPassword: { action: `${AUTH}.resetPassword`, path: '/api/auth/reset-password' },
  changePassword: { action: `${AUTH}.changePassword`, path: '/api/auth/change-password' },
  emailConfirmation: { action: `${AUTH}.emailConfirmation`, path: null },
} as const;

/** The permission check, then (for rate-limited routes) one attempt counted against the route's budget. */
async function guard(ctx: GraphqlContext, route: keyof typeof ROUTES, body: unknown): Promise<void> {
  const { action, path } = ROUTES[route];
  authorize(ctx, action);
  if (path === null) return;
  const plugins = pluginsOf(ctx);
  await plugins.users.rateLimit(plugins.req, plugins.res, body, path);
}

const userAgent = (ctx: GraphqlContext) => pluginsOf(ctx).req.headers['user-agent'];
/** `{ jwt, user }`: a refresh token issued in refresh mode is not part of the payload (Strapi's resolvers drop it too). */
const payload = (answer: AuthAnswer) => ({ jwt: answer.jwt, user: answer.user });
const numericId = (value: unknown): number => (typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : Number.NaN);
const auth = (ctx: GraphqlContext) => pluginsOf(ctx).users.auth;
const plain = (value: unknown): Args => (typeof value === 'object' && value !== null ? { ...(value as Args) } : {});

/** A named type made once per schema. */
function once<T extends GraphQLNamedType>(parts: ContributorParts, name: string, make: () => T, is: (t: GraphQLNamedType) => t is T): T {
  const known = parts.named(name);
  return known && is(known) ? known : parts.remember(make());
}
const isObject = (t: GraphQLNamedType): t is GraphQLObjectType => t instanceof GraphQLObjectType;
const isInput = (t: GraphQLNamedType): t is GraphQLInputObjectType => t instanceof GraphQLInputObjectType;
const okPayload = (parts: ContributorParts, name: string) =>
  once(parts, name, () => new GraphQLObjectType({ name, fields: { ok: { type: new GraphQLNonNull(GraphQLBoolean) } } }), isObject);

function authMutations(parts: ContributorParts): Record<string, Field> {
  const login = once(parts, 'UsersPermissionsLoginPayload', () => new GraphQLObjectType({ name: 'UsersPermissionsLoginPayload', fields: { jwt: { type: GraphQLString }, user: { type: new GraphQLNonNull(MeType) } } }), isObject);
  const str = { type: new GraphQLNonNull(GraphQLString) };
  const loginInput = once(parts, 'UsersPermissionsLoginInput', () => new GraphQLInputObjectType({ name: 'UsersPermissionsLoginInput', fields: { identifier: str, password: str, provider: { ...str, defaultValue: 'local' } } }), isInput);
  const registerInput = once(parts, 'UsersPermissionsRegisterInput', () => new GraphQLInputObjectType({ name: 'UsersPermissionsRegisterInput', fields: { username: str, email: str, password: str } }), isInput);
  return {
    login: {
      type: new GraphQLNonNull(login),
      args: { input: { type: new GraphQLNonNull(loginInput) } },
      resolve: async (_p, args, ctx) => {
        const { provider, ...body } = plain(args.input);
        await guard(ctx, 'login', body);
        if (provider !== 'local') throw applicationError('This provider is disabled');
        return payload(await auth(ctx).login({ body, access: accessOf(ctx), userAgent: userAgent(ctx) }));
      },
    },
    register: {
      type: new GraphQLNonNull(login),
      description: 'Register a user',
      args: { input: { type: new GraphQLNonNull(registerInput) } },
      resolve: async (_p, args, ctx) => {
        const body = plain(args.input);
        await guard(ctx, 'register', body);
        return payload(await auth(ctx).register({ body, access: accessOf(ctx), userAgent: userAgent(ctx) }));
      },
    },
    forgotPassword: {
      type: okPayload(parts, 'UsersPermissionsPasswordPayload'),
      description: 'Request a reset password token',
      args: { email: str },
      resolve: async (_p, args, ctx) => {
        const body = { email: args.email };
        await guard(ctx, 'forgotPassword', body);
        return auth(ctx).forgotPassword(body);
      },
    },
    resetPassword: {
      type: login,
      description: 'Reset user password. Confirm with a code (resetToken from forgotPassword)',
      args: { password: str, passwordConfirmation: str, code: str },
      resolve: async (_p, args, ctx) => {
        const body = { password: args.password, passwordConfirmation: args.passwordConfirmation, code: args.code };
        await guard(ctx, 'resetPassword', body);
        return payload(await auth(ctx).resetPassword({ body, access: accessOf(ctx), userAgent: userAgent(ctx) }));
      },
    },
    changePassword: {
      type: login,
      description: 'Change user password. Confirm with the current password.',
      args: { currentPassword: str, password: str, passwordConfirmation: str },
      resolve: async (_p, args, ctx) => {
        const body = { currentPassword: args.currentPassword, password: args.password, passwordConfirmation: args.passwordConfirmation };
        await guard(ctx, 'changePassword', body);
        const identity = pluginsOf(ctx).users.identify(pluginsOf(ctx).caller);
        return payload(await auth(ctx).changePassword({ body, access: accessOf(ctx), identity, userAgent: userAgent(ctx) }));
      },
    },
    emailConfirmation: {
      type: login,
      description: 'Confirm an email users email address',
      args: { confirmation: str },
      resolve: async (_p, args, ctx) => {
        await guard(ctx, 'emailConfirmation', null);
        return auth(ctx).emailConfirmation({ confirmation: args.confirmation });
      },
    },
  };
}

/** The user and role CRUD, on the services of `/api/users` and `/api/users-permissions/roles`. */
function crudMutations(parts: ContributorParts, user: ContentTypeModel, inputOf: (model: ContentTypeModel) => GraphQLInputObjectType): Record<string, Field> {
  const userType = parts.objectOf(user);
  const response = once(parts, 'UsersPermissionsUserEntityResponse', () => new GraphQLObjectType({ name: 'UsersPermissionsUserEntityResponse', fields: { data: { type: userType } } }), isObject);
  const userData = { data: { type: new GraphQLNonNull(inputOf(user)) } };
  const id = { id: { type: new GraphQLNonNull(GraphQLID) } };
  const role = parts.registry.contentType(ROLE_UID);
  const USER = USER_UID;
  const fields: Record<string, Field> = {};
  if (role) {
    const roleData = { data: { type: new GraphQLNonNull(inputOf(role)) } };
    /** Hearth's roles hold action names, not permission rows: `permissions` and `users` ids are not taken from a role input. */
    const roleBody = (data: unknown): Args => {
      const { permissions: _permissions, users: _users, publishedAt: _publishedAt, locale: _locale, ...rest } = plain(data);
      if (Object.keys(rest).length === 0) throw validationError('Request body cannot be empty');
      return rest;
    };
    fields.createUsersPermissionsRole = {
      type: okPayload(parts, 'UsersPermissionsCreateRolePayload'),
      description: 'Create a new role',
      args: roleData,
      resolve: async (_p, args, ctx) => {
        authorize(ctx, `${ROLE_UID}.createRole`);
        await pluginsOf(ctx).users.roles.create(roleBody(args.data));
        return { ok: true };
      },
    };
    fields.updateUsersPermissionsRole = {
      type: okPayload(parts, 'UsersPermissionsUpdateRolePayload'),
      description: 'Update an existing role',
      args: { ...id, ...roleData },
      resolve: async (_p, args, ctx) => {
        authorize(ctx, `${ROLE_UID}.updateRole`);
        await pluginsOf(ctx).users.roles.update(numericId(args.id), roleBody(args.data));
        return { ok: true };
      },
    };
    fields.deleteUsersPermissionsRole = {
      type: okPayload(parts, 'UsersPermissionsDeleteRolePayload'),
      description: 'Delete an existing role',
      args: id,
      resolve: async (_p, args, ctx) => {
        authorize(ctx, `${ROLE_UID}.deleteRole`);
        await pluginsOf(ctx).users.roles.remove(numericId(args.id));
        return { ok: true };
      },
    };
  }
  fields.createUsersPermissionsUser = {
    type: new GraphQLNonNull(response),
    description: 'Create a new user',
    args: userData,
    resolve: async (_p, args, ctx) => {
      authorize(ctx, `${USER}.create`);
      return { data: await pluginsOf(ctx).users.admin.create(plain(args.data), accessOf(ctx)) };
    },
  };
  fields.updateUsersPermissionsUser = {
    type: new GraphQLNonNull(response),
    description: 'Update an existing user',
    args: { ...id, ...userData },
    resolve: async (_p, args, ctx) => {
      authorize(ctx, `${USER}.update`);
      return { data: await pluginsOf(ctx).users.admin.update(numericId(args.id), plain(args.data), accessOf(ctx)) };
    },
  };
  fields.deleteUsersPermissionsUser = {
    type: new GraphQLNonNull(response),
    description: 'Delete an existing user',
    args: id,
    resolve: async (_p, args, ctx) => {
      authorize(ctx, `${USER}.destroy`);
      return { data: await pluginsOf(ctx).users.admin.remove(numericId(args.id), accessOf(ctx)) };
    },
  };
  return fields;
}

/** Every users & permissions mutation, in the order Strapi's schema lists them; none without the user content type. */
export function usersMutations(parts: ContributorParts & { readonly inputOf: (model: ContentTypeModel) => GraphQLInputObjectType }): GraphQLFieldConfigMap<unknown, GraphqlContext> {
  const user = parts.registry.contentType(USER_UID);
  if (!user) return {};
  const auth = authMutations(parts);
  const crud = crudMutations(parts, user, parts.inputOf);
  const { login, register, ...rest } = auth;
  return { ...crud, ...(login ? { login } : {}), ...(register ? { register } : {}), ...rest };
}
