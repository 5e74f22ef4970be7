import type { Db } from '../db/database.js';
import { FILES_RELATED_TABLE } from '../db/system-tables.js';
import { componentsTableName, joinTableName, type Registry } from './registry.js';
import { statusIndexNames, tablesFor, uniqueIndexes } from './storage.js';
import {
  countColumn,
  countLinks,
  countTable,
  countUnpublishedDrafts,
  unpublishedDrafts,
  deleteComponentLinks,
  deleteMediaLinks,
  dropColumn,
  dropTable,
  forgetModel,
  renameColumn,
  renameLinks,
  renameTable,
  tableState,
  type Step,
  type TableState,
} from './storage-steps.js';
import { compatible } from './sync.js';
import type { Attribute, Model } from './types.js';
import { identifier } from '../db/identifiers.js';
import { allRows, countDocuments, linkedRows, rowsWithValue, type RowIds } from './loss-documents.js';

/** Stored data a change would drop: a whole model's rows, or one attribute's values. */
export interface DataLoss {
  readonly uid: string;
  readonly attribute?: string;
  /** Stored rows or links that go (every locale's draft and published version counts). */
  readonly rows: number;
  /** Distinct documents those rows belong to: what the builder's confirmation shows. */
  readonly documents: number;
}

/** What applying a change to the database takes, before the tables are synced to the new registry. */
export interface ChangePlan {
  readonly loss: readonly DataLoss[];
  /** Drops first, then renames, then table moves: each runs before the sync. */
  readonly steps: readonly Step[];
  /** Content types whose draft & publish was switched on or off. */
  readonly draftAndPublish: { readonly enabled: readonly string[]; readonly disabled: readonly string[] };
}

/** Attribute renames of a change: uid -> old name -> new name. */
export type Renames = ReadonlyMap<string, ReadonlyMap<string, string>>;

type Fate = 'keep' | 'lose' | 'narrow';

/** Whether an attribute's stored data can stay where it is under its new definition. */
function fate(before: Attribute, after: Attribute | undefined): Fate {
  if (after === undefined) return 'lose';
  if (before.kind === 'scalar' && after.kind === 'scalar') return before.type === after.type || compatible(before.type, after.type) ? 'keep' : 'lose';
  if (before.kind === 'media' && after.kind === 'media') return 'keep';
  if (before.kind === 'relation' && after.kind === 'relation') {
    if (before.owner !== after.owner) return 'lose';
    return !before.owner || before.target === after.target ? 'keep' : 'lose';
  }
  if (before.kind === 'component' && after.kind === 'component') return before.component === after.component ? 'keep' : 'lose';
  if (before.kind === 'dynamiczone' && after.kind === 'dynamiczone') return 'narrow';
  if (before.kind === 'localizations' && after.kind === 'localizations') return 'keep';
  return 'lose';
}

interface Context {
  readonly db: Db;
  readonly state: TableState;
  readonly before: Registry;
  readonly loss: DataLoss[];
  readonly drops: Step[];
  readonly renames: Step[];
  readonly moves: Step[];
}

/** Records a loss of `rows` rows (none: nothing to record), with the documents the rows `ids` of `model` belong to. */
async function record(ctx: Context, args: { model: Model; attribute?: string; rows: number; ids: RowIds }): Promise<void> {
  if (args.rows <= 0) return;
  const documents = await countDocuments(ctx.db, { registry: ctx.before, state: ctx.state, model: args.model, ids: args.ids });
  ctx.loss.push({ uid: args.model.uid, ...(args.attribute !== undefined ? { attribute: args.attribute } : {}), rows: args.rows, documents });
}

const componentTables = (registry: Registry): Map<string, string> => new Map(registry.components.map((c) => [c.uid, c.table]));

/** Counts and schedules the removal of one attribute's stored data. */
async function lose(ctx: Context, model: Model, attr: Attribute, keepTypes?: readonly string[]): Promise<void> {
  const { db, state } = ctx;
  let rows = 0;
  let ids: RowIds = rowsWithValue(model.table, attr.name);
  if (attr.kind === 'scalar') {
    rows = await countColumn(db, state, model.table, attr.name);
    if (state.get(model.table)?.has(attr.name)) ctx.drops.push(dropColumn(model.table, attr.name));
  } else if (attr.kind === 'media') {
    rows = await countLinks(db, state, { table: FILES_RELATED_TABLE, field: attr.name, relatedType: model.uid });
    ids = linkedRows({ table: FILES_RELATED_TABLE, column: 'related_id', field: attr.name, relatedType: model.uid });
    ctx.drops.push(deleteMediaLinks(model.uid, attr.name));
  } else if (attr.kind === 'relation' && attr.owner) {
    const table = joinTableName(model, attr.name);
    rows = await countTable(db, state, table);
    ids = linkedRows({ table, column: 'entity_id' });
    ctx.drops.push(dropTable(table));
  } else if (attr.kind === 'component' || attr.kind === 'dynamiczone') {
    const table = componentsTableName(model);
    const except = keepTypes ? { exceptTypes: keepTypes } : {};
    rows = await countLinks(db, state, { table, field: attr.name, ...except });
    ids = linkedRows({ table, column: 'entity_id', field: attr.name, ...except });
    if (state.has(table)) ctx.drops.push(deleteComponentLinks({ table, field: attr.name, ...except, componentTables: componentTables(ctx.before) }));
  }
  await record(ctx, { model, attribute: attr.name, rows, ids });
}

/** Schedules the move of a kept attribute's data to its new name. */
async function rename(ctx: Context, model: Model, attr: Attribute, to: string): Promise<void> {
  const { state } = ctx;
  if (attr.kind === 'scalar' && state.get(model.table)?.has(attr.name)) {
    if (state.get(model.table)?.has(to)) {
      // A column left behind by an attribute removed outside the builder: its values go.
      const rows = await countColumn(ctx.db, state, model.table, to);
      await record(ctx, { model, attribute: to, rows, ids: rowsWithValue(model.table, to) });
      ctx.drops.push(dropColumn(model.table, to));
    }
    ctx.renames.push(renameColumn(model.table, attr.name, to));
  } else if (attr.kind === 'media') {
    ctx.renames.push(renameLinks(FILES_RELATED_TABLE, attr.name, to, model.uid));
  } else if ((attr.kind === 'component' || attr.kind === 'dynamiczone') && state.has(componentsTableName(model))) {
    ctx.renames.push(renameLinks(componentsTableName(model), attr.name, to));
  } else if (attr.kind === 'relation' && attr.owner) {
    const from = joinTableName(model, attr.name);
    const target = joinTableName(model, to);
    if (state.has(from)) ctx.renames.push(renameTable(from, target, [`${from}_entity_idx`, `${from}_target_idx`]));
  }
}

/** Plans one model that exists before and after the change. */
async function planModel(ctx: Context, before: Model, after: Model, renames: ReadonlyMap<string, string>): Promise<void> {
  /** Owner relations whose join table survives, by their name after the change. */
  const keptJoins: string[] = [];
  for (const attr of before.attributes.values()) {
    const name = renames.get(attr.name) ?? attr.name;
    const next = after.attributes.get(name);
    const verdict = fate(attr, next);
    if (verdict === 'lose') await lose(ctx, before, attr);
    else if (verdict === 'narrow' && next?.kind === 'dynamiczone') await lose(ctx, before, attr, next.components);
    if (verdict !== 'lose' && name !== attr.name) await rename(ctx, before, attr, name);
    if (verdict === 'keep' && attr.kind === 'relation' && attr.owner && ctx.state.has(joinTableName(before, attr.name))) keptJoins.push(name);
  }
  if (before.collectionName === after.collectionName) return;
  // The type's tables follow its collectionName: join tables (already under their new attribute names) and component links.
  for (const name of keptJoins) {
    const from = identifier(`${before.collectionName}_${name}_lnk`);
    ctx.moves.push(renameTable(from, joinTableName(after, name), [`${from}_entity_idx`, `${from}_target_idx`]));
  }
  const cmps = componentsTableName(before);
  if (ctx.state.has(cmps)) ctx.moves.push(renameTable(cmps, componentsTableName(after), [`${cmps}_entity_idx`, `${cmps}_cmp_idx`]));
  if (ctx.state.has(before.table)) ctx.moves.push(renameTable(before.table, after.table, [`${before.table}_lookup_idx`, ...Object.values(statusIndexNames(before.table)), ...uniqueIndexes(before).map((i) => i.name)]));
}

/** Plans a model the change removes: all of its tables go. */
async function planRemoval(ctx: Context, model: Model): Promise<void> {
  const rows = await countTable(ctx.db, ctx.state, model.table);
  await record(ctx, { model, rows, ids: allRows(model.table) });
  const tables = tablesFor(model, ctx.before).map((t) => t.name);
  for (const table of tables.filter((t) => t !== model.table)) ctx.moves.push(dropTable(table));
  ctx.moves.push(deleteMediaLinks(model.uid), dropTable(model.table), forgetModel(model.uid));
}

/**
 * Compares the registry before and after a change and plans what the database needs beyond the
 * additive sync: renamed attributes keep their data, removed or incompatibly retyped ones lose
 * it (counted, so the caller can ask for confirmation), removed models drop their tables.
 */
export async function planChange(db: Db, before: Registry, after: Registry, renames: Renames): Promise<ChangePlan> {
  const ctx: Context = { db, state: await tableState(db), before, loss: [], drops: [], renames: [], moves: [] };
  const enabled: string[] = [];
  const disabled: string[] = [];
  for (const model of [...before.contentTypes, ...before.components]) {
    const next = after.model(model.uid);
    if (!next || next.modelType !== model.modelType) {
      await planRemoval(ctx, model);
      continue;
    }
    await planModel(ctx, model, next, renames.get(model.uid) ?? new Map());
    if (model.modelType !== 'contentType' || next.modelType !== 'contentType') continue;
    if (!model.draftAndPublish && next.draftAndPublish) enabled.push(model.uid);
    if (model.draftAndPublish && !next.draftAndPublish) {
      disabled.push(model.uid);
      const rows = ctx.state.has(model.table) ? await countUnpublishedDrafts(db, model.table) : 0;
      await record(ctx, { model, rows, ids: unpublishedDrafts(model.table) });
    }
  }
  return { loss: ctx.loss, steps: [...ctx.drops, ...ctx.renames, ...ctx.moves], draftAndPublish: { enabled, disabled } };
}
