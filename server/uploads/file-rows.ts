import type { Selectable } from 'kysely';
import type { Db } from '../db/database.js';
import { FILES_TABLE, type FileTable } from '../db/system-tables.js';
import { newDocumentId } from '../documents/index.js';
import type { Folder } from './folder.js';
import { isRecord } from '../errors/is-record.js';

/** One entry of a file's `formats`, shaped exactly as Strapi stores it. */
export interface FormatRecord {
  readonly name: string;
  readonly hash: string;
  readonly ext: string;
  readonly mime: string;
  readonly path: string | null;
  readonly width: number;
  readonly height: number;
  readonly size: number;
  readonly sizeInBytes: number;
  readonly url: string;
}

/** The columns of a file that uploads and replacements write. */
export interface FileValues {
  readonly name: string;
  readonly alternativeText: string | null;
  readonly caption: string | null;
  readonly focalPoint: unknown;
  readonly width: number | null;
  readonly height: number | null;
  readonly formats: Readonly<Record<string, FormatRecord>> | null;
  readonly hash: string;
  readonly ext: string;
  readonly mime: string;
  /** Kilobytes, two decimals. */
  readonly size: number;
  readonly url: string;
  readonly provider: string;
}

/** What the service needs to know of a stored file (to replace or delete its objects). */
export interface StoredFile {
  readonly id: number;
  readonly name: string;
  readonly hash: string;
  readonly ext: string;
  readonly url: string;
  readonly provider: string;
  /** Format key -> url. */
  readonly formatUrls: ReadonlyMap<string, string>;
  readonly alternativeText: string | null;
  readonly caption: string | null;
  readonly focalPoint: unknown;
}

const json = (value: unknown): string | null => (value === null || value === undefined ? null : JSON.stringify(value));
const text = (value: unknown): string | null => (value === null || value === undefined ? null : String(value));

function parseJson(value: unknown): unknown {
  if (typeof value !== 'string') return value ?? null;
  try {
    return JSON.parse(value);
  } catch {
    return null;
  }
}

/** The urls of a stored `formats` value, whatever shape it was left in. */
function formatUrls(value: unknown): Map<string, string> {
  const out = new Map<string, string>();
  const formats = parseJson(value);
  if (!isRecord(formats)) return out;
  for (const [key, format] of Object.entries(formats)) {
    if (isRecord(format) && typeof format.url === 'string') out.set(key, format.url);
  }
  return out;
}

/** The typed view of a file row. */
export function storedFile(row: Selectable<FileTable>): StoredFile {
  return {
    id: row.id,
    name: row.name,
    hash: row.hash,
    ext: text(row.ext) ?? '',
    url: row.url,
    provider: row.provider,
    formatUrls: formatUrls(row.formats),
    alternativeText: text(row.alternativeText),
    caption: text(row.caption),
    focalPoint: parseJson(row.focalPoint),
  };
}

/** A file row by id (every column), or undefined. */
export async function fileRow(db: Db, id: number): Promise<Selectable<FileTable> | undefined> {
  return db.selectFrom(FILES_TABLE).selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * Inserts a new file into a folder; every timestamp is `now`, as Strapi's files are never drafts.
 * `extras`: stored defaults of the attributes a project's extension adds.
 */
export async function insertFile(db: Db, values: FileValues, folder: Folder, now: string, extras: Readonly<Record<string, unknown>> = {}): Promise<number> {
  const row = await db
    .insertInto(FILES_TABLE)
    .values({
      ...extras,
      documentId: newDocumentId(),
      name: values.name,
      alternativeText: values.alternativeText,
      caption: values.caption,
      focalPoint: json(values.focalPoint),
      width: values.width,
      height: values.height,
      formats: json(values.formats),
      hash: values.hash,
      ext: values.ext,
      mime: values.mime,
      size: values.size,
      url: values.url,
      previewUrl: null,
      provider: values.provider,
      provider_metadata: null,
      folderPath: folder.path,
      folder_id: folder.id,
      locale: null,
      createdAt: now,
      updatedAt: now,
      publishedAt: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Updates some columns of a file and its `updatedAt`. */
export async function updateFile(db: Db, id: number, values: Partial<FileValues>, now: string): Promise<void> {
  const set: Record<string, unknown> = { updatedAt: now };
  for (const [key, value] of Object.entries(values)) {
    if (value === undefined) continue;
    set[key] = key === 'formats' || key === 'focalPoint' ? json(value) : value;
  }
  await db.updateTable(FILES_TABLE).set(set).where('id', '=', id).execute();
}

/** Deletes a file row; its links to entries go with it (ON DELETE CASCADE). */
export async function deleteFileRow(db: Db, id: number): Promise<void> {
  await db.deleteFrom(FILES_TABLE).where('id', '=', id).execute();
}
