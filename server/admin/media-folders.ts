import type { Selectable } from 'kysely';
import type { Db } from '../db/database.js';
import { FILES_TABLE, FOLDERS_TABLE, type FolderTable } from '../db/system-tables.js';
import { newDocumentId } from '../documents/index.js';
import { fieldError } from '../errors/app-error.js';
import { MAX_FOLDER_NAME_LENGTH } from '../limits.js';

/** A media library folder as the admin API shows it. */
export interface FolderOut {
  readonly id: number;
  readonly name: string;
  readonly pathId: number;
  /** `/<pathId of the root ancestor>/.../<own pathId>`, as Strapi's folders; files carry it as `folderPath`. */
  readonly path: string;
  readonly parent: number | null;
  readonly children: { readonly count: number };
  readonly files: { readonly count: number };
  readonly createdAt: string;
  readonly updatedAt: string;
}

const under = (path: string) => `${path}/%`;

/** Media library folders (admin only, as in Strapi): nested by `parent_id`, addressed by `path`. */
export function createMediaFolders(deps: { db: Db; now: () => Date }) {
  const { db, now } = deps;

  /** Counts rows per key (`parent_id` of folders, `folder_id` of files) for the given folders, in one query. */
  async function countsBy(table: string, column: string, ids: number[]): Promise<Map<number, number>> {
    if (ids.length === 0) return new Map();
    const rows = await db
      .selectFrom(table)
      .select([column, (eb) => eb.fn.countAll().as('n')])
      .where(column, 'in', ids)
      .groupBy(column)
      .execute();
    return new Map(rows.map((r) => [Number(r[column]), Number(r.n)]));
  }

  async function present(rows: Selectable<FolderTable>[]): Promise<FolderOut[]> {
    const ids = rows.map((r) => r.id);
    const children = await countsBy(FOLDERS_TABLE, 'parent_id', ids);
    const files = await countsBy(FILES_TABLE, 'folder_id', ids);
    return rows.map((row) => {
      const id = row.id;
      return {
        id,
        name: row.name,
        pathId: row.pathId,
        path: row.path,
        parent: row.parent_id,
        children: { count: children.get(id) ?? 0 },
        files: { count: files.get(id) ?? 0 },
        createdAt: row.createdAt,
        updatedAt: row.updatedAt,
      };
    });
  }

  const row = (id: number, on: Db = db) => on.selectFrom(FOLDERS_TABLE).selectAll().where('id', '=', id).executeTakeFirst();

  async function checkName(on: Db, name: string, parent: number | null, exceptId: number | null): Promise<string> {
    const trimmed = name.trim();
    if (trimmed === '' || trimmed.length > MAX_FOLDER_NAME_LENGTH || trimmed.includes('/')) {
      throw fieldError(['name'], `name must be 1 to ${MAX_FOLDER_NAME_LENGTH} characters, without "/"`);
    }
    let q = on.selectFrom(FOLDERS_TABLE).select('id').where('name', '=', trimmed).where('parent_id', parent === null ? 'is' : '=', parent);
    if (exceptId !== null) q = q.where('id', '<>', exceptId);
    if (await q.executeTakeFirst()) throw fieldError(['name'], 'A folder with this name already exists here');
    return trimmed;
  }

  async function parentPath(on: Db, parent: number | null): Promise<string> {
    if (parent === null) return '';
    const found = await row(parent, on);
    if (!found) throw fieldError(['parent'], 'parent folder does not exist');
    return found.path;
  }

  const folders = {
    /** The folders directly under `parent` (the root when null), by name. */
    async list(parent: number | null): Promise<FolderOut[]> {
      const rows = await db.selectFrom(FOLDERS_TABLE).selectAll().where('parent_id', parent === null ? 'is' : '=', parent).orderBy('name').orderBy('id').execute();
      return present(rows);
    },

    async get(id: number): Promise<FolderOut | undefined> {
      const found = await row(id);
      return found ? (await present([found]))[0] : undefined;
    },

    async create(input: { name: string; parent: number | null }): Promise<FolderOut> {
      const id = await db.transaction().execute(async (trx) => {
        const name = await checkName(trx, input.name, input.parent, null);
        const prefix = await parentPath(trx, input.parent);
        const max = await trx.selectFrom(FOLDERS_TABLE).select((eb) => eb.fn.max('pathId').as('m')).executeTakeFirst();
        const pathId = Number(max?.m ?? 0) + 1;
        const at = now().toISOString();
        const inserted = await trx
          .insertInto(FOLDERS_TABLE)
          .values({ documentId: newDocumentId(), name, pathId, path: `${prefix}/${pathId}`, parent_id: input.parent, locale: null, createdAt: at, updatedAt: at, publishedAt: at })
          .returning('id')
          .executeTakeFirstOrThrow();
        return inserted.id;
      });
      const created = await folders.get(id);
      if (!created) throw fieldError(['name'], 'folder could not be stored');
      return created;
    },

    /** Renames and/or moves a folder; sub-folders and files follow its new path. */
    async update(id: number, input: { name?: string; parent?: number | null }): Promise<FolderOut | undefined> {
      const found = await db.transaction().execute(async (trx) => {
        const current = await row(id, trx);
        if (!current) return false;
        const oldPath = current.path;
        const parent = input.parent === undefined ? current.parent_id : input.parent;
        const name = await checkName(trx, input.name ?? current.name, parent, id);
        const prefix = await parentPath(trx, parent);
        if (prefix === oldPath || prefix.startsWith(`${oldPath}/`)) throw fieldError(['parent'], 'a folder cannot move into itself or its sub-folders');
        const newPath = `${prefix}/${current.pathId}`;
        const at = now().toISOString();
        await trx.updateTable(FOLDERS_TABLE).set({ name, parent_id: parent, path: newPath, updatedAt: at }).where('id', '=', id).execute();
        if (newPath !== oldPath) {
          for (const sub of await trx.selectFrom(FOLDERS_TABLE).select(['id', 'path']).where('path', 'like', under(oldPath)).execute()) {
            await trx.updateTable(FOLDERS_TABLE).set({ path: newPath + sub.path.slice(oldPath.length) }).where('id', '=', sub.id).execute();
          }
          for (const file of await trx.selectFrom(FILES_TABLE).select(['id', 'folderPath']).where((eb) => eb.or([eb('folderPath', '=', oldPath), eb('folderPath', 'like', under(oldPath))])).execute()) {
            await trx.updateTable(FILES_TABLE).set({ folderPath: newPath + file.folderPath.slice(oldPath.length) }).where('id', '=', file.id).execute();
          }
        }
        return true;
      });
      return found ? folders.get(id) : undefined;
    },

    /** The ids of the files inside a folder and all its sub-folders. */
    async filesWithin(id: number): Promise<number[]> {
      const found = await row(id);
      if (!found) return [];
      const path = found.path;
      const ids = await db.selectFrom(FOLDERS_TABLE).select('id').where((eb) => eb.or([eb('id', '=', id), eb('path', 'like', under(path))])).execute();
      const files = await db.selectFrom(FILES_TABLE).select('id').where('folder_id', 'in', ids.map((r) => r.id)).execute();
      return files.map((f) => f.id);
    },

    /** Deletes a folder row; its sub-folders go with it (the parent key cascades). */
    async removeRow(id: number): Promise<void> {
      await db.deleteFrom(FOLDERS_TABLE).where('id', '=', id).execute();
    },

    /** Puts a file in a folder (null: the root). False when the file does not exist. */
    async moveFile(fileId: number, folder: number | null): Promise<boolean> {
      const path = folder === null ? '/' : await parentPath(db, folder);
      const result = await db
        .updateTable(FILES_TABLE)
        .set({ folder_id: folder, folderPath: path, updatedAt: now().toISOString() })
        .where('id', '=', fileId)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    /** A folder's path, for filtering files by `folderPath`. */
    async pathOf(id: number): Promise<string | undefined> {
      const found = await row(id);
      return found ? found.path : undefined;
    },
  };
  return folders;
}

/** The media library's folders. */
export type MediaFolders = ReturnType<typeof createMediaFolders>;
