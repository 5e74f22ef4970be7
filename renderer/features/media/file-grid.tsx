import type { MediaFile } from '../../api/types';
import { formatSize, thumbnailOf } from './media-api';

/** Props of the files view. */
export interface FileGridProps {
  readonly files: readonly MediaFile[];
  readonly view: 'grid' | 'list';
  /** Picker mode: files are toggled instead of opened. */
  readonly selected?: ReadonlySet<number>;
  readonly onActivate: (file: MediaFile) => void;
}

function Preview({ file }: { readonly file: MediaFile }) {
  const thumb = thumbnailOf(file);
  if (thumb) return <img src={thumb} alt={file.alternativeText ?? ''} loading="lazy" />;
  return (
    <span className="file-ext" aria-hidden="true">
      {(file.ext ?? file.mime.split('/')[1] ?? 'file').replace('.', '').toUpperCase()}
    </span>
  );
}

/** Files as a grid of thumbnails or a list with details; each is one button. */
export function FileGrid({ files, view, selected, onActivate }: FileGridProps) {
  const picking = selected !== undefined;
  if (view === 'list') {
    return (
      <table className="table file-table">
        <thead>
          <tr>
            <th scope="col">
              <span className="visually-hidden">Preview</span>
            </th>
            <th scope="col">Name</th>
            <th scope="col">Type</th>
            <th scope="col">Size</th>
            <th scope="col">Added</th>
          </tr>
        </thead>
        <tbody>
          {files.map((f) => (
            <tr key={f.id}>
              <td className="file-thumb-cell">
                <Preview file={f} />
              </td>
              <td>
                <button type="button" className="link-button" onClick={() => onActivate(f)} aria-pressed={picking ? selected.has(f.id) : undefined}>
                  {f.name}
                </button>
              </td>
              <td>{f.mime}</td>
              <td>{formatSize(f.size)}</td>
              <td>{f.createdAt ? new Date(f.createdAt).toLocaleDateString() : ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
    );
  }
  return (
    <ul className="file-grid">
      {files.map((f) => (
        <li key={f.id}>
          <button
            type="button"
            className={picking && selected.has(f.id) ? 'file-card selected' : 'file-card'}
            onClick={() => onActivate(f)}
            aria-pressed={picking ? selected.has(f.id) : undefined}
            aria-label={picking ? `Select ${f.name}` : `Open ${f.name}`}
            data-testid="file-card"
          >
            <span className="file-preview">
              <Preview file={f} />
            </span>
            <span className="file-name">{f.name}</span>
            <span className="file-meta">
              {f.width && f.height ? `${f.width}×${f.height} · ` : ''}
              {formatSize(f.size)}
            </span>
          </button>
        </li>
      ))}
    </ul>
  );
}
