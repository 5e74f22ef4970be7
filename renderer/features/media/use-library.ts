import { useState } from 'react';
import { useLoad } from '../../api/use-load';
import type { Folder } from '../../api/types';
import { useClient } from '../auth/session';
import type { Crumb } from './folder-bar';
import { listFiles, listFolders, type MimeFilter } from './media-api';

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

/** Browsing state of the media library: folder trail, filters, page, and the loaded folders and files. */
export function useLibrary(options: { pageSize: number; mime?: MimeFilter }) {
  const client = useClient();
  const [trail, setTrail] = useState<Crumb[]>([{ id: null, name: 'Media library' }]);
  const [mime, setMime] = useState<MimeFilter>(options.mime ?? '');
  const [sort, setSort] = useState<string>('createdAt:desc');
  const [q, setQ] = useState('');
  const [page, setPage] = useState(1);
  const folder = trail[trail.length - 1]?.id ?? null;
  const key = JSON.stringify({ folder, mime, sort, q, page });
  const folders = useLoad(() => listFolders(client, folder), `folders:${folder ?? 'root'}`);
  const files = useLoad(() => listFiles(client, { page, pageSize: options.pageSize, sort, folder, mime, q }), key);
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
    open: (f: Folder) => {
      setTrail([...trail, { id: f.id, name: f.name }]);
      setPage(1);
    },
    up: (index: number) => {
      setTrail(trail.slice(0, index + 1));
      setPage(1);
    },
    reload: () => {
      folders.reload();
      files.reload();
    },
  };
}

/** The library's state, as the toolbar and screens take it. */
export type Library = ReturnType<typeof useLibrary>;
