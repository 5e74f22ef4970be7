import type { Db } from '../db/database.js';
import { extensionDefaults, type DocumentService, type PreparedWrite } from '../documents/index.js';
import type { Registry } from '../schema/registry.js';
import { ROLE_MODEL, roleModel, USER_MODEL, userModel } from './models.js';
import { isRecord } from '../errors/is-record.js';

/**
 * The attributes a project's extension (`src/extensions/users-permissions/content-types/user`)
 * adds to the user, written the way Strapi's user service writes a request body: with the
 * database query layer, so given values are stored (relations and media by id or documentId)
 * and extra required attributes are not enforced. The plugin's own attributes are written by
 * accounts.ts and user-admin.ts, which keep their own rules.
 */


/** Stored defaults of the extension's extra scalars, for a new user row (register and POST /api/users alike). */
export const userDefaults = (registry: Registry): Promise<Record<string, unknown>> => extensionDefaults(userModel(registry), USER_MODEL);

/** Stored defaults of the role extension's extra scalars, for a new role row. */
export const roleDefaults = (registry: Registry): Promise<Record<string, unknown>> => extensionDefaults(roleModel(registry), ROLE_MODEL);

/** The part of a body that names attributes only the project's extension declares. */
function extraData(registry: Registry, body: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (!isRecord(body)) return out;
  for (const attr of userModel(registry).attributes.values()) {
    if (USER_MODEL.attributes.has(attr.name) || body[attr.name] === undefined) continue;
    out[attr.name] = body[attr.name];
  }
  return out;
}

/** Extra values checked and resolved, ready to be written with the user row. */
export type PreparedExtras = PreparedWrite;

/**
 * Checks the extra attributes of a body before anything is written (bad scalars and related ids
 * that do not exist are 400s) and resolves the documentIds it names. Everything read here is read
 * outside the write's transaction, which holds SQLite's one connection.
 */
export async function prepareExtras(args: { documents: DocumentService; body: unknown }): Promise<PreparedExtras> {
  const { documents } = args;
  const registry = documents.registry();
  const data = extraData(registry, args.body);
  if (Object.keys(data).length === 0) return { columns: {}, write: async () => undefined };
  return documents.prepareWrite({ model: userModel(registry), data, scope: { status: 'published', locale: null } });
}

/** Removes what hangs off user rows besides their links (media links, components of an extension). */
export async function deleteUserChildren(args: { documents: DocumentService; trx: Db; defaultLocale: string; userIds: readonly number[] }): Promise<void> {
  const { documents, trx, defaultLocale, userIds } = args;
  await documents.removeChildren({ trx, model: userModel(documents.registry()), rowIds: userIds, defaultLocale });
}
