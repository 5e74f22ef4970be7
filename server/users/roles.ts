import type { PermissionService } from '../auth/permissions.js';
import type { Selectable } from 'kysely';
import type { Db } from '../db/database.js';
import { PERMISSIONS_TABLE, type RoleTable } from '../db/system-tables.js';
import { newDocumentId } from '../documents/index.js';
import { AppError, applicationError, notFound } from '../errors/app-error.js';
import type { Registry } from '../schema/registry.js';
import { DEFAULT_ROLE_ACTIONS } from './actions.js';
import { ROLES_TABLE, USER_ROLE_LINK_TABLE } from './models.js';
import { invalidFields, readRoleInput, roleTypeOf } from './role-input.js';
import { roleDefaults } from './user-extras.js';

/** A role of the content API. */
export interface Role {
  readonly id: number;
  readonly documentId: string;
  readonly name: string;
  readonly description: string;
  readonly type: string;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly publishedAt: string | null;
}

/** The two roles every install has; `public` answers requests without credentials. */
const BUILT_IN: readonly { type: 'authenticated' | 'public'; name: string; description: string }[] = [
  { type: 'authenticated', name: 'Authenticated', description: 'Default role given to authenticated user.' },
  { type: 'public', name: 'Public', description: 'Default role given to unauthenticated user.' },
];
const isBuiltIn = (type: string) => type === 'public' || type === 'authenticated';

/** A stored role (its built-in columns). */
type RoleRow = Selectable<RoleTable>;

function toRole(row: RoleRow): Role {
  return {
    id: row.id,
    documentId: row.documentId,
    name: row.name,
    description: row.description ?? '',
    type: row.type,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    publishedAt: row.publishedAt ?? null,
  };
}

async function insertRole(db: Db, at: string, values: { name: string; description: string; type: string }, defaults: Record<string, unknown>): Promise<RoleRow | undefined> {
  return db
    .insertInto(ROLES_TABLE)
    .values({ ...defaults, documentId: newDocumentId(), ...values, createdAt: at, updatedAt: at, publishedAt: at, locale: null })
    .onConflict((oc) => oc.column('type').doNothing())
    .returningAll()
    .executeTakeFirst();
}

/**
 * Creates the built-in roles with Strapi's default permissions, once per data dir (the CLI may run
 * first). `defaults` are the role extension's (the server passes them once its schema is synced).
 */
export async function ensureDefaultRoles(deps: { db: Db; permissions: PermissionService; now: () => Date; defaults?: Record<string, unknown> }): Promise<void> {
  for (const role of BUILT_IN) {
    const created = await insertRole(deps.db, deps.now().toISOString(), role, deps.defaults ?? {});
    if (created) await deps.permissions.grant(role.type, DEFAULT_ROLE_ACTIONS[role.type]);
  }
}

/** The role of a type, if there is one. */
export async function findRoleByType(db: Db, type: string): Promise<Role | undefined> {
  const row = await db.selectFrom(ROLES_TABLE).selectAll().where('type', '=', type).executeTakeFirst();
  return row ? toRole(row) : undefined;
}

/** Roles and their permissions: the built-in `public` and `authenticated`, and custom roles. */
export function createRoleService(deps: { db: Db; permissions: PermissionService; now: () => Date; registry: () => Registry }) {
  const { db, permissions, now } = deps;

  async function userCounts(): Promise<Map<number, number>> {
    const rows = await db
      .selectFrom(USER_ROLE_LINK_TABLE)
      .select(['target_id', (eb) => eb.fn.countAll<number>().as('n')])
      .groupBy('target_id')
      .execute();
    return new Map(rows.map((r) => [r.target_id, r.n]));
  }

  async function require(id: number): Promise<Role> {
    const row = Number.isSafeInteger(id) ? await db.selectFrom(ROLES_TABLE).selectAll().where('id', '=', id).executeTakeFirst() : undefined;
    if (!row) throw notFound('Role not found');
    return toRole(row);
  }

  const service = {
    /** Creates the built-in roles with Strapi's default permissions, once per data dir. */
    ensureDefaults: async (): Promise<void> => ensureDefaultRoles({ db, permissions, now, defaults: await roleDefaults(deps.registry()) }),

    /** Every role with its user count: `public`, `authenticated`, then custom roles by name. */
    async list(): Promise<(Role & { nb_users: number })[]> {
      const rows = await db.selectFrom(ROLES_TABLE).selectAll().orderBy('name').orderBy('id').execute();
      const counts = await userCounts();
      const rank = (r: Role) => (r.type === 'public' ? 0 : r.type === 'authenticated' ? 1 : 2);
      return rows
        .map(toRole)
        .sort((a, b) => rank(a) - rank(b))
        .map((r) => ({ ...r, nb_users: counts.get(r.id) ?? 0 }));
    },

    /** A role and its actions; 404 `Role not found` when there is none. */
    async get(id: number): Promise<Role & { permissions: string[] }> {
      const role = await require(id);
      return { ...role, permissions: await permissions.list(role.type) };
    },

    /** The role of a type, if there is one. */
    byType: (type: string): Promise<Role | undefined> => findRoleByType(db, type),

    /** Creates a custom role; its type is derived from its name and must be free. */
    async create(body: unknown): Promise<Role & { permissions: string[] }> {
      const input = readRoleInput(body, deps.registry(), true);
      const name = input.name ?? '';
      const type = roleTypeOf(name);
      const row = await insertRole(db, now().toISOString(), { name, description: input.description ?? '', type }, await roleDefaults(deps.registry()));
      if (!row) throw invalidFields([{ path: ['name'], message: 'Name already taken', name: 'ValidationError' }]);
      const role = toRole(row);
      await permissions.replace(role.type, input.permissions ?? []);
      return service.get(role.id);
    },

    /** Renames, redescribes, or replaces the whole permission set of a role (its type never changes). */
    async update(id: number, body: unknown): Promise<Role & { permissions: string[] }> {
      const role = await require(id);
      const input = readRoleInput(body, deps.registry(), false);
      const changes: Record<string, unknown> = { updatedAt: now().toISOString() };
      if (input.name !== undefined) changes.name = input.name;
      if (input.description !== undefined) changes.description = input.description;
      await db.updateTable(ROLES_TABLE).set(changes).where('id', '=', role.id).execute();
      if (input.permissions !== undefined) await permissions.replace(role.type, input.permissions);
      return service.get(role.id);
    },

    /** Deletes a custom role; its users move to the public role and its permissions go, as in Strapi. */
    async remove(id: number): Promise<Role & { permissions: string[] }> {
      const role = await service.get(id);
      if (isBuiltIn(role.type)) throw applicationError(`Cannot delete ${role.type} role`);
      const fallback = await service.byType('public');
      if (!fallback) throw new AppError('InternalServerError', 'the public role is missing');
      await db.transaction().execute(async (trx) => {
        await trx.updateTable(USER_ROLE_LINK_TABLE).set({ target_id: fallback.id }).where('target_id', '=', role.id).execute();
        await trx.deleteFrom(PERMISSIONS_TABLE).where('role', '=', role.type).execute();
        await trx.deleteFrom(ROLES_TABLE).where('id', '=', role.id).execute();
      });
      return role;
    },

    /** The role of a user, or undefined for a user without one. */
    async ofUser(userId: number): Promise<Role | undefined> {
      const row = await db
        .selectFrom(USER_ROLE_LINK_TABLE)
        .innerJoin(ROLES_TABLE, `${ROLES_TABLE}.id`, `${USER_ROLE_LINK_TABLE}.target_id`)
        .selectAll(ROLES_TABLE)
        .where(`${USER_ROLE_LINK_TABLE}.entity_id`, '=', userId)
        .orderBy(`${USER_ROLE_LINK_TABLE}.id`)
        .executeTakeFirst();
      return row ? toRole(row) : undefined;
    },

    /** Sets a user's role (manyToOne: the one link row of the user). */
    async assign(userId: number, roleId: number): Promise<void> {
      await db.deleteFrom(USER_ROLE_LINK_TABLE).where('entity_id', '=', userId).execute();
      await db.insertInto(USER_ROLE_LINK_TABLE).values({ entity_id: userId, target_id: roleId, ord: 1, inv_ord: null }).execute();
    },
  };
  return service;
}

/** Roles of users & permissions. */
export type RoleService = ReturnType<typeof createRoleService>;
