import type { Folder } from '../../api/types';

/** A step of the folder path. */
export interface Crumb {
  readonly id: number | null;
  readonly name: string;
}

/** The folder path (breadcrumbs) of the media library. */
export function Breadcrumbs({ trail, onOpen }: { readonly trail: readonly Crumb[]; readonly onOpen: (index: number) => void }) {
  return (
    <nav aria-label="Folder path" className="breadcrumbs">
      <ol>
        {trail.map((c, i) => (
          <li key={`${c.id ?? 'root'}`}>
            {i === trail.length - 1 ? (
              <span aria-current="page">{c.name}</span>
            ) : (
              <button type="button" className="link-button" onClick={() => onOpen(i)}>
                {c.name}
              </button>
            )}
          </li>
        ))}
      </ol>
    </nav>
  );
}

/** The sub-folders of the current folder, each opened with a click. */
export function FolderList({
  folders,
  onOpen,
  onRename,
  onMove,
  onDelete,
}: {
  readonly folders: readonly Folder[];
  readonly onOpen: (f: Folder) => void;
  readonly onRename?: (f: Folder) => void;
  readonly onMove?: (f: Folder) => void;
  readonly onDelete?: (f: Folder) => void;
}) {
  if (folders.length === 0) return null;
  return (
    <ul className="folder-list" aria-label="Folders">
      {folders.map((f) => (
        <li key={f.id} className="folder-card">
          <button type="button" className="folder-open" onClick={() => onOpen(f)}>
            <span className="folder-icon" aria-hidden="true" />
            <span className="folder-name">{f.name}</span>
            <span className="muted">
              {f.fileCount} {f.fileCount === 1 ? 'file' : 'files'}
              {f.childCount > 0 ? ` · ${f.childCount} folders` : ''}
            </span>
          </button>
          {onRename ? (
            <button type="button" className="btn btn-ghost btn-small btn-icon" aria-label={`Rename folder ${f.name}`} onClick={() => onRename(f)}>
              <span aria-hidden="true">✎</span>
            </button>
          ) : null}
          {onMove ? (
            <button type="button" className="btn btn-ghost btn-small btn-icon" aria-label={`Move folder ${f.name}`} onClick={() => onMove(f)}>
              <span aria-hidden="true">↦</span>
            </button>
          ) : null}
          {onDelete ? (
            <button type="button" className="btn btn-ghost btn-small btn-icon" aria-label={`Delete folder ${f.name}`} onClick={() => onDelete(f)}>
              <span aria-hidden="true">×</span>
            </button>
          ) : null}
        </li>
      ))}
    </ul>
  );
}
