import type { Db } from '../db/database.js';
import { PERMISSIONS_TABLE } from '../db/system-tables.js';

/** Roles of the content API; `public` answers requests with no Authorization header. */
export const BUILT_IN_ROLES = ['public', 'authenticated'] as const;

/** Well-formed action names: `api::<api>.<type>.<action>` or `plugin::<plugin>.<controller>.<action>`. */
const ACTION = /^(api::[a-z0-9-]+\.[a-z0-9-]+|plugin::[a-z0-9-]+\.[a-z0-9-]+)\.[A-Za-z][A-Za-z0-9]*$/;
export const isWellFormedAction = (action: string): boolean => ACTION.test(action);

/** Role permissions: which actions each role may perform. */
export function createPermissionService(deps: { db: Db; now: () => Date }) {
  const { db, now } = deps;
  return {
    async grant(role: string, actions: readonly string[]): Promise<void> {
      const at = now().toISOString();
      for (const action of actions) {
        await db
          .insertInto(PERMISSIONS_TABLE)
          .values({ role, action, created_at: at })
          .onConflict((oc) => oc.columns(['role', 'action']).doNothing())
          .execute();
      }
    },
    async revoke(role: string, actions: readonly string[]): Promise<void> {
      if (actions.length === 0) return;
      await db.deleteFrom(PERMISSIONS_TABLE).where('role', '=', role).where('action', 'in', [...actions]).execute();
    },
    async allows(role: string, action: string): Promise<boolean> {
      const row = await db
        .selectFrom(PERMISSIONS_TABLE)
        .select('action')
        .where('role', '=', role)
        .where('action', '=', action)
        .executeTakeFirst();
      return row !== undefined;
    },
    async list(role: string): Promise<string[]> {
      const rows = await db.selectFrom(PERMISSIONS_TABLE).select('action').where('role', '=', role).orderBy('action').execute();
      return rows.map((r) => r.action);
    },
    /** Replaces a role's whole set of actions (one transaction). */
    async replace(role: string, actions: readonly string[]): Promise<void> {
      const at = now().toISOString();
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom(PERMISSIONS_TABLE).where('role', '=', role).execute();
        for (const action of new Set(actions)) await trx.insertInto(PERMISSIONS_TABLE).values({ role, action, created_at: at }).execute();
      });
    },
    /** Forgets every action of a role (the role is being deleted). */
    async clear(role: string): Promise<void> {
      await db.deleteFrom(PERMISSIONS_TABLE).where('role', '=', role).execute();
    },
  };
}

export type PermissionService = ReturnType<typeof createPermissionService>;
