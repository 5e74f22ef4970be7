import { useRef, useState, type FormEvent } from 'react';
import { describeError } from '../../api/errors';
import { useLoad } from '../../api/use-load';
import type { MediaFile, Usage } from '../../api/types';
import { CopyButton } from '../../components/copy-button';
import { Dialog } from '../../components/dialog';
import { Field } from '../../components/field';
import { ErrorNotice, Loading } from '../../components/feedback';
import { useToast } from '../../components/toast';
import { useClient } from '../auth/session';
import { absoluteUrl, deleteFile, fileDecoderOf, formatSize, freshUrl, listAllFolders, moveFile, thumbnailOf, updateFileInfo, whereUsed } from './media-api';

/** Props of the file details dialog. */
export interface FileDialogProps {
  readonly file: MediaFile;
  /** The folder the file is in (null: the root), when the library knows it (not in search results). */
  readonly folder?: number | null;
  readonly onClose: () => void;
  /** Called after an edit, a replace or a delete, so the library reloads. */
  readonly onChanged: () => void;
}

function DeleteStep({ file, onCancel, onDeleted }: { readonly file: MediaFile; readonly onCancel: () => void; readonly onDeleted: () => void }) {
  const client = useClient();
  const where = useLoad(() => whereUsed(client, file.id), `where-used:${file.id}`);
  const usages: Usage[] | null = where.loading ? null : (where.data ?? []);
  const [failure, setError] = useState<unknown>(null);
  const error = failure ?? where.error;
  const [busy, setBusy] = useState(false);
  const confirm = async () => {
    setBusy(true);
    try {
      await deleteFile(client, file.id);
      onDeleted();
    } catch (e) {
      setError(e);
      setBusy(false);
    }
  };
  return (
    <div className="stack danger-zone" role="group" aria-label="Delete this file">
      {usages === null ? <Loading label="Checking where the file is used…" /> : null}
      {usages && usages.length > 0 ? (
        <div className="notice notice-warning" role="alert">
          <p>
            This file is used in {usages.length} {usages.length === 1 ? 'place' : 'places'}. Deleting it removes it from:
          </p>
          <ul>
            {usages.map((u) => (
              <li key={`${u.uid}:${u.documentId}:${u.locale ?? ''}:${u.field}`}>
                {u.displayName ?? u.uid} “{u.title ?? u.documentId}”{u.locale ? ` (${u.locale})` : ''}, field <code>{u.field}</code>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {usages && usages.length === 0 && !error ? <p>This file is not used by any entry.</p> : null}
      {error ? <ErrorNotice message={describeError(error)} /> : null}
      <div className="button-row">
        <button type="button" className="btn" onClick={onCancel}>
          Keep the file
        </button>
        <button type="button" className="btn btn-danger" onClick={confirm} disabled={busy || usages === null}>
          {busy ? 'Deleting…' : 'Delete permanently'}
        </button>
      </div>
    </div>
  );
}

const ROOT = 'root';

/** Moves the file into another folder (or to the root of the library). */
function MoveStep({ file, folder, onMoved }: { readonly file: MediaFile; readonly folder: number | null | undefined; readonly onMoved: (label: string) => void }) {
  const client = useClient();
  const folders = useLoad(() => listAllFolders(client), 'all-folders');
  const current = folder === undefined ? '' : folder === null ? ROOT : String(folder);
  const [target, setTarget] = useState(current);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const move = async (event: FormEvent) => {
    event.preventDefault();
    if (target === '' || target === current) return;
    setBusy(true);
    setError(null);
    try {
      await moveFile(client, file.id, target === ROOT ? null : Number(target));
      onMoved(target === ROOT ? 'Media library' : (folders.data?.find((f) => String(f.id) === target)?.label ?? 'the folder'));
    } catch (e) {
      setError(e);
      setBusy(false);
    }
  };
  return (
    <form className="stack" onSubmit={move} aria-label="Move this file">
      <Field id="file-folder" label="Folder" hint="Folders organise this library only; file URLs stay the same.">
        <select id="file-folder" value={target} onChange={(e) => setTarget(e.target.value)} disabled={folders.loading} aria-describedby="file-folder-hint">
          {current === '' ? <option value="">Choose a folder…</option> : null}
          <option value={ROOT}>Media library (no folder)</option>
          {(folders.data ?? []).map((f) => (
            <option key={f.id} value={String(f.id)}>
              {f.label}
            </option>
          ))}
        </select>
      </Field>
      {error || folders.error ? <ErrorNotice message={describeError(error ?? folders.error)} /> : null}
      <div className="button-row">
        <button type="submit" className="btn" disabled={busy || target === '' || target === current}>
          {busy ? 'Moving…' : 'Move file'}
        </button>
      </div>
    </form>
  );
}

/** A file's preview and details: edit name, alternative text and caption; replace; copy its URL; delete. */
export function FileDialog({ file: initial, folder, onClose, onChanged }: FileDialogProps) {
  const client = useClient();
  const { notify } = useToast();
  const [file, setFile] = useState(initial);
  const [info, setInfo] = useState({ name: initial.name, alternativeText: initial.alternativeText ?? '', caption: initial.caption ?? '' });
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [progress, setProgress] = useState<number | null>(null);
  const [deleting, setDeleting] = useState(false);
  const replaceInput = useRef<HTMLInputElement>(null);
  const thumb = thumbnailOf(file);

  const save = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      setFile(await updateFileInfo(client, file.id, info));
      notify('File details saved');
      onChanged();
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };

  const replace = async (replacement: File) => {
    setError(null);
    setProgress(0);
    try {
      const answer = await client.upload({ file: replacement, replaceId: file.id, fileInfo: info, onProgress: setProgress });
      setFile(fileDecoderOf(answer));
      notify('File replaced');
      onChanged();
    } catch (e) {
      setError(e);
    } finally {
      setProgress(null);
    }
  };

  return (
    <Dialog title={file.name} onClose={onClose} size="large">
      <div className="file-details">
        <div className="file-details-preview">
          {thumb ? <img src={freshUrl(file.formats?.small?.url ?? file.url, file)} alt={file.alternativeText ?? ''} /> : <span className="file-ext">{file.ext ?? file.mime}</span>}
          <dl className="meta-list">
            <dt>Type</dt>
            <dd>{file.mime}</dd>
            <dt>Size</dt>
            <dd>{formatSize(file.size)}</dd>
            {file.width && file.height ? (
              <>
                <dt>Dimensions</dt>
                <dd>
                  {file.width}×{file.height}
                </dd>
              </>
            ) : null}
            <dt>URL</dt>
            <dd className="url-cell">
              <code>{file.url}</code> <CopyButton text={absoluteUrl(file.url)} label="Copy URL" />
            </dd>
          </dl>
        </div>
        <div className="stack">
          <form className="stack" onSubmit={save}>
            <Field id="file-name" label="File name">
              <input id="file-name" value={info.name} onChange={(e) => setInfo({ ...info, name: e.target.value })} />
            </Field>
            <Field id="file-alt" label="Alternative text" hint="Describes the image for people who cannot see it.">
              <input id="file-alt" value={info.alternativeText} onChange={(e) => setInfo({ ...info, alternativeText: e.target.value })} aria-describedby="file-alt-hint" />
            </Field>
            <Field id="file-caption" label="Caption">
              <input id="file-caption" value={info.caption} onChange={(e) => setInfo({ ...info, caption: e.target.value })} />
            </Field>
            {progress !== null ? <progress className="upload-bar" max={100} value={Math.round(progress * 100)} aria-label="Replacing file" /> : null}
            {error ? <ErrorNotice message={describeError(error)} /> : null}
            <div className="button-row">
              <button type="submit" className="btn btn-primary" disabled={busy}>
                {busy ? 'Saving…' : 'Save details'}
              </button>
              <button type="button" className="btn" onClick={() => replaceInput.current?.click()} disabled={progress !== null}>
                Replace file
              </button>
              <input ref={replaceInput} type="file" className="visually-hidden" tabIndex={-1} aria-label="Replacement file" onChange={(e) => {
                const [f] = Array.from(e.target.files ?? []);
                e.target.value = '';
                if (f) void replace(f);
              }} />
              <span className="spacer" />
              {deleting ? null : (
                <button type="button" className="btn btn-danger-ghost" onClick={() => setDeleting(true)}>
                  Delete file
                </button>
              )}
            </div>
          </form>
          <MoveStep
            file={file}
            folder={folder}
            onMoved={(label) => {
              notify(`${file.name} moved to ${label}`);
              onChanged();
              onClose();
            }}
          />
        </div>
      </div>
      {deleting ? (
        <DeleteStep
          file={file}
          onCancel={() => setDeleting(false)}
          onDeleted={() => {
            notify(`${file.name} deleted`);
            onChanged();
            onClose();
          }}
        />
      ) : null}
    </Dialog>
  );
}
