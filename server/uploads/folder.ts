import type { Db } from '../db/database.js';
import { FOLDERS_TABLE } from '../db/system-tables.js';
import { newDocumentId } from '../documents/index.js';
import { validationError } from '../errors/app-error.js';

/** The folder Strapi puts every file uploaded through the REST API in. */
export const API_UPLOADS_FOLDER = 'API Uploads';

/** A media library folder, as files reference it (the root: no id, path `/`). */
export interface Folder {
  readonly id: number | null;
  /** `/<pathId>`: copied into the file's `folderPath`. */
  readonly path: string;
}

/**
 * Finds or creates the root "API Uploads" folder, as Strapi's api-upload-folder service does:
 * pathId is the next free one and path is `/<pathId>`. Run it inside the upload's transaction so
 * two concurrent first uploads cannot create it twice.
 */
export async function apiUploadsFolder(db: Db, now: string): Promise<Folder> {
  const existing = await db
    .selectFrom(FOLDERS_TABLE)
    .select(['id', 'path'])
    .where('name', '=', API_UPLOADS_FOLDER)
    .where('parent_id', 'is', null)
    .orderBy('id')
    .executeTakeFirst();
  if (existing) return { id: existing.id, path: existing.path };
  const max = await db
    .selectFrom(FOLDERS_TABLE)
    .select((eb) => eb.fn.max<number>('pathId').as('max'))
    .executeTakeFirst();
  const pathId = Number(max?.max ?? 0) + 1;
  const path = `/${pathId}`;
  const row = await db
    .insertInto(FOLDERS_TABLE)
    .values({
      documentId: newDocumentId(),
      name: API_UPLOADS_FOLDER,
      pathId,
      path,
      parent_id: null,
      locale: null,
      createdAt: now,
      updatedAt: now,
      publishedAt: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: row.id, path };
}

/** The media library's root, where a file in no folder sits. */
export const ROOT_FOLDER: Folder = { id: null, path: '/' };

/**
 * Where an upload's files go: the content API's always go into "API Uploads" (`api-uploads`), as
 * Strapi's content-api upload controller files them; the admin's go where the person is looking.
 */
export type UploadFolder = 'api-uploads' | { readonly id: number | null };

/** The folder an upload's files are inserted into; an admin upload into a folder that does not exist is refused. */
export async function uploadFolder(db: Db, target: UploadFolder, now: string): Promise<Folder> {
  if (target === 'api-uploads') return apiUploadsFolder(db, now);
  if (target.id === null) return ROOT_FOLDER;
  const row = await db.selectFrom(FOLDERS_TABLE).select(['id', 'path']).where('id', '=', target.id).executeTakeFirst();
  if (!row) throw validationError('the folder does not exist', { errors: [{ path: ['folder'], message: 'the folder does not exist', name: 'ValidationError' }] });
  return { id: row.id, path: row.path };
}
