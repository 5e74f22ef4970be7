import { ROLES_TABLE, SESSIONS_TABLE, USER_ROLE_LINK_TABLE, USERS_TABLE } from '../db/system-tables.js';
import type { BuiltInModels } from '../schema/built-ins.js';
import { parseContentType } from '../schema/parse.js';
import type { Registry } from '../schema/registry.js';
import type { ContentTypeModel } from '../schema/types.js';

/** The end-user model of users & permissions. */
export const USER_UID = 'plugin::users-permissions.user';
/** The role model of users & permissions. */
export const ROLE_UID = 'plugin::users-permissions.role';

/** Tables of the built-in users & permissions models (Strapi's names), named with the other system tables. */
export { ROLES_TABLE, SESSIONS_TABLE, USER_ROLE_LINK_TABLE, USERS_TABLE } from '../db/system-tables.js';

/** Strapi's `plugin::users-permissions.user` schema, attribute for attribute. */
const USER_SCHEMA = {
  kind: 'collectionType',
  collectionName: USERS_TABLE,
  info: { singularName: 'user', pluralName: 'users', displayName: 'User', description: '' },
  options: { draftAndPublish: false },
  attributes: {
    username: { type: 'string', minLength: 3, unique: true, configurable: false, required: true },
    email: { type: 'email', minLength: 6, configurable: false, required: true },
    provider: { type: 'string', configurable: false },
    password: { type: 'password', minLength: 6, configurable: false, private: true, searchable: false },
    resetPasswordToken: { type: 'string', configurable: false, private: true, searchable: false },
    confirmationToken: { type: 'string', configurable: false, private: true, searchable: false },
    confirmed: { type: 'boolean', default: false, configurable: false },
    blocked: { type: 'boolean', default: false, configurable: false },
    role: { type: 'relation', relation: 'manyToOne', target: ROLE_UID, inversedBy: 'users', configurable: false },
  },
};

/**
 * Strapi's `plugin::users-permissions.role` schema. Its `permissions` relation is left out:
 * Hearth keeps role permissions as action names in `hearth_permissions`, keyed by role type.
 */
const ROLE_SCHEMA = {
  kind: 'collectionType',
  collectionName: ROLES_TABLE,
  info: { singularName: 'role', pluralName: 'roles', displayName: 'Role', description: '' },
  options: { draftAndPublish: false },
  attributes: {
    name: { type: 'string', minLength: 3, required: true, configurable: false },
    description: { type: 'string', configurable: false },
    type: { type: 'string', unique: true, configurable: false },
    users: { type: 'relation', relation: 'oneToMany', target: USER_UID, mappedBy: 'role', configurable: false },
  },
};

function builtIn(schema: Record<string, unknown>, uid: string, name: string): ContentTypeModel {
  const parsed = parseContentType(schema, 'users-permissions', name, uid);
  return { ...parsed, uid, builtIn: true };
}

/** `plugin::users-permissions.user`: filters, sort, fields, populate and relations work on it like on any model. */
export const USER_MODEL: ContentTypeModel = builtIn(USER_SCHEMA, USER_UID, 'user');
/** `plugin::users-permissions.role`. */
export const ROLE_MODEL: ContentTypeModel = builtIn(ROLE_SCHEMA, ROLE_UID, 'role');

/** Users & permissions' built-in models, their tables and indexes: handed to the project loader and the registry (schema/built-ins.ts). */
export const USERS_PERMISSIONS: BuiltInModels = {
  plugin: 'users-permissions',
  models: [USER_MODEL, ROLE_MODEL],
  tables: [USERS_TABLE, ROLES_TABLE, USER_ROLE_LINK_TABLE, SESSIONS_TABLE],
  // Beyond the tables themselves (db/migrations.ts): their indexes, and the ones PostgreSQL names after unique columns.
  indexes: [
    'up_users_email_idx',
    'up_users_role_lnk_entity_idx',
    'up_users_role_lnk_target_idx',
    'up_sessions_user_idx',
    'up_sessions_family_idx',
    'up_roles_type_key',
    'up_users_username_key',
    'up_sessions_session_id_key',
  ],
};

/** The user model the project serves: the plugin's, or the project's extension of it. */
export const userModel = (registry: Registry): ContentTypeModel => registry.contentType(USER_UID) ?? USER_MODEL;
/** The role model the project serves: the plugin's, or the project's extension of it. */
export const roleModel = (registry: Registry): ContentTypeModel => registry.contentType(ROLE_UID) ?? ROLE_MODEL;
