import { sql } from 'kysely';
import type { Db } from './database.js';

/**
 * Collations whose lower() folds case as JavaScript's `toLowerCase` does (SQLite's hearth_lower),
 * best first: ICU's root locale (full Unicode mapping, final sigma included), PostgreSQL 18's
 * builtin full mapping, then its builtin simple mapping. Without any, the database's own locale.
 */
const LOWER_COLLATIONS = ['und-x-icu', 'pg_unicode_fast', 'pg_c_utf8'] as const;

/** The collation hearth_lower() folds with on this server, or null for the database default. */
export async function lowerCollation(db: Db): Promise<string | null> {
  const { rows } = await sql<{ collname: string }>`SELECT collname FROM pg_collation WHERE collname IN (${sql.join([...LOWER_COLLATIONS])})`.execute(db);
  const present = new Set(rows.map((r) => r.collname));
  return LOWER_COLLATIONS.find((name) => present.has(name)) ?? null;
}

/** PostgreSQL's sqlite_sequence: the last id handed out per table, keyed by the table's oid so a rename keeps it. */
export const ID_COUNTERS_TABLE = 'hearth_ids';

/**
 * Creates what Hearth's queries and tables rely on in a PostgreSQL database (SQLite gets its
 * function from the driver, its id counters from AUTOINCREMENT):
 * - `hearth_lower(text)`, the Unicode-aware lower-case of the case-insensitive operators; its
 *   result is in the "C" collation so LIKE and `=` compare it byte by byte, as SQLite does;
 * - `hearth_ids` and the trigger function `hearth_assign_id()`: an insert without an id takes the
 *   table's counter + 1, one with an id raises the counter to it (SQLite's AUTOINCREMENT rules);
 *   the counter row is written in the inserting transaction, so a rollback gives the id back.
 */
export async function createPostgresFunctions(db: Db): Promise<void> {
  const collation = await lowerCollation(db);
  // The collation name comes from LOWER_COLLATIONS, never from input.
  const folded = collation === null ? 'lower(value)' : `lower(value COLLATE "${collation}")`;
  await sql`
    CREATE OR REPLACE FUNCTION hearth_lower(value text) RETURNS text
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    AS ${sql.lit(`SELECT ${folded} COLLATE "C"`)}`.execute(db);
  await sql`CREATE TABLE IF NOT EXISTS ${sql.table(ID_COUNTERS_TABLE)} (table_oid oid PRIMARY KEY, seq bigint NOT NULL)`.execute(db);
  await sql`
    CREATE OR REPLACE FUNCTION hearth_assign_id() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NEW.id IS NULL THEN
        INSERT INTO hearth_ids AS c (table_oid, seq) VALUES (TG_RELID, 1)
          ON CONFLICT (table_oid) DO UPDATE SET seq = c.seq + 1
          RETURNING seq INTO NEW.id;
      ELSE
        INSERT INTO hearth_ids AS c (table_oid, seq) VALUES (TG_RELID, NEW.id)
          ON CONFLICT (table_oid) DO UPDATE SET seq = greatest(c.seq, excluded.seq);
      END IF;
      RETURN NEW;
    END $$`.execute(db);
}

/** Gives a new table its transactional ids (a counter left by a dropped table whose oid it reuses is forgotten). */
export async function assignIdsInTransaction(db: Db, table: string): Promise<void> {
  await sql`DELETE FROM ${sql.table(ID_COUNTERS_TABLE)} WHERE table_oid = quote_ident(${table})::regclass`.execute(db);
  await sql`CREATE TRIGGER hearth_assign_id BEFORE INSERT ON ${sql.table(table)} FOR EACH ROW EXECUTE FUNCTION hearth_assign_id()`.execute(db);
}
