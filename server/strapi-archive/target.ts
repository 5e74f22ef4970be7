import { access, copyFile } from 'node:fs/promises';
import { ADMIN_USERS_TABLE, API_TOKENS_TABLE, FILES_TABLE, MODELS_TABLE, TRANSFER_TOKENS_TABLE, USERS_TABLE } from '../db/system-tables.js';
import { join } from 'node:path';
import { ensureTransferTokenTable } from '../auth/transfer-tokens.js';
import type { Database } from '../db/database.js';
import { openSqlite } from '../db/sqlite.js';

/**
 * What an import from Strapi keeps of the data dir it replaces: what Strapi's archives never
 * hold (admin users, API tokens) stays, as `strapi import` leaves `admin::*` alone; and the
 * per-install secrets, so the kept tokens and sessions still verify. Transfer tokens are admin-side
 * too (Strapi's `admin::transfer-token`), so they stay as well.
 */

/** Tables carried over from the replaced data dir, parents first. */
const KEPT_TABLES = [ADMIN_USERS_TABLE, API_TOKENS_TABLE, TRANSFER_TOKENS_TABLE] as const;

const exists = (path: string) => access(path).then(() => true, () => false);

/** The replaced data dir's database: its PostgreSQL database (DATABASE_URL), its SQLite file, or null when it has none. */
export async function openTarget(dataDir: string, databaseUrl: string | null): Promise<Database | null> {
  if (databaseUrl) return (await import('../db/postgres.js')).openPostgres(databaseUrl);
  const file = join(dataDir, 'hearth.db');
  return (await exists(file)) ? openSqlite(file) : null;
}

/** Rows of content in the replaced database (documents of every synced type, files, end users): a non-zero count needs --force. */
export async function contentRows(database: Database): Promise<number> {
  const { db } = database;
  const names = new Set((await db.introspection.getTables()).map((t) => t.name));
  if (!names.has(MODELS_TABLE)) return 0;
  const models = await db.selectFrom(MODELS_TABLE).select('table_name').execute();
  let rows = 0;
  for (const table of [...models.map((m) => String(m.table_name)), FILES_TABLE, USERS_TABLE]) {
    if (!names.has(table)) continue;
    const row = await db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirst();
    rows += Number(row?.n ?? 0);
  }
  return rows;
}

/** Copies secrets.json into the staged data dir (before it is opened, so no new secrets are made). */
export async function keepSecrets(from: string, to: string): Promise<void> {
  if (await exists(join(from, 'secrets.json'))) await copyFile(join(from, 'secrets.json'), join(to, 'secrets.json'));
}

/** Copies the kept tables' rows from the replaced database into the staged one (`into.db` may be its transaction). */
export async function keepAdminRows(from: Database, into: Pick<Database, 'db' | 'kind'>): Promise<number> {
  const names = new Set((await from.db.introspection.getTables()).map((t) => t.name));
  // The transfer-token table is made on first use: the staged database has none yet.
  if (names.has(TRANSFER_TOKENS_TABLE)) await ensureTransferTokenTable(into);
  let rows = 0;
  for (const table of KEPT_TABLES) {
    if (!names.has(table)) continue;
    for (const row of await from.db.selectFrom(table).selectAll().orderBy('id').execute()) {
      await into.db.insertInto(table).values({ ...row, id: Number(row.id) }).execute();
      rows++;
    }
  }
  return rows;
}
