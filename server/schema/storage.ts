import type { StorageType } from '../db/ddl.js';
import { identifier } from '../db/identifiers.js';
import { MAX_IDENTIFIER_LENGTH } from '../limits.js';
import { morphTableName } from './morphs.js';
import type { Registry } from './registry.js';
import type { Model, ScalarType } from './types.js';

/** How a scalar attribute type is stored: a few portable storage classes. */
export function storageOf(type: ScalarType): StorageType {
  switch (type) {
    case 'integer':
      return 'integer';
    case 'biginteger':
    case 'timestamp':
      return 'bigint';
    case 'float':
    case 'decimal':
      return 'real';
    case 'boolean':
      return 'boolean';
    default:
      return 'text';
  }
}

/** One column Hearth wants; `kind` is the attribute type (or a system name) kept in the bookkeeping table. */
export interface ColumnPlan {
  readonly name: string;
  readonly storage: StorageType;
  readonly kind: string;
  readonly notNull?: boolean;
  /** Foreign key `<table>.id`, deleting this row with the referenced one. */
  readonly references?: string;
}

/** One index Hearth wants; `rows` makes it partial: only published rows, or only drafts. */
export interface IndexPlan {
  readonly name: string;
  readonly columns: readonly string[];
  readonly rows?: 'published' | 'draft';
}

/**
 * The two status indexes of a content type's table: its published rows and its drafts, each by
 * locale. Every read names one status and one locale (or none), so SQLite finds a status's rows
 * through one of them in id order (no sort; a first page stops at its last row, a deep page
 * skips index entries rather than rows) and counts them from the index alone.
 */
export const statusIndexNames = (table: string): { published: string; draft: string } => ({
  published: identifier(`${table}_published_idx`),
  draft: identifier(`${table}_draft_idx`),
});

export interface TablePlan {
  readonly name: string;
  /** The model (and attribute) this table serves, for messages. */
  readonly owner: string;
  readonly columns: readonly ColumnPlan[];
  readonly indexes: readonly IndexPlan[];
  /** Indexes named from this prefix are the schema's declared ones: those no longer declared are dropped (null: a link table, which has none). */
  readonly declaredPrefix: string | null;
  /** Indexes named from this prefix serve unique attributes: those no longer wanted are dropped (absent: not a content type's table). */
  readonly uniquePrefix?: string;
}

/** The SQL name of an index a schema declares: `<table>_x_<name>`, shortened like every identifier. */
const declaredIndexName = (table: string, name: string) => identifier(`${table}_x_${name}`);

/** What every declared index name of `table` starts with, even once shortened. */
const declaredPrefixOf = (table: string) => `${table}_x_`.slice(0, MAX_IDENTIFIER_LENGTH - 9);

function declaredIndexes(model: Model): { name: string; columns: readonly string[] }[] {
  return model.indexes.map((index) => ({ name: declaredIndexName(model.table, index.name), columns: index.columns }));
}

/** The index of a unique attribute's column: `<table>_u_<column>`, shortened like every identifier. */
export const uniqueIndexName = (table: string, column: string): string => identifier(`${table}_u_${column}`);

/** What every unique attribute's index name of `table` starts with, even once shortened. */
export const uniquePrefixOf = (table: string): string => `${table}_u_`.slice(0, MAX_IDENTIFIER_LENGTH - 9);

/**
 * One plain (not UNIQUE) index per unique scalar attribute of a content type: a write checks
 * uniqueness itself (drafts and published versions, and locales, may share a value) and finds
 * the rows holding the value through it instead of reading the whole table. Those no longer
 * wanted (the attribute stopped being unique, was removed or renamed) are dropped by prefix.
 */
export function uniqueIndexes(model: Model): IndexPlan[] {
  if (model.modelType !== 'contentType') return [];
  const out: IndexPlan[] = [];
  for (const attr of model.attributes.values()) {
    if (attr.kind === 'scalar' && attr.unique) out.push({ name: uniqueIndexName(model.table, attr.name), columns: [attr.name] });
  }
  return out;
}

const sys = (name: string, storage: StorageType, notNull = false): ColumnPlan => ({ name, storage, kind: `system:${name}`, notNull });

function scalarColumns(model: Model): ColumnPlan[] {
  const columns: ColumnPlan[] = [];
  for (const attr of model.attributes.values()) {
    if (attr.kind === 'scalar') columns.push({ name: attr.name, storage: storageOf(attr.type), kind: attr.type });
  }
  return columns;
}

/** Every table a model needs: its own, its join tables, its component links. */
export function tablesFor(model: Model, registry: Registry): TablePlan[] {
  const plans: TablePlan[] = [];
  if (model.modelType === 'contentType') {
    plans.push({
      name: model.table,
      owner: model.uid,
      columns: [
        sys('documentId', 'text', true),
        ...scalarColumns(model),
        sys('createdAt', 'text', true),
        sys('updatedAt', 'text', true),
        sys('publishedAt', 'text'),
        sys('locale', 'text'),
        // The admin who created / last changed the row (Strapi's created_by_id, updated_by_id); null for other writers.
        sys('createdBy', 'integer'),
        sys('updatedBy', 'integer'),
      ],
      indexes: [
        { name: `${model.table}_lookup_idx`, columns: ['documentId', 'locale', 'publishedAt'] },
        { name: statusIndexNames(model.table).published, columns: ['locale'], rows: 'published' },
        { name: statusIndexNames(model.table).draft, columns: ['locale'], rows: 'draft' },
        ...declaredIndexes(model),
        ...uniqueIndexes(model),
      ],
      declaredPrefix: declaredPrefixOf(model.table),
      uniquePrefix: uniquePrefixOf(model.table),
    });
  } else {
    plans.push({ name: model.table, owner: model.uid, columns: scalarColumns(model), indexes: declaredIndexes(model), declaredPrefix: declaredPrefixOf(model.table) });
  }
  let hasComponents = false;
  for (const attr of model.attributes.values()) {
    if (attr.kind === 'component' || attr.kind === 'dynamiczone') hasComponents = true;
    if (attr.kind !== 'relation' || !attr.owner) continue;
    const target = registry.model(attr.target);
    if (!target) continue;
    const name = registry.joinTable(model, attr.name);
    plans.push({
      name,
      owner: `${model.uid}.${attr.name}`,
      columns: [
        { name: 'entity_id', storage: 'integer', kind: 'link', notNull: true, references: model.table },
        { name: 'target_id', storage: 'integer', kind: 'link', notNull: true, references: target.table },
        { name: 'ord', storage: 'real', kind: 'order' },
        { name: 'inv_ord', storage: 'real', kind: 'order' },
      ],
      indexes: [
        { name: `${name}_entity_idx`, columns: ['entity_id', 'ord'] },
        { name: `${name}_target_idx`, columns: ['target_id', 'inv_ord'] },
      ],
      declaredPrefix: null,
    });
  }
  for (const morph of model.morphs?.values() ?? []) {
    if (morph.relation !== 'morphToOne' && morph.relation !== 'morphToMany') continue;
    const name = morphTableName(model, morph.name);
    plans.push({
      name,
      owner: `${model.uid}.${morph.name}`,
      columns: [
        { name: 'entity_id', storage: 'integer', kind: 'link', notNull: true, references: model.table },
        { name: 'related_id', storage: 'integer', kind: 'link', notNull: true },
        { name: 'related_type', storage: 'text', kind: 'link', notNull: true },
        { name: 'field', storage: 'text', kind: 'link', notNull: true },
        { name: 'ord', storage: 'real', kind: 'order' },
      ],
      indexes: [
        { name: `${name}_entity_idx`, columns: ['entity_id', 'ord'] },
        { name: `${name}_related_idx`, columns: ['related_type', 'related_id'] },
      ],
      declaredPrefix: null,
    });
  }
  if (hasComponents) {
    const name = registry.componentsTable(model);
    plans.push({
      name,
      owner: `${model.uid} components`,
      columns: [
        { name: 'entity_id', storage: 'integer', kind: 'link', notNull: true, references: model.table },
        { name: 'cmp_id', storage: 'integer', kind: 'link', notNull: true },
        { name: 'component_type', storage: 'text', kind: 'link', notNull: true },
        { name: 'field', storage: 'text', kind: 'link', notNull: true },
        { name: 'ord', storage: 'real', kind: 'order' },
      ],
      indexes: [
        { name: `${name}_entity_idx`, columns: ['entity_id', 'field', 'ord'] },
        { name: `${name}_cmp_idx`, columns: ['cmp_id', 'component_type'] },
      ],
      declaredPrefix: null,
    });
  }
  return plans;
}
