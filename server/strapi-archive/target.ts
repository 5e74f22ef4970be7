import { access, copyFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Db } from '../db/database.js';
import { openSqlite } from '../db/sqlite.js';

/**
 * What an import from Strapi keeps of the data dir it replaces: what Strapi's archives never
 * hold (admin users, API tokens) stays, as `strapi import` leaves `admin::*` alone; and the
 * per-install secrets, so the kept tokens and sessions still verify.
 */

/** Tables carried over from the replaced data dir, parents first. */
const KEPT_TABLES = ['hearth_admin_users', 'hearth_api_tokens'] as const;

const exists = (path: string) => access(path).then(() => true, () => false);

/** Rows of content in an existing data dir (documents of every synced type, files, end users): a non-zero count needs --force. */
export async function contentRows(dataDir: string): Promise<number> {
  const file = join(dataDir, 'hearth.db');
  // A folder holding other things than a data dir is replaced whole: count it as content.
  if (!(await exists(file))) return Number.POSITIVE_INFINITY;
  const database = openSqlite(file);
  try {
    const { db } = database;
    const tables = await db.introspection.getTables();
    const names = new Set(tables.map((t) => t.name));
    if (!names.has('hearth_models')) return 0;
    const models = await db.selectFrom('hearth_models').select('table_name').execute();
    let rows = 0;
    for (const table of [...models.map((m) => String(m.table_name)), 'hearth_files', 'up_users']) {
      if (!names.has(table)) continue;
      const row = await db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirst();
      rows += Number(row?.n ?? 0);
    }
    return rows;
  } finally {
    await database.close();
  }
}

/** Copies secrets.json into the staged data dir (before it is opened, so no new secrets are made). */
export async function keepSecrets(from: string, to: string): Promise<void> {
  if (await exists(join(from, 'secrets.json'))) await copyFile(join(from, 'secrets.json'), join(to, 'secrets.json'));
}

/** Copies the kept tables' rows from the replaced data dir's database into the staged one. */
export async function keepAdminRows(fromDir: string, into: Db): Promise<number> {
  const file = join(fromDir, 'hearth.db');
  if (!(await exists(file))) return 0;
  const database = openSqlite(file);
  let rows = 0;
  try {
    const names = new Set((await database.db.introspection.getTables()).map((t) => t.name));
    for (const table of KEPT_TABLES) {
      if (!names.has(table)) continue;
      for (const row of await database.db.selectFrom(table).selectAll().orderBy('id').execute()) {
        await into.insertInto(table).values(row).execute();
        rows++;
      }
    }
  } finally {
    await database.close();
  }
  return rows;
}
