import { useState } from 'react';
import { describeError } from '../../api/errors';
import type { MediaFile } from '../../api/types';
import { Dialog } from '../../components/dialog';
import { EmptyState, ErrorNotice, Loading } from '../../components/feedback';
import { Pager } from '../../components/pagination';
import { DropZone } from './drop-zone';
import { FileGrid } from './file-grid';
import { Breadcrumbs, FolderList } from './folder-bar';
import { LibraryToolbar } from './library-toolbar';
import { mimeFor } from './media-api';
import { UploadQueue } from './upload-queue';
import { useLibrary } from './use-library';
import { useUploads } from './use-uploads';

/** Props of the media picker. */
export interface MediaPickerProps {
  readonly multiple: boolean;
  readonly allowedTypes?: readonly string[] | undefined;
  readonly onPick: (files: MediaFile[]) => void;
  readonly onClose: () => void;
}

const ACCEPT: Record<string, string> = { images: 'image/*', videos: 'video/*', audios: 'audio/*' };

/** Chooses files from the library (browsing folders, searching, uploading new ones) for a media field. */
export function MediaPickerDialog({ multiple, allowedTypes, onPick, onClose }: MediaPickerProps) {
  const mime = mimeFor(allowedTypes);
  const library = useLibrary({ pageSize: 18, mime });
  const [chosen, setChosen] = useState<MediaFile[]>([]);
  const uploads = useUploads(library.folder, (files) => {
    library.reload();
    setChosen((c) => (multiple ? [...c, ...files] : files.slice(0, 1)));
  });
  const toggle = (file: MediaFile) =>
    setChosen((c) => (c.some((f) => f.id === file.id) ? c.filter((f) => f.id !== file.id) : multiple ? [...c, file] : [file]));
  const selected = new Set(chosen.map((f) => f.id));
  const page = library.files.data;
  const accept = allowedTypes && !allowedTypes.includes('files') ? allowedTypes.map((t) => ACCEPT[t] ?? '').filter(Boolean).join(',') : undefined;

  return (
    <Dialog
      title={multiple ? 'Choose files' : 'Choose a file'}
      onClose={onClose}
      size="large"
      footer={
        <>
          <span className="muted" aria-live="polite">
            {chosen.length === 0 ? 'Nothing selected' : `${chosen.length} selected`}
          </span>
          <span className="spacer" />
          <button type="button" className="btn" onClick={onClose}>
            Cancel
          </button>
          <button type="button" className="btn btn-primary" disabled={chosen.length === 0} onClick={() => onPick(chosen)}>
            {multiple ? 'Add selected' : 'Use this file'}
          </button>
        </>
      }
    >
      <Breadcrumbs trail={library.trail} onOpen={library.up} />
      <LibraryToolbar library={library} lockMime={mime !== ''} idPrefix="picker" />
      <DropZone onFiles={(files) => void uploads.add(files)} accept={accept} compact>
        <UploadQueue items={uploads.items} onClear={uploads.clear} />
      </DropZone>
      {library.q === '' ? <FolderList folders={library.folders.data ?? []} onOpen={library.open} /> : null}
      {library.files.error ? <ErrorNotice message={describeError(library.files.error)} onRetry={library.files.reload} /> : null}
      {library.files.loading && !page ? <Loading label="Loading files…" /> : null}
      {page && page.items.length === 0 ? <EmptyState title="No files here">Upload files above, or look in another folder.</EmptyState> : null}
      {page && page.items.length > 0 ? (
        <>
          <FileGrid files={page.items} view="grid" selected={selected} onActivate={toggle} />
          <Pager page={page.pagination.page} pageCount={page.pagination.pageCount} total={page.pagination.total} onPage={library.setPage} label="Picker pages" />
        </>
      ) : null}
    </Dialog>
  );
}
