/**
 * A portable description of a table, read from a database and written into the archive's
 * manifest: enough to recreate it on SQLite or PostgreSQL and to restore it in dependency order.
 */

/** Storage classes every supported database has (what `db/ddl.ts` maps per dialect, plus blobs). */
export const PORTABLE_TYPES = ['integer', 'bigint', 'real', 'text', 'boolean', 'blob'] as const;
/** One portable storage class. */
export type PortableType = (typeof PORTABLE_TYPES)[number];

/** What a foreign key does when its referenced row goes (Kysely's spelling). */
export const FOREIGN_KEY_ACTIONS = ['no action', 'restrict', 'cascade', 'set null', 'set default'] as const;
/** One foreign key action. */
export type ForeignKeyAction = (typeof FOREIGN_KEY_ACTIONS)[number];

/** One column. */
export interface ColumnSpec {
  readonly name: string;
  readonly type: PortableType;
  readonly notNull: boolean;
  /** A literal default value; absent when there is none (or it is not a literal). */
  readonly default?: string | number | null;
}

/** One foreign key. */
export interface ForeignKeySpec {
  readonly columns: readonly string[];
  readonly table: string;
  readonly referencedColumns: readonly string[];
  readonly onDelete: ForeignKeyAction;
}

/** One index over plain columns. */
export interface IndexSpec {
  readonly name: string;
  readonly columns: readonly string[];
  readonly unique: boolean;
}

/** One table as it stands in the database. */
export interface TableSpec {
  readonly name: string;
  readonly columns: readonly ColumnSpec[];
  readonly primaryKey: readonly string[];
  /** The column whose values the database generates (Hearth's `id`), or null. */
  readonly autoIncrement: string | null;
  readonly foreignKeys: readonly ForeignKeySpec[];
  readonly indexes: readonly IndexSpec[];
}

/**
 * Tables ordered so every table comes after the tables its foreign keys reference (Kahn's
 * algorithm, ties by name). Self references and cycles cannot be ordered away: those rows rely
 * on the restore deferring foreign-key checks to commit.
 */
export function dependencyOrder<T extends Pick<TableSpec, 'name' | 'foreignKeys'>>(tables: readonly T[]): T[] {
  const byName = new Map(tables.map((t) => [t.name, t]));
  const waitingOn = new Map<string, Set<string>>();
  for (const table of tables) {
    const deps = new Set(table.foreignKeys.map((fk) => fk.table).filter((name) => name !== table.name && byName.has(name)));
    waitingOn.set(table.name, deps);
  }
  const ordered: T[] = [];
  while (waitingOn.size > 0) {
    const ready = [...waitingOn].filter(([, deps]) => deps.size === 0).map(([name]) => name).sort();
    // A cycle: take the first table by name and let the deferred checks judge.
    const next = ready.length > 0 ? ready : [[...waitingOn.keys()].sort()[0] ?? ''];
    for (const name of next) {
      waitingOn.delete(name);
      for (const deps of waitingOn.values()) deps.delete(name);
      const table = byName.get(name);
      if (table) ordered.push(table);
    }
  }
  return ordered;
}
