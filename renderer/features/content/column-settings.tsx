import { useState } from 'react';
import { describeError } from '../../api/errors';
import { Dialog } from '../../components/dialog';
import { ErrorNotice } from '../../components/feedback';
import { moveItem, SortableList } from '../../components/sortable-list';
import { useAction } from '../../components/use-action';
import { PAGE_SIZES, type ColumnDef, type SavedListView } from './list-view';

/** Props of the column settings dialog. */
export interface ColumnSettingsProps {
  readonly typeName: string;
  readonly available: readonly ColumnDef[];
  readonly shown: readonly string[];
  readonly pageSize: number;
  /** Saves for every admin; rejects with the server's refusal. */
  readonly onSave: (view: SavedListView) => Promise<void>;
  readonly onReset: () => Promise<void>;
  readonly onClose: () => void;
}

/** Choose the list's columns (checkboxes), their order (drag or keyboard) and the page size it opens with. */
export function ColumnSettings({ typeName, available, shown, pageSize, onSave, onReset, onClose }: ColumnSettingsProps) {
  const [columns, setColumns] = useState<string[]>(() => shown.filter((id) => available.some((c) => c.id === id)));
  const [size, setSize] = useState(pageSize);
  const { busy, error, run: runAction } = useAction();
  const labelOf = (id: string) => available.find((c) => c.id === id)?.label ?? id;
  const toggle = (id: string, on: boolean) => setColumns((all) => (on ? [...all, id] : all.filter((c) => c !== id)));
  const run = (action: () => Promise<void>) =>
    runAction(async () => {
      await action();
      onClose();
    });
  return (
    <Dialog
      title={`${typeName} list settings`}
      description="Columns and page size of this list, for every admin."
      onClose={onClose}
      footer={
        <>
          <button type="button" className="btn btn-ghost" onClick={() => void run(onReset)} disabled={busy}>
            Reset to default
          </button>
          <button type="button" className="btn" onClick={onClose}>
            Cancel
          </button>
          <button type="button" className="btn btn-primary" onClick={() => void run(() => onSave({ columns, pageSize: size }))} disabled={busy || columns.length === 0}>
            {busy ? 'Saving…' : 'Save'}
          </button>
        </>
      }
    >
      <div className="column-settings">
        <fieldset className="checks">
          <legend>Columns</legend>
          {available.map((c) => (
            <label key={c.id} className="check">
              <input type="checkbox" checked={columns.includes(c.id)} onChange={(e) => toggle(c.id, e.target.checked)} />
              {c.label}
              {c.kind === 'media' ? <span className="muted">(thumbnail)</span> : null}
              {c.kind === 'relation' && c.labelField ? <span className="muted">({c.labelField})</span> : null}
            </label>
          ))}
        </fieldset>
        <div>
          <h3 className="column-settings-title">Order</h3>
          {columns.length === 0 ? <p className="muted">Choose at least one column.</p> : null}
          <SortableList
            items={columns}
            getKey={(id) => id}
            getLabel={labelOf}
            label="Column order"
            className="column-order"
            onMove={(from, to) => setColumns((all) => moveItem(all, from, to))}
            renderItem={(id, _i, handle) => (
              <div className="relation-item" data-testid="column-order-item">
                {handle}
                <span className="relation-label">{labelOf(id)}</span>
              </div>
            )}
          />
          <label className="column-settings-size">
            Entries per page by default{' '}
            <select value={size} onChange={(e) => setSize(Number(e.target.value))}>
              {PAGE_SIZES.map((n) => (
                <option key={n} value={n}>
                  {n}
                </option>
              ))}
            </select>
          </label>
        </div>
      </div>
      {error ? <ErrorNotice message={describeError(error)} /> : null}
    </Dialog>
  );
}
