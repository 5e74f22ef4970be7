import type { Db } from '../db/database.js';
import { FILES_RELATED_TABLE, FILES_TABLE, FOLDERS_TABLE } from '../db/system-tables.js';
import { morphTableName } from '../schema/morphs.js';
import type { Registry } from '../schema/registry.js';
import { FILE_UID } from '../schema/types.js';
import { FOLDER_UID, modelOf, PERMISSION_UID, type EntityState } from './entities-in.js';
import { isRecord, stageLines, strapiArchiveError } from './jsonl.js';

/** One side of a link line: `{ type, field?, ref, pos? }`. */
interface Side {
  readonly type: string;
  readonly field: string | null;
  readonly ref: number | string;
  readonly pos: number | null;
}

function side(value: unknown, at: string): Side {
  if (!isRecord(value) || typeof value.type !== 'string' || (typeof value.ref !== 'number' && typeof value.ref !== 'string')) {
    throw strapiArchiveError(`${at}: a link side needs a type and a ref`);
  }
  return {
    type: value.type,
    field: typeof value.field === 'string' ? value.field : null,
    ref: value.ref,
    pos: typeof value.pos === 'number' ? value.pos : null,
  };
}

const numeric = (s: Side, at: string): number => {
  if (typeof s.ref !== 'number') throw strapiArchiveError(`${at}: ${s.type} ref ${JSON.stringify(s.ref)} is not a row id`);
  return s.ref;
};

async function run(at: string, query: () => Promise<unknown>): Promise<void> {
  try {
    await query();
  } catch (err) {
    throw strapiArchiveError(`${at}: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`);
  }
}

/** What the links stage did. */
export interface LinkSummary {
  readonly written: number;
  readonly skipped: number;
  /** permission row id -> role row id. */
  readonly permissionRoles: Map<number, number>;
}

/** Next inverse position per (join table, target) when a link line gives none. */
function nextInverse(counters: Map<string, number>, table: string, target: number): number {
  const key = `${table}\u0000${target}`;
  const next = (counters.get(key) ?? 0) + 1;
  counters.set(key, next);
  return next;
}

/**
 * Writes the `links` stage: relations into their join tables with both orders, media into the
 * files' related table, a file's folder and a folder's parent, users' roles, permissions' roles.
 * `localizations` links (one per row, pointing at its own documentId) carry nothing Hearth stores.
 */
export async function importLinks(options: { db: Db; registry: Registry; dir: string; entities: EntityState; schemaUids: ReadonlySet<string> }): Promise<LinkSummary> {
  const { db, registry, dir } = options;
  const summary = { written: 0, skipped: 0, permissionRoles: new Map<number, number>() };
  const counters = new Map<string, number>();
  for await (const { value, at } of stageLines(dir, 'links')) {
    const left = side(value.left, at);
    const right = side(value.right, at);
    for (const s of [left, right]) if (!options.schemaUids.has(s.type)) throw strapiArchiveError(`${at}: link to type ${s.type}, which is not in the archive's schemas`);
    if (left.field === 'localizations' || left.field === null) {
      summary.skipped++;
      continue;
    }
    const written = await writeLink(db, registry, left, right, at, counters, summary.permissionRoles);
    if (written) summary.written++;
    else summary.skipped++;
  }
  return summary;
}

async function writeLink(db: Db, registry: Registry, left: Side, right: Side, at: string, counters: Map<string, number>, permissionRoles: Map<number, number>): Promise<boolean> {
  const field = left.field ?? '';
  if (left.type === FILE_UID && field === 'related') {
    if (right.field === null) throw strapiArchiveError(`${at}: a media link without the field it fills`);
    const values = { file_id: numeric(left, at), related_id: numeric(right, at), related_type: right.type, field: right.field, ord: right.pos ?? 1 };
    await run(at, () => db.insertInto(FILES_RELATED_TABLE).values(values).execute());
    return true;
  }
  if (left.type === FILE_UID && field === 'folder') {
    await run(at, () => db.updateTable(FILES_TABLE).set({ folder_id: numeric(right, at) }).where('id', '=', numeric(left, at)).execute());
    return true;
  }
  if (left.type === FOLDER_UID && field === 'parent') {
    await run(at, () => db.updateTable(FOLDERS_TABLE).set({ parent_id: numeric(right, at) }).where('id', '=', numeric(left, at)).execute());
    return true;
  }
  if (left.type === PERMISSION_UID && field === 'role') {
    permissionRoles.set(numeric(left, at), numeric(right, at));
    return true;
  }
  const model = modelOf(registry, left.type);
  if (model === undefined) return false;
  const morph = model.morphs?.get(field);
  if (morph !== undefined && (morph.relation === 'morphToOne' || morph.relation === 'morphToMany')) {
    const values = { entity_id: numeric(left, at), related_id: numeric(right, at), related_type: right.type, field: right.field ?? field, ord: right.pos ?? left.pos ?? 1 };
    await run(at, () => db.insertInto(morphTableName(model, field)).values(values).execute());
    return true;
  }
  const attr = model.attributes.get(field);
  if (attr === undefined || attr.kind !== 'relation' || !attr.owner) return false;
  const storage = registry.relationStorage(model, attr);
  const target = numeric(right, at);
  const values = {
    [storage.selfColumn]: numeric(left, at),
    [storage.otherColumn]: target,
    [storage.orderColumn]: left.pos ?? 1,
    [storage.inverseOrderColumn]: right.pos ?? nextInverse(counters, storage.joinTable, target),
  };
  await run(at, () => db.insertInto(storage.joinTable).values(values).execute());
  return true;
}
