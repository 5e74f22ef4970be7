import type { Db } from '../db/database.js';
import { writeEnv, type DocumentDeps } from '../documents/context.js';
import { extensionDefaults, scalarColumns } from '../documents/scalars.js';
import { deleteChildren, missingRelations, resolveBodyRefs, writeRelational } from '../documents/store.js';
import { validationError } from '../errors/app-error.js';
import type { Registry } from '../schema/registry.js';
import { ROLE_MODEL, roleModel, USER_MODEL, userModel } from './models.js';

/**
 * The attributes a project's extension (`src/extensions/users-permissions/content-types/user`)
 * adds to the user, written the way Strapi's user service writes a request body: with the
 * database query layer, so given values are stored (relations and media by id or documentId)
 * and extra required attributes are not enforced. The plugin's own attributes are written by
 * accounts.ts and user-admin.ts, which keep their own rules.
 */

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Stored defaults of the extension's extra scalars, for a new user row (register and POST /api/users alike). */
export const userDefaults = (registry: Registry): Promise<Record<string, unknown>> => extensionDefaults(userModel(registry), USER_MODEL);

/** Stored defaults of the role extension's extra scalars, for a new role row. */
export const roleDefaults = (registry: Registry): Promise<Record<string, unknown>> => extensionDefaults(roleModel(registry), ROLE_MODEL);

/** The part of a body that names attributes only the project's extension declares. */
function extraData(documents: DocumentDeps, body: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (!isRecord(body)) return out;
  for (const attr of userModel(documents.registry).attributes.values()) {
    if (USER_MODEL.attributes.has(attr.name) || body[attr.name] === undefined) continue;
    out[attr.name] = body[attr.name];
  }
  return out;
}

/** Extra values checked and resolved, ready to be written with the user row. */
export interface PreparedExtras {
  /** Stored values of the extra scalar attributes, for the row itself. */
  readonly columns: Record<string, unknown>;
  /** Writes the extra relations, media and components of the row, inside the caller's transaction. */
  write(trx: Db, userId: number): Promise<void>;
}

/**
 * Checks the extra attributes of a body before anything is written (bad scalars and related ids
 * that do not exist are 400s) and resolves the documentIds it names. Everything read here is read
 * outside the write's transaction, which holds SQLite's one connection.
 */
export async function prepareExtras(args: { documents: DocumentDeps; db: Db; body: unknown }): Promise<PreparedExtras> {
  const { documents, db } = args;
  const data = extraData(documents, args.body);
  if (Object.keys(data).length === 0) return { columns: {}, write: async () => undefined };
  const model = userModel(documents.registry);
  const columns = await scalarColumns(model, data);
  const defaultLocale = await documents.locales.defaultCode();
  const env = writeEnv(documents, db, defaultLocale);
  const missing = await missingRelations(env, model, data);
  if (missing !== null) throw validationError(missing);
  const scope = { status: 'published', locale: null } as const;
  const resolved = await resolveBodyRefs(env, model, data, scope);
  return {
    columns,
    write: (trx, userId) => writeRelational(writeEnv(documents, trx, defaultLocale), model, userId, data, scope, resolved),
  };
}

/** Removes what hangs off user rows besides their links (media links, components of an extension). */
export async function deleteUserChildren(args: { documents: DocumentDeps; trx: Db; defaultLocale: string; userIds: readonly number[] }): Promise<void> {
  const { documents, trx, defaultLocale, userIds } = args;
  await deleteChildren(writeEnv(documents, trx, defaultLocale), userModel(documents.registry), userIds);
}
