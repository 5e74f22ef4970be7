import { sql } from 'kysely';
import type { TestServer } from './server.js';

/** An index's columns in order, or null when there is none of that name (in the server's schema on PostgreSQL). */
export async function indexColumns(s: TestServer, name: string): Promise<string[] | null> {
  const { db, kind } = s.server.services.database;
  const { rows } =
    kind === 'postgres'
      ? await sql<{ column: string }>`
          SELECT a.attname AS "column" FROM pg_index i
          JOIN pg_class c ON c.oid = i.indexrelid
          JOIN pg_namespace n ON n.oid = c.relnamespace AND n.nspname = current_schema()
          CROSS JOIN LATERAL unnest(i.indkey::int2[]) WITH ORDINALITY AS k(attnum, position)
          JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum
          WHERE c.relname = ${name} ORDER BY k.position`.execute(db)
      : await sql<{ column: string }>`SELECT name AS "column" FROM pragma_index_info(${name}) ORDER BY seqno`.execute(db);
  return rows.length === 0 ? null : rows.map((r) => r.column);
}
