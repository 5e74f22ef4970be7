import { useState, type ReactNode } from 'react';
import { isRecord } from '../../../api/decode';
import type { MediaFile } from '../../../api/types';
import { Field } from '../../../components/field';
import { moveItem, SortableList } from '../../../components/sortable-list';
import { MediaPickerDialog } from '../../media/media-picker-dialog';
import { thumbnailOf } from '../../media/media-api';
import type { MediaRef } from '../form-values';
import { humanize } from '../list-columns';
import { errorWithin, fieldId, useFormContext, type FieldControlProps } from './form-context';

const refsOf = (value: unknown): MediaRef[] => (Array.isArray(value) ? value.filter((v): v is MediaRef => isRecord(v) && typeof v.id === 'number' && typeof v.url === 'string') : []);
const toRef = (f: MediaFile): MediaRef => ({ id: f.id, name: f.name, url: f.url, mime: f.mime, thumbnail: thumbnailOf(f) });

/** A media field: the chosen files with previews, chosen from (or uploaded to) the media library. */
export function MediaField({ name, attribute, value, onChange, path }: FieldControlProps) {
  const { errors } = useFormContext();
  const [picking, setPicking] = useState(false);
  const id = fieldId(path);
  const error = errorWithin(errors, path);
  const label = humanize(name);
  const files = refsOf(value);
  const multiple = attribute.multiple === true;
  const remove = (fileId: number) => onChange(files.filter((f) => f.id !== fileId));
  const card = (f: MediaRef, handle: ReactNode) => (
    <div className="media-item" data-testid="media-item">
      {handle}
      {f.thumbnail ? <img src={f.thumbnail} alt="" /> : <span className="file-ext">{f.mime.split('/')[1] ?? 'file'}</span>}
      <span className="media-name">{f.name}</span>
      <button type="button" className="btn btn-ghost btn-small" aria-label={`Remove ${f.name} from ${label}`} onClick={() => remove(f.id)}>
        Remove
      </button>
    </div>
  );
  return (
    <Field id={id} label={label} error={error} group required={attribute.required} hint={attribute.allowedTypes && attribute.allowedTypes.length < 4 ? `Accepts ${attribute.allowedTypes.join(', ')}.` : undefined}>
      {files.length === 0 ? <p className="muted">No {multiple ? 'files' : 'file'} chosen.</p> : null}
      {multiple && files.length > 0 ? (
        <SortableList items={files} getKey={(f) => String(f.id)} getLabel={(f) => f.name} label={`${label} files`} className="media-list" onMove={(a, b) => onChange(moveItem(files, a, b))} renderItem={(f, _i, handle) => card(f, handle)} />
      ) : null}
      {!multiple && files[0] ? (
        <ul className="media-list">
          <li>{card(files[0], null)}</li>
        </ul>
      ) : null}
      <button type="button" className="btn btn-small" onClick={() => setPicking(true)}>
        {multiple ? `Add files to ${label}` : files.length > 0 ? `Change ${label}` : `Choose ${label}`}
      </button>
      {picking ? (
        <MediaPickerDialog
          multiple={multiple}
          allowedTypes={attribute.allowedTypes}
          onClose={() => setPicking(false)}
          onPick={(picked) => {
            const refs = picked.map(toRef);
            onChange(multiple ? [...files, ...refs.filter((r) => !files.some((f) => f.id === r.id))] : refs.slice(0, 1));
            setPicking(false);
          }}
        />
      ) : null}
    </Field>
  );
}
