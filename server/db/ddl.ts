import { sql, type CreateTableBuilder } from 'kysely';
import type { Database } from './database.js';

/** Adds the auto-incrementing integer primary key `id`, spelled as each dialect wants it. */
export function withIdColumn<T extends string>(
  kind: Database['kind'],
  builder: CreateTableBuilder<T, never>,
): CreateTableBuilder<T, 'id'> {
  return kind === 'postgres'
    ? builder.addColumn('id', 'serial', (c) => c.primaryKey())
    : builder.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
}

/** Column types Hearth uses, per dialect. Kept to a few portable storage classes. */
export type StorageType = 'text' | 'integer' | 'bigint' | 'real' | 'boolean';

export function columnType(kind: Database['kind'], type: StorageType) {
  if (kind === 'postgres') {
    switch (type) {
      case 'text':
        return sql`text`;
      case 'integer':
        return sql`integer`;
      case 'bigint':
        return sql`bigint`;
      case 'real':
        return sql`double precision`;
      case 'boolean':
        return sql`boolean`;
    }
  }
  switch (type) {
    case 'text':
      return sql`text`;
    case 'integer':
    case 'bigint':
    case 'boolean':
      return sql`integer`;
    case 'real':
      return sql`real`;
  }
}
