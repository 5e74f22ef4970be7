import { useState, type FormEvent } from 'react';
import { describeError } from '../../api/errors';
import { useLoad } from '../../api/use-load';
import type { Folder, MediaFile } from '../../api/types';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { Dialog, FormDialogFooter } from '../../components/dialog';
import { Field } from '../../components/field';
import { EmptyState, ErrorNotice, Loading, PageHeader } from '../../components/feedback';
import { Pager } from '../../components/pagination';
import { useToast } from '../../components/toast';
import { useClient } from '../auth/session';
import { DropZone } from './drop-zone';
import { FileDialog } from './file-dialog';
import { FileGrid } from './file-grid';
import { Breadcrumbs, FolderList } from './folder-bar';
import { LibraryToolbar } from './library-toolbar';
import { createFolder, deleteFolder, listAllFolders, moveFolder, renameFolder } from './media-api';
import { UploadQueue } from './upload-queue';
import { useLibrary } from './use-library';
import { useUploads } from './use-uploads';

const PAGE_SIZE = 24;

/** Names a folder: a new one, or an existing one renamed. */
function FolderNameDialog({
  title,
  submitLabel,
  initial = '',
  onClose,
  onSubmit,
}: {
  readonly title: string;
  readonly submitLabel: string;
  readonly initial?: string;
  readonly onClose: () => void;
  readonly onSubmit: (name: string) => Promise<void>;
}) {
  const [name, setName] = useState(initial);
  const [error, setError] = useState<unknown>(null);
  const unchanged = name.trim() === '' || name.trim() === initial;
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (unchanged) return;
    try {
      await onSubmit(name.trim());
      onClose();
    } catch (e) {
      setError(e);
    }
  };
  return (
    <Dialog
      title={title}
      onClose={onClose}
      size="small"
      footer={<FormDialogFooter form="folder-form" submitLabel={submitLabel} disabled={unchanged} onCancel={onClose} />}
    >
      <form id="folder-form" onSubmit={submit}>
        <Field id="folder-name" label="Folder name" error={error ? describeError(error) : undefined}>
          <input id="folder-name" value={name} onChange={(e) => setName(e.target.value)} data-autofocus />
        </Field>
      </form>
    </Dialog>
  );
}

/** Moves a folder under another one (not itself or one of its own sub-folders) or to the root. */
function MoveFolderDialog({ folder, onClose, onMoved }: { readonly folder: Folder; readonly onClose: () => void; readonly onMoved: (label: string) => void }) {
  const client = useClient();
  const all = useLoad(() => listAllFolders(client), `all-folders:${folder.id}`);
  const own = all.data?.find((f) => f.id === folder.id)?.label;
  // A folder cannot go into itself or below itself (the server refuses it too).
  const targets = (all.data ?? []).filter((f) => own === undefined || (f.label !== own && !f.label.startsWith(`${own} / `)));
  const [target, setTarget] = useState('');
  const [error, setError] = useState<unknown>(null);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (target === '') return;
    try {
      await moveFolder(client, folder.id, target === 'root' ? null : Number(target));
      onMoved(target === 'root' ? 'Media library' : (targets.find((f) => String(f.id) === target)?.label ?? 'the folder'));
      onClose();
    } catch (e) {
      setError(e);
    }
  };
  return (
    <Dialog
      title={`Move folder “${folder.name}”`}
      onClose={onClose}
      size="small"
      footer={<FormDialogFooter form="move-folder-form" submitLabel="Move folder" disabled={target === ''} onCancel={onClose} />}
    >
      <form id="move-folder-form" onSubmit={submit}>
        <Field id="move-folder-target" label="Move into" hint="Its files and sub-folders move with it." error={error ? describeError(error) : undefined}>
          <select id="move-folder-target" value={target} onChange={(e) => setTarget(e.target.value)} disabled={all.loading} aria-describedby="move-folder-target-hint" data-autofocus>
            <option value="">Choose a folder…</option>
            <option value="root">Media library (top level)</option>
            {targets.map((f) => (
              <option key={f.id} value={String(f.id)}>
                {f.label}
              </option>
            ))}
          </select>
        </Field>
      </form>
    </Dialog>
  );
}

/** The media library: folders, grid or list of files, upload by drag-and-drop or picker with per-file progress. */
export function MediaLibrary() {
  const client = useClient();
  const { notify } = useToast();
  const library = useLibrary({ pageSize: PAGE_SIZE, folderInUrl: true });
  const [view, setView] = useState<'grid' | 'list'>('grid');
  const [open, setOpen] = useState<MediaFile | null>(null);
  const [newFolder, setNewFolder] = useState(false);
  const [removing, setRemoving] = useState<Folder | null>(null);
  const [renaming, setRenaming] = useState<Folder | null>(null);
  const [moving, setMoving] = useState<Folder | null>(null);
  const uploads = useUploads(library.folder, (files) => {
    notify(files.length === 1 ? '1 file uploaded' : `${files.length} files uploaded`);
    library.reload();
  });
  const { files, folders } = library;
  const page = files.data;
  const nothing = !files.loading && page?.items.length === 0 && (folders.data?.length ?? 0) === 0;
  const filtered = library.q !== '' || library.mime !== '';

  return (
    <div className="screen">
      <PageHeader
        title="Media library"
        subtitle="Images, videos and files for your content."
        actions={
          <button type="button" className="btn" onClick={() => setNewFolder(true)}>
            New folder
          </button>
        }
      />
      <Breadcrumbs trail={library.trail} onOpen={library.up} />
      <DropZone onFiles={(list) => void uploads.add(list)}>
        <UploadQueue items={uploads.items} onClear={uploads.clear} />
      </DropZone>
      <LibraryToolbar library={library} view={view} onView={setView} idPrefix="library" />
      {folders.error ? <ErrorNotice message={describeError(folders.error)} onRetry={folders.reload} /> : null}
      {filtered ? null : <FolderList folders={folders.data ?? []} onOpen={library.open} onRename={setRenaming} onMove={setMoving} onDelete={setRemoving} />}
      {files.error ? <ErrorNotice message={describeError(files.error)} onRetry={files.reload} /> : null}
      {files.loading && !page ? <Loading label="Loading files…" /> : null}
      {nothing ? (
        <EmptyState title={filtered ? 'No files match' : 'No files here yet'}>
          {filtered ? 'Try another search or type.' : 'Drop files above, or choose them from your computer.'}
        </EmptyState>
      ) : null}
      {page && page.items.length > 0 ? (
        <section aria-label="Files" aria-busy={files.loading}>
          <FileGrid files={page.items} view={view} onActivate={setOpen} />
          <Pager page={page.pagination.page} pageCount={page.pagination.pageCount} total={page.pagination.total} onPage={library.setPage} label="Files pages" />
        </section>
      ) : null}
      {open ? <FileDialog file={open} folder={library.q !== '' ? undefined : library.folder} onClose={() => setOpen(null)} onChanged={library.reload} /> : null}
      {newFolder ? (
        <FolderNameDialog
          title="New folder"
          submitLabel="Create folder"
          onClose={() => setNewFolder(false)}
          onSubmit={async (name) => {
            await createFolder(client, name, library.folder);
            library.reload();
          }}
        />
      ) : null}
      {renaming ? (
        <FolderNameDialog
          title={`Rename folder “${renaming.name}”`}
          submitLabel="Rename folder"
          initial={renaming.name}
          onClose={() => setRenaming(null)}
          onSubmit={async (name) => {
            await renameFolder(client, renaming.id, name);
            notify(`Folder renamed to ${name}`);
            library.reload();
          }}
        />
      ) : null}
      {moving ? (
        <MoveFolderDialog
          folder={moving}
          onClose={() => setMoving(null)}
          onMoved={(label) => {
            notify(`Folder ${moving.name} moved to ${label}`);
            library.reload();
          }}
        />
      ) : null}
      {removing ? (
        <ConfirmDialog
          title={`Delete folder “${removing.name}”?`}
          confirmLabel="Delete folder and its files"
          danger
          onClose={() => setRemoving(null)}
          onConfirm={async () => {
            await deleteFolder(client, removing.id);
            notify(`Folder ${removing.name} deleted`);
            library.reload();
          }}
        >
          <p>
            The folder, its {removing.fileCount} {removing.fileCount === 1 ? 'file' : 'files'} and its sub-folders are deleted. Entries using these files lose them.
          </p>
        </ConfirmDialog>
      ) : null}
    </div>
  );
}
