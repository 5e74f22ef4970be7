import { useState, type ReactNode } from 'react';
import { isRecord } from '../../../api/decode';
import { Field } from '../../../components/field';
import { moveItem, SortableList } from '../../../components/sortable-list';
import { emptyValues, newKey, type FormValues, type Row } from '../form-values';
import { humanize } from '../list-columns';
import { FieldList } from './field-input';
import { errorAt, fieldId, useFormContext, type FieldControlProps } from './form-context';

/** Rows of a repeatable component or dynamic zone value. */
export const rowsOf = (value: unknown): Row[] => (Array.isArray(value) ? value.filter((r): r is Row => isRecord(r) && typeof r.key === 'string' && isRecord(r.values)) : []);

/** A short title for a row: its first non-empty text value. */
export function rowTitle(values: FormValues, fallback: string): string {
  const text = Object.entries(values).find(([k, v]) => k !== 'id' && typeof v === 'string' && v.trim() !== '' && v.length < 120);
  return text ? String(text[1]) : fallback;
}

/** Props of a collapsible row of a list of components. */
export interface RowCardProps {
  readonly title: string;
  readonly index: number;
  readonly count: number;
  readonly handle: ReactNode;
  readonly onMove: (to: number) => void;
  readonly onRemove: () => void;
  readonly children: ReactNode;
  readonly startOpen: boolean;
}

/** One entry of a repeatable component or dynamic zone: handle, title, move, remove, and its fields. */
export function RowCard({ title, index, count, handle, onMove, onRemove, children, startOpen }: RowCardProps) {
  const [open, setOpen] = useState(startOpen);
  return (
    <div className="row-card" data-testid="component-row">
      <div className="row-card-header">
        {handle}
        <button type="button" className="row-toggle" aria-expanded={open} onClick={() => setOpen(!open)}>
          <span aria-hidden="true">{open ? '▾' : '▸'}</span> {title}
        </button>
        <span className="spacer" />
        <button type="button" className="btn btn-ghost btn-small" aria-label={`Move ${title} up`} disabled={index === 0} onClick={() => onMove(index - 1)}>
          ↑
        </button>
        <button type="button" className="btn btn-ghost btn-small" aria-label={`Move ${title} down`} disabled={index === count - 1} onClick={() => onMove(index + 1)}>
          ↓
        </button>
        <button type="button" className="btn btn-ghost btn-small btn-danger-ghost" aria-label={`Remove ${title}`} onClick={onRemove}>
          Remove
        </button>
      </div>
      {open ? <div className="row-card-body">{children}</div> : null}
    </div>
  );
}

/** A component field: one group of fields (added or removed), or a repeatable list (add, remove, reorder). */
export function ComponentField({ name, attribute, value, onChange, path }: FieldControlProps) {
  const { lookup, errors, componentName } = useFormContext();
  const [fresh, setFresh] = useState<ReadonlySet<string>>(new Set());
  const schema = lookup(attribute.component ?? '');
  const label = humanize(name);
  const id = fieldId(path);
  const error = errorAt(errors, path);
  const attributes = schema?.attributes ?? {};
  const setIn = (values: FormValues, key: string, v: unknown): FormValues => ({ ...values, [key]: v });

  if (!attribute.repeatable) {
    const values = isRecord(value) ? value : null;
    return (
      <Field id={id} label={label} error={error} group>
        {values ? (
          <div className="component-box">
            <FieldList attributes={attributes} values={values} path={path} onChange={(k, v) => onChange(setIn(values, k, v))} />
            <button type="button" className="btn btn-small btn-danger-ghost" onClick={() => onChange(null)}>
              Remove {label}
            </button>
          </div>
        ) : (
          <button type="button" className="btn btn-small" onClick={() => onChange(emptyValues(schema))}>
            Add {label}
          </button>
        )}
      </Field>
    );
  }

  const rows = rowsOf(value);
  const name1 = componentName(attribute.component ?? '');
  const add = () => {
    const row: Row = { key: newKey(), values: emptyValues(schema) };
    setFresh(new Set([...fresh, row.key]));
    onChange([...rows, row]);
  };
  return (
    <Field id={id} label={label} error={error} group hint={attribute.max !== undefined ? `Up to ${attribute.max} entries.` : undefined}>
      {rows.length === 0 ? <p className="muted">No entries yet.</p> : null}
      <SortableList
        items={rows}
        getKey={(r) => r.key}
        getLabel={(r) => rowTitle(r.values, name1)}
        label={`${label} entries`}
        onMove={(from, to) => onChange(moveItem(rows, from, to))}
        renderItem={(row, index, handle) => (
          <RowCard
            title={`${index + 1}. ${rowTitle(row.values, name1)}`}
            index={index}
            count={rows.length}
            handle={handle}
            startOpen={fresh.has(row.key) || rows.length <= 3}
            onMove={(to) => onChange(moveItem(rows, index, to))}
            onRemove={() => onChange(rows.filter((r) => r.key !== row.key))}
          >
            <FieldList attributes={attributes} values={row.values} path={[...path, String(index)]} onChange={(k, v) => onChange(rows.map((r) => (r.key === row.key ? { ...r, values: setIn(r.values, k, v) } : r)))} />
          </RowCard>
        )}
      />
      <button type="button" className="btn btn-small" onClick={add} disabled={attribute.max !== undefined && rows.length >= attribute.max}>
        Add an entry to {label}
      </button>
    </Field>
  );
}
