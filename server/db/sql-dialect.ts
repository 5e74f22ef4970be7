import { sql, type Expression } from 'kysely';
import type { Database } from './database.js';

/**
 * The few places where the SQL Hearth compiles differs between SQLite and PostgreSQL, so that
 * both give the same answers: everything else is Kysely's portable query builder.
 */
export interface SqlDialect {
  readonly kind: Database['kind'];
  /** Lower-case as JavaScript's `toLowerCase` (the `...i` operators, `_q`): `hearth_lower` on both. */
  unicodeLower(value: Expression<unknown>): Expression<unknown>;
  /**
   * An operand of a case-sensitive LIKE (`$contains`, `$startsWith`, ...). SQLite's LIKE folds
   * ASCII letters (only): PostgreSQL's would not, so both sides are folded the same way there.
   */
  likeOperand(value: Expression<unknown>): Expression<unknown>;
  /** The LIMIT that lets an OFFSET go alone: SQLite needs one (-1), PostgreSQL takes none. */
  readonly noLimit: number | null;
}

const sqlite: SqlDialect = {
  kind: 'sqlite',
  unicodeLower: (value) => sql`hearth_lower(${value})`,
  likeOperand: (value) => value,
  noLimit: -1,
};

// lower() under the "C" collation folds ASCII letters only, exactly as SQLite's LIKE does.
const postgres: SqlDialect = {
  kind: 'postgres',
  unicodeLower: (value) => sql`hearth_lower(CAST(${value} AS text))`,
  likeOperand: (value) => sql`lower(CAST(${value} AS text) COLLATE "C")`,
  noLimit: null,
};

/** The SQL dialect of a database kind. */
export function sqlDialect(kind: Database['kind']): SqlDialect {
  return kind === 'postgres' ? postgres : sqlite;
}
