import type { Db } from '../db/database.js';
import { FOLDERS_TABLE } from '../db/system-tables.js';
import { toStorage } from '../documents/index.js';
import { fileModel } from '../schema/file-model.js';
import type { Registry } from '../schema/registry.js';
import type { Attribute, Model } from '../schema/types.js';
import { FILE_UID } from '../schema/types.js';
import { ROLE_UID, USER_UID, roleModel, userModel } from '../users/models.js';
import { isRecord, stageLines, strapiArchiveError } from './jsonl.js';

/** Plugin types of a Strapi archive that Hearth keeps in its own tables. */
export const FOLDER_UID = 'plugin::upload.folder';
export const LOCALE_UID = 'plugin::i18n.locale';
export const PERMISSION_UID = 'plugin::users-permissions.permission';

/** What the entities stage leaves for the links stage and the summary. */
export interface EntityState {
  readonly counts: Map<string, number>;
  /** Types the archive's schemas declare that Hearth does not hold (content releases, review workflows...): skipped. */
  readonly skipped: Map<string, number>;
  readonly locales: { code: string; name: string; createdAt: string; updatedAt: string }[];
  /** users-permissions permission row id -> action. */
  readonly permissions: Map<number, string>;
  /** users-permissions role row id -> role type. */
  readonly roleTypes: Map<number, string>;
}

/** The model Hearth stores rows of `uid` with: a project type, a component, or a built-in plugin type. */
export function modelOf(registry: Registry, uid: string): Model | undefined {
  if (uid === USER_UID) return userModel(registry);
  if (uid === ROLE_UID) return roleModel(registry);
  if (uid === FILE_UID) return fileModel(registry);
  return registry.model(uid);
}

const SYSTEM = ['createdAt', 'updatedAt', 'publishedAt', 'locale'] as const;

function rowId(value: unknown, at: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0) throw strapiArchiveError(`${at}: id ${JSON.stringify(value)} is not a row id`);
  return value;
}

/** A scalar as Hearth stores it; password hashes are kept as they are (they verify as bcrypt). */
function scalarValue(attr: Attribute, value: unknown, at: string): unknown {
  if (attr.kind !== 'scalar') return undefined;
  if (attr.type === 'password') return value === null ? null : String(value);
  try {
    return toStorage(attr, value);
  } catch (err) {
    if (err instanceof Error) throw strapiArchiveError(`${at}: ${attr.name}: ${err.message}`);
    throw err;
  }
}

function scalarsOf(model: Model, data: Record<string, unknown>, at: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const attr of model.attributes.values()) {
    if (attr.kind === 'scalar' && data[attr.name] !== undefined) out[attr.name] = scalarValue(attr, data[attr.name], at);
  }
  return out;
}

async function insert(db: Db, table: string, values: Record<string, unknown>, at: string): Promise<void> {
  try {
    await db.insertInto(table).values(values).execute();
  } catch (err) {
    throw strapiArchiveError(`${at}: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`);
  }
}

/** Component and dynamic-zone values of one row, at any depth, with their row ids and order. */
async function writeComponents(db: Db, registry: Registry, model: Model, id: number, data: Record<string, unknown>, at: string): Promise<void> {
  for (const attr of model.attributes.values()) {
    if (attr.kind !== 'component' && attr.kind !== 'dynamiczone') continue;
    const value = data[attr.name];
    if (value === undefined || value === null) continue;
    const items = Array.isArray(value) ? value : [value];
    for (const [index, item] of items.entries()) {
      if (!isRecord(item)) throw strapiArchiveError(`${at}: ${attr.name} holds a value that is not a component`);
      const uid = attr.kind === 'component' ? attr.component : item.__component;
      const component = typeof uid === 'string' ? registry.component(uid) : undefined;
      if (component === undefined || typeof uid !== 'string') throw strapiArchiveError(`${at}: ${attr.name} names component ${JSON.stringify(uid)}, not in the archive's schemas`);
      const cmpId = rowId(item.id, `${at}: ${attr.name}`);
      await insert(db, component.table, { id: cmpId, ...scalarsOf(component, item, at) }, at);
      await writeComponents(db, registry, component, cmpId, item, at);
      await insert(db, registry.componentsTable(model), { entity_id: id, cmp_id: cmpId, component_type: uid, field: attr.name, ord: index + 1 }, at);
    }
  }
}

const text = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/**
 * A file stored with another provider (S3) whose bytes travel in the archive becomes a local file,
 * as Strapi's restore uploads assets again; an S3-backed Hearth then moves it into its bucket.
 */
function localFile(data: Record<string, unknown>, assets: ReadonlySet<string>): Record<string, unknown> {
  const name = `${String(data.hash)}${String(data.ext ?? '')}`;
  if (data.provider === 'local' || !assets.has(name)) return data;
  const formats = isRecord(data.formats)
    ? Object.fromEntries(
        Object.entries(data.formats).map(([type, f]) => {
          const asset = isRecord(f) ? `${String(f.hash)}${String(f.ext ?? '')}` : '';
          return [type, isRecord(f) && assets.has(asset) ? { ...f, url: `/uploads/${asset}` } : f];
        }),
      )
    : data.formats;
  return { ...data, url: `/uploads/${name}`, previewUrl: null, provider: 'local', provider_metadata: null, formats };
}

/** One entity line into the staged database. */
async function writeEntity(db: Db, registry: Registry, state: EntityState, type: string, id: number, given: Record<string, unknown>, at: string, assets: ReadonlySet<string>): Promise<boolean> {
  const data = type === FILE_UID ? localFile(given, assets) : given;
  if (type === LOCALE_UID) {
    const code = text(data.code);
    if (code === null) throw strapiArchiveError(`${at}: a locale without a code`);
    const createdAt = text(data.createdAt) ?? new Date().toISOString();
    state.locales.push({ code, name: text(data.name) ?? code, createdAt, updatedAt: text(data.updatedAt) ?? createdAt });
    return true;
  }
  if (type === PERMISSION_UID) {
    const action = text(data.action);
    if (action === null) throw strapiArchiveError(`${at}: a permission without an action`);
    state.permissions.set(id, action);
    return true;
  }
  if (type === FOLDER_UID) {
    const values = { id, documentId: data.documentId, name: data.name, pathId: data.pathId, path: data.path, locale: data.locale ?? null, createdAt: data.createdAt, updatedAt: data.updatedAt, publishedAt: data.publishedAt ?? null };
    await insert(db, FOLDERS_TABLE, values, at);
    return true;
  }
  const model = modelOf(registry, type);
  if (model === undefined || model.modelType !== 'contentType') return false;
  if (typeof data.documentId !== 'string') throw strapiArchiveError(`${at}: ${type} row ${id} has no documentId`);
  const system = Object.fromEntries(SYSTEM.map((k) => [k, data[k] ?? null]));
  await insert(db, model.table, { id, documentId: data.documentId, ...scalarsOf(model, data, at), ...system }, at);
  if (type === ROLE_UID && typeof data.type === 'string') state.roleTypes.set(id, data.type);
  await writeComponents(db, registry, model, id, data, at);
  return true;
}

/**
 * Writes the `entities` stage into a staged database whose tables were made from the archive's
 * schemas: every row keeps its id (so links need no mapping), documentId, locale, status and
 * timestamps. An entity of a type the schemas do not declare stops the import with its line.
 */
export async function importEntities(options: { db: Db; registry: Registry; dir: string; schemaUids: ReadonlySet<string>; assets: ReadonlySet<string>; progress: (m: string) => void }): Promise<EntityState> {
  const { db, registry, dir, schemaUids } = options;
  const state: EntityState = { counts: new Map(), skipped: new Map(), locales: [], permissions: new Map(), roleTypes: new Map() };
  let total = 0;
  for await (const { value, at } of stageLines(dir, 'entities')) {
    const { type, data } = value;
    if (typeof type !== 'string' || !isRecord(data)) throw strapiArchiveError(`${at}: an entity needs a type and data`);
    if (!schemaUids.has(type)) throw strapiArchiveError(`${at}: entity of type ${type}, which is not in the archive's schemas`);
    const id = rowId(value.id, at);
    const kept = await writeEntity(db, registry, state, type, id, data, at, options.assets);
    const counts = kept ? state.counts : state.skipped;
    counts.set(type, (counts.get(type) ?? 0) + 1);
    if (++total % 1000 === 0) options.progress(`entities: ${total}`);
  }
  return state;
}
