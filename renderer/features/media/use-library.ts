import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { useLoad } from '../../api/use-load';
import type { Folder } from '../../api/types';
import { useClient } from '../auth/session';
import { isMediaEvent, useLiveRefresh } from '../live/live-events';
import type { Crumb } from './folder-bar';
import { folderTrail, listFiles, listFolders, type MimeFilter } from './media-api';

/** Sort orders the library offers. */
export const SORTS = [
  { value: 'createdAt:desc', label: 'Newest first' },
  { value: 'createdAt:asc', label: 'Oldest first' },
  { value: 'name:asc', label: 'Name A–Z' },
  { value: 'name:desc', label: 'Name Z–A' },
  { value: 'updatedAt:desc', label: 'Recently changed' },
] as const;

/** Type filters the library offers. */
export const MIME_FILTERS: readonly { value: MimeFilter; label: string }[] = [
  { value: '', label: 'All types' },
  { value: 'image', label: 'Images' },
  { value: 'video', label: 'Videos' },
  { value: 'audio', label: 'Audio' },
  { value: 'file', label: 'Other files' },
];

const ROOT: Crumb = { id: null, name: 'Media library' };

/** A `?folder=` value: a folder id, or null for the root (or anything that is not an id). */
const folderParam = (value: string | null): number | null => (value !== null && /^\d+$/.test(value) ? Number(value) : null);

/**
 * The folder being browsed: in the address (`?folder=<id>`) for the library screen, so it survives a
 * reload and browser Back returns to the folder before; kept in the component for the picker dialog.
 */
function useFolderTrail(inUrl: boolean) {
  const client = useClient();
  const [params, setParams] = useSearchParams();
  const [own, setOwn] = useState<Crumb[]>([ROOT]);
  const fromUrl = inUrl ? folderParam(params.get('folder')) : null;
  const loaded = useLoad(async (): Promise<Crumb[]> => (fromUrl === null ? [ROOT] : [ROOT, ...(await folderTrail(client, fromUrl))]), `trail:${inUrl ? (fromUrl ?? 'root') : 'none'}`);
  if (!inUrl) {
    return { trail: own, folder: own[own.length - 1]?.id ?? null, go: (trail: Crumb[]) => setOwn(trail) };
  }
  // Until the folder's names arrive (or if they cannot), the crumb shows the folder without its name.
  const known = loaded.data?.[loaded.data.length - 1]?.id === fromUrl ? loaded.data : null;
  const trail = known ?? (fromUrl === null ? [ROOT] : [ROOT, { id: fromUrl, name: '…' }]);
  const go = (next: Crumb[]) => {
    const id = next[next.length - 1]?.id ?? null;
    const changed = new URLSearchParams(params);
    if (id === null) changed.delete('folder');
    else changed.set('folder', String(id));
    setParams(changed);
  };
  return { trail, folder: fromUrl, go };
}

/** Browsing state of the media library: folder trail, filters, page, and the loaded folders and files. */
export function useLibrary(options: { pageSize: number; mime?: MimeFilter; folderInUrl?: boolean }) {
  const client = useClient();
  const { trail, folder, go } = useFolderTrail(options.folderInUrl === true);
  const [mime, setMime] = useState<MimeFilter>(options.mime ?? '');
  const [sort, setSort] = useState<string>('createdAt:desc');
  const [q, setQ] = useState('');
  // A page belongs to its folder: another folder (opened, or reached with browser Back) starts at 1.
  const [paged, setPaged] = useState<{ folder: number | null; page: number }>({ folder, page: 1 });
  const page = paged.folder === folder ? paged.page : 1;
  const setPage = (n: number) => setPaged({ folder, page: n });
  const key = JSON.stringify({ folder, mime, sort, q, page });
  const folders = useLoad(() => listFolders(client, folder), `folders:${folder ?? 'root'}`);
  const files = useLoad(() => listFiles(client, { page, pageSize: options.pageSize, sort, folder, mime, q }), key);
  // A file uploaded, changed or deleted elsewhere: the folder's folders and files are read again.
  useLiveRefresh(isMediaEvent, () => {
    folders.reload();
    files.reload();
  });
  const reset = <T,>(set: (v: T) => void) => (v: T) => {
    set(v);
    setPage(1);
  };
  return {
    trail,
    folder,
    folders,
    files,
    mime,
    sort,
    q,
    page,
    setMime: reset(setMime),
    setSort: reset(setSort),
    setQ: reset(setQ),
    setPage,
    open: (f: Folder) => go([...trail, { id: f.id, name: f.name }]),
    up: (index: number) => go(trail.slice(0, index + 1)),
    reload: () => {
      folders.reload();
      files.reload();
    },
  };
}

/** The library's state, as the toolbar and screens take it. */
export type Library = ReturnType<typeof useLibrary>;
