import type { ApiClient } from '../../api/client';
import { array, dataOf, nullable, num, object, str } from '../../api/decode';
import { fileDecoder, folderDecoder, pageDecoder, usagesDecoder, type Folder, type MediaFile, type Page, type Usage } from '../../api/types';

/** The type filter of the media library. */
export type MimeFilter = '' | 'image' | 'video' | 'audio' | 'file';

/** What the library lists. */
export interface FileQuery {
  readonly page: number;
  readonly pageSize: number;
  readonly sort: string;
  readonly folder: number | null;
  readonly mime: MimeFilter;
  readonly q: string;
}

/** One page of files of a folder (`folder=root` at the root); a search looks in every folder. */
export async function listFiles(client: ApiClient, query: FileQuery): Promise<Page<MediaFile>> {
  const answer = await client.get('/admin/api/upload/files', {
    page: query.page,
    pageSize: query.pageSize,
    sort: query.sort,
    folder: query.q ? undefined : (query.folder ?? 'root'),
    mime: query.mime || undefined,
    _q: query.q || undefined,
  });
  return pageDecoder(fileDecoder)(answer);
}

/** The folders under a parent (root when null). */
export async function listFolders(client: ApiClient, parent: number | null): Promise<Folder[]> {
  return dataOf(array(folderDecoder))(await client.get('/admin/api/upload/folders', parent === null ? {} : { parent }));
}

const folderStepDecoder = dataOf(object({ id: num, name: str, parent: nullable(num) }));

/** The folders from the top down to `id` (the library's breadcrumbs), walking up through each parent. */
export async function folderTrail(client: ApiClient, id: number): Promise<{ id: number; name: string }[]> {
  const trail: { id: number; name: string }[] = [];
  let next: number | null = id;
  // Folders form a tree (the server refuses moves into a sub-folder); the bound only guards against a bad answer.
  while (next !== null && trail.length < 100) {
    const folder = folderStepDecoder(await client.get(`/admin/api/upload/folders/${next}`));
    trail.unshift({ id: folder.id, name: folder.name });
    next = folder.parent;
  }
  return trail;
}

/** Creates a folder. */
export async function createFolder(client: ApiClient, name: string, parent: number | null): Promise<Folder> {
  return dataOf(folderDecoder)(await client.post('/admin/api/upload/folders', parent === null ? { name } : { name, parent }));
}

/** Renames a folder. */
export async function renameFolder(client: ApiClient, id: number, name: string): Promise<Folder> {
  return dataOf(folderDecoder)(await client.put(`/admin/api/upload/folders/${id}`, { name }));
}

/** Moves a folder, with its files and sub-folders, under another folder (the root when null). */
export async function moveFolder(client: ApiClient, id: number, parent: number | null): Promise<Folder> {
  return dataOf(folderDecoder)(await client.put(`/admin/api/upload/folders/${id}`, { parent }));
}

/** A folder a file can be moved into, labelled with its path of names ("Photos / Summer"). */
export interface FolderChoice {
  readonly id: number;
  readonly label: string;
}

/** Every folder, depth first, in name order at each level. */
export async function listAllFolders(client: ApiClient): Promise<FolderChoice[]> {
  const out: FolderChoice[] = [];
  const walk = async (parent: number | null, prefix: string): Promise<void> => {
    for (const folder of await listFolders(client, parent)) {
      const label = prefix === '' ? folder.name : `${prefix} / ${folder.name}`;
      out.push({ id: folder.id, label });
      if (folder.childCount > 0) await walk(folder.id, label);
    }
  };
  await walk(null, '');
  return out;
}

/** Deletes a folder with its files and sub-folders. */
export async function deleteFolder(client: ApiClient, id: number): Promise<void> {
  await client.del(`/admin/api/upload/folders/${id}`);
}

/** Moves a file into a folder (root when null). */
export async function moveFile(client: ApiClient, id: number, folder: number | null): Promise<void> {
  await client.post(`/admin/api/upload/files/${id}/move`, { folder });
}

/** Where a file is used. */
export async function whereUsed(client: ApiClient, id: number): Promise<Usage[]> {
  return usagesDecoder(await client.get(`/admin/api/upload/files/${id}/where-used`));
}

/** Updates a file's name, alternative text and caption through the upload API. */
export async function updateFileInfo(client: ApiClient, id: number, info: { name: string; alternativeText: string; caption: string }): Promise<MediaFile> {
  const form = new FormData();
  form.append('fileInfo', JSON.stringify(info));
  return fileDecoder(await client.sendForm(`/api/upload?id=${id}`, form));
}

/** Deletes a file through the upload API. */
export async function deleteFile(client: ApiClient, id: number): Promise<void> {
  await client.del(`/api/upload/files/${id}`);
}

/** The files an upload answer carries (the upload API answers with a bare array, a replace with one object). */
export function uploadedFiles(answer: unknown): MediaFile[] {
  return Array.isArray(answer) ? array(fileDecoder)(answer) : [fileDecoder(answer)];
}

/** A file's absolute URL, for copying. */
export function absoluteUrl(url: string): string {
  return new URL(url, window.location.origin).toString();
}

/** A human size from Strapi's kilobytes. */
export function formatSize(kb: number): string {
  if (kb < 1) return `${Math.round(kb * 1024)} B`;
  if (kb < 1024) return `${kb.toFixed(kb < 10 ? 1 : 0)} KB`;
  return `${(kb / 1024).toFixed(1)} MB`;
}

/**
 * A file URL for display: a replaced file keeps its URL, so local URLs get the file's update time
 * as a version to get past the browser cache (signed or remote URLs are left as they are).
 */
export function freshUrl(url: string, file: MediaFile): string {
  if (!url.startsWith('/') || !file.updatedAt) return url;
  return `${url}${url.includes('?') ? '&' : '?'}v=${encodeURIComponent(file.updatedAt)}`;
}

/** The best small preview of a file, or null when it is not an image. */
export function thumbnailOf(file: MediaFile): string | null {
  if (!file.mime.startsWith('image/')) return null;
  return freshUrl(file.formats?.thumbnail?.url ?? file.formats?.small?.url ?? file.url, file);
}

/** Maps a field's allowed types to the library's type filter (only when exactly one kind is allowed). */
export function mimeFor(allowedTypes: readonly string[] | undefined): MimeFilter {
  if (!allowedTypes || allowedTypes.length !== 1) return '';
  const map: Record<string, MimeFilter> = { images: 'image', videos: 'video', audios: 'audio', files: 'file' };
  return map[allowedTypes[0] ?? ''] ?? '';
}

/** The one file a replace answers with. */
export function fileDecoderOf(answer: unknown): MediaFile {
  const [file] = uploadedFiles(answer);
  if (!file) throw new Error('The server answered without the file.');
  return file;
}
