import { USER_UID } from '../users/models.js';
import { namedDocumentRef, type ModelEnv } from './models.js';
import { errorResponses, type Operation, type PathItem } from './responses.js';
import type { JsonSchema } from './schema-set.js';

/**
 * Users & permissions on the content API (http/users-api.ts, users-auth.ts): login and
 * registration, the password and session routes, `/api/users*` (bare arrays and objects, as the
 * plugin's controllers answer) and `/api/users-permissions/roles*`, each listed only when the
 * caller may call its `plugin::users-permissions.*` action.
 */

const UP = 'plugin::users-permissions';
const tags = ['Users & permissions'];

const str: JsonSchema = { type: 'string' };
const obj = (properties: Record<string, JsonSchema>, required: string[] = [], extra = false): JsonSchema => ({
  type: 'object',
  ...(required.length > 0 ? { required } : {}),
  properties,
  ...(extra ? { additionalProperties: true } : {}),
});
const json = (schema: JsonSchema, description: string): JsonSchema => ({ description, content: { 'application/json': { schema } } });
const body = (schema: JsonSchema): JsonSchema => ({ required: true, content: { 'application/json': { schema } } });
const OK = obj({ ok: { type: 'boolean', const: true } }, ['ok']);
const ID: JsonSchema = { name: 'id', in: 'path', required: true, schema: { type: 'integer' } };

/** Query parameters of the users routes: Strapi's filters, sort, fields and populate, and `start` / `limit`. */
const USER_QUERY: JsonSchema[] = [
  { name: 'filters', in: 'query', style: 'deepObject', explode: true, description: 'Filters on user attributes, as `filters[username][$eq]=ada`.', schema: { type: 'object', additionalProperties: true } },
  { name: 'sort', in: 'query', style: 'form', explode: false, description: 'Sort order, as `sort=username:asc`.', schema: { type: 'array', items: str } },
  { name: 'fields', in: 'query', style: 'form', explode: false, description: 'The attributes to answer.', schema: { type: 'array', items: str } },
  { name: 'populate', in: 'query', style: 'deepObject', explode: true, description: 'Relations to include, as `populate=role`.', schema: { anyOf: [str, { type: 'array', items: str }, { type: 'object', additionalProperties: true }] } },
];
const WINDOW: JsonSchema[] = [
  { name: 'start', in: 'query', description: 'Users to skip.', schema: { type: 'integer', minimum: 0 } },
  { name: 'limit', in: 'query', description: 'Most users to answer (-1: all, up to the cap).', schema: { type: 'integer' } },
];

/** A user as written by `POST` / `PUT /api/users`: the account's fields and any custom attribute. */
const USER_INPUT = obj(
  {
    username: str,
    email: { type: 'string', format: 'email' },
    password: str,
    role: { type: ['integer', 'string'], description: 'Role id' },
    confirmed: { type: 'boolean' },
    blocked: { type: 'boolean' },
  },
  [],
  true,
);

/** A role as `GET /api/users-permissions/roles` lists it. */
const ROLE: JsonSchema = obj(
  {
    id: { type: 'integer' },
    documentId: str,
    name: str,
    description: str,
    type: str,
    createdAt: { type: 'string', format: 'date-time' },
    updatedAt: { type: 'string', format: 'date-time' },
    publishedAt: { type: ['string', 'null'], format: 'date-time' },
  },
  ['id', 'name', 'type'],
);
/** Strapi's nested permissions map: `{ 'api::article': { controllers: { article: { find: { enabled, policy } } } } }`. */
const PERMISSIONS_MAP: JsonSchema = {
  type: 'object',
  additionalProperties: obj({ controllers: { type: 'object', additionalProperties: { type: 'object', additionalProperties: obj({ enabled: { type: 'boolean' }, policy: str }) } } }),
};
const ROLE_INPUT = obj({ name: str, description: str, type: str, permissions: { description: 'The nested permissions map, or a list of action names', anyOf: [PERMISSIONS_MAP, { type: 'array', items: str }] } }, [], true);

export function usersPaths(env: ModelEnv & { readonly canCall: (action: string) => boolean }): Record<string, PathItem> {
  const model = env.registry.contentType(USER_UID);
  if (!model) return {};
  const may = (action: string) => env.canCall(`${UP}.${action}`);
  const errors = () => errorResponses(env.set);
  const user = () => namedDocumentRef(env, model, 'UsersPermissionsUser');
  const auth = () =>
    env.set.ref('UsersPermissionsAuth', () =>
      obj({ jwt: str, refreshToken: { type: 'string', description: 'Refresh mode only (in the body, or in the refresh cookie for a browser login)' }, user: user() }, ['jwt', 'user']),
    );
  const op = (operationId: string, summary: string, rest: Omit<Operation, 'tags' | 'operationId' | 'summary' | 'responses'> & { responses: Record<string, JsonSchema> }): Operation => ({
    tags,
    operationId,
    summary,
    ...rest,
    responses: { ...rest.responses, ...errors() },
  });
  const out: Record<string, PathItem> = {};
  const add = (path: string, method: keyof PathItem, action: string, build: () => Operation) => {
    if (may(action)) out[path] = { ...out[path], [method]: build() };
  };

  add('/api/auth/local', 'post', 'auth.callback', () =>
    op('login', 'Log in with a username or e-mail and a password', { requestBody: body(obj({ identifier: str, password: str }, ['identifier', 'password'])), responses: { 200: json(auth(), 'The session and the user') } }),
  );
  add('/api/auth/local/register', 'post', 'auth.register', () =>
    op('register', 'Register an account (when registration is open)', {
      requestBody: body(obj({ username: str, email: { type: 'string', format: 'email' }, password: str }, ['username', 'email', 'password'], true)),
      responses: { 200: json(auth(), 'The session and the new user') },
    }),
  );
  add('/api/auth/forgot-password', 'post', 'auth.forgotPassword', () =>
    op('forgotPassword', 'Ask for a password reset', { requestBody: body(obj({ email: { type: 'string', format: 'email' } }, ['email'])), responses: { 200: json(OK, 'Always ok') } }),
  );
  add('/api/auth/reset-password', 'post', 'auth.resetPassword', () =>
    op('resetPassword', 'Reset a password with the code sent by e-mail', { requestBody: body(obj({ code: str, password: str, passwordConfirmation: str }, ['code', 'password', 'passwordConfirmation'])), responses: { 200: json(auth(), 'The session and the user') } }),
  );
  add('/api/auth/change-password', 'post', 'auth.changePassword', () =>
    op('changePassword', 'Change the signed-in user’s password', {
      requestBody: body(obj({ currentPassword: str, password: str, passwordConfirmation: str }, ['currentPassword', 'password', 'passwordConfirmation'])),
      responses: { 200: json(auth(), 'The new session and the user') },
    }),
  );
  add('/api/auth/send-email-confirmation', 'post', 'auth.sendEmailConfirmation', () =>
    op('sendEmailConfirmation', 'Send the e-mail confirmation again', { requestBody: body(obj({ email: { type: 'string', format: 'email' } }, ['email'])), responses: { 200: json(obj({ email: str, sent: { type: 'boolean', const: true } }, ['email', 'sent']), 'Sent') } }),
  );
  add('/api/auth/refresh', 'post', 'auth.refresh', () =>
    op('refreshSession', 'Trade a refresh token (body or cookie) for a new access token (refresh mode)', { requestBody: { content: { 'application/json': { schema: obj({ refreshToken: str }) } } }, responses: { 200: json(obj({ jwt: str, refreshToken: str }, ['jwt']), 'A new access token') } }),
  );
  add('/api/auth/logout', 'post', 'auth.logout', () =>
    op('logout', 'End the session of a refresh token (refresh mode)', { requestBody: { content: { 'application/json': { schema: obj({ refreshToken: str, deviceId: str }) } } }, responses: { 200: json(OK, 'Logged out') } }),
  );

  add('/api/users', 'get', 'user.find', () => op('findUsersPermissionsUsers', 'List users (a bare array)', { parameters: [...USER_QUERY, ...WINDOW], responses: { 200: json({ type: 'array', items: user() }, 'Users') } }));
  add('/api/users', 'post', 'user.create', () =>
    op('createUsersPermissionsUser', 'Create a user', { requestBody: body(env.set.ref('UsersPermissionsUserInput', () => USER_INPUT)), responses: { 201: json(user(), 'The user') } }),
  );
  add('/api/users/count', 'get', 'user.count', () => op('countUsersPermissionsUsers', 'Count users', { parameters: USER_QUERY.slice(0, 1), responses: { 200: json({ type: 'integer' }, 'How many users match') } }));
  add('/api/users/me', 'get', 'user.me', () =>
    op('findMe', 'The user of the JWT sent (401 for any other credential)', { parameters: USER_QUERY.slice(2), responses: { 200: json(user(), 'The signed-in user') } }),
  );
  const noUser = { description: 'No user with this id (an empty answer, as Strapi’s)' };
  add('/api/users/{id}', 'get', 'user.findOne', () => op('findOneUsersPermissionsUser', 'Get a user', { parameters: [ID, ...USER_QUERY.slice(2)], responses: { 200: json(user(), 'The user'), 204: noUser } }));
  add('/api/users/{id}', 'put', 'user.update', () =>
    op('updateUsersPermissionsUser', 'Update a user', { parameters: [ID], requestBody: body(env.set.ref('UsersPermissionsUserInput', () => USER_INPUT)), responses: { 200: json(user(), 'The user') } }),
  );
  add('/api/users/{id}', 'delete', 'user.destroy', () => op('deleteUsersPermissionsUser', 'Delete a user', { parameters: [ID], responses: { 200: json(user(), 'The deleted user'), 204: noUser } }));

  const role = () => env.set.ref('UsersPermissionsRole', () => ROLE);
  const roleInput = () => env.set.ref('UsersPermissionsRoleInput', () => ROLE_INPUT);
  const roles = '/api/users-permissions/roles';
  add(roles, 'get', 'role.find', () =>
    op('findUsersPermissionsRoles', 'List roles with their user counts', { responses: { 200: json(obj({ roles: { type: 'array', items: { allOf: [role(), obj({ nb_users: { type: 'integer' } })] } } }, ['roles']), 'Roles') } }),
  );
  add(roles, 'post', 'role.createRole', () => op('createUsersPermissionsRole', 'Create a role', { requestBody: body(roleInput()), responses: { 200: json(OK, 'Created') } }));
  add(`${roles}/{id}`, 'get', 'role.findOne', () =>
    op('findOneUsersPermissionsRole', 'Get a role with its permissions', { parameters: [ID], responses: { 200: json(obj({ role: { allOf: [role(), obj({ permissions: PERMISSIONS_MAP })] } }, ['role']), 'The role') } }),
  );
  add(`${roles}/{id}`, 'put', 'role.updateRole', () => op('updateUsersPermissionsRole', 'Update a role', { parameters: [ID], requestBody: body(roleInput()), responses: { 200: json(OK, 'Updated') } }));
  add(`${roles}/{id}`, 'delete', 'role.deleteRole', () => op('deleteUsersPermissionsRole', 'Delete a role (its users move to the default role)', { parameters: [ID], responses: { 200: json(OK, 'Deleted') } }));
  add('/api/users-permissions/permissions', 'get', 'permissions.getPermissions', () =>
    op('getUsersPermissionsPermissions', 'Every content API action, as the nested permissions map', { responses: { 200: json(obj({ permissions: PERMISSIONS_MAP }, ['permissions']), 'The actions') } }),
  );
  return out;
}
