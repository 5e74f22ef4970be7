import { useState } from 'react';
import { Dialog } from '../../../components/dialog';
import { Field } from '../../../components/field';
import { moveItem, SortableList } from '../../../components/sortable-list';
import { emptyValues, newKey, type Row } from '../form-values';
import { humanize } from '../list-columns';
import { RowCard, rowsOf, rowTitle } from './component-field';
import { FieldList } from './field-input';
import { errorAt, fieldId, useFormContext, type FieldControlProps } from './form-context';

/** A dynamic zone: a list of mixed components, each added from a chooser, reordered and removed. */
export function DynamicZoneField({ name, attribute, value, onChange, path }: FieldControlProps) {
  const { lookup, errors, componentName } = useFormContext();
  const [choosing, setChoosing] = useState(false);
  const [fresh, setFresh] = useState<ReadonlySet<string>>(new Set());
  const label = humanize(name);
  const id = fieldId(path);
  const error = errorAt(errors, path);
  const rows = rowsOf(value);
  const allowed = attribute.components ?? [];
  const add = (uid: string) => {
    const row: Row = { key: newKey(), component: uid, values: emptyValues(lookup(uid)) };
    setFresh(new Set([...fresh, row.key]));
    onChange([...rows, row]);
    setChoosing(false);
  };
  return (
    <Field id={id} label={label} error={error} group>
      {rows.length === 0 ? <p className="muted">Empty. Add a component to start.</p> : null}
      <SortableList
        items={rows}
        getKey={(r) => r.key}
        getLabel={(r) => componentName(r.component ?? '')}
        label={`${label} components`}
        onMove={(from, to) => onChange(moveItem(rows, from, to))}
        renderItem={(row, index, handle) => (
          <RowCard
            title={`${componentName(row.component ?? '')}: ${rowTitle(row.values, `#${index + 1}`)}`}
            index={index}
            count={rows.length}
            handle={handle}
            startOpen={fresh.has(row.key) || rows.length <= 3}
            onMove={(to) => onChange(moveItem(rows, index, to))}
            onRemove={() => onChange(rows.filter((r) => r.key !== row.key))}
          >
            <FieldList
              attributes={lookup(row.component ?? '')?.attributes ?? {}}
              values={row.values}
              path={[...path, String(index)]}
              onChange={(k, v) => onChange(rows.map((r) => (r.key === row.key ? { ...r, values: { ...r.values, [k]: v } } : r)))}
            />
          </RowCard>
        )}
      />
      <button type="button" className="btn btn-small" onClick={() => setChoosing(true)} disabled={attribute.max !== undefined && rows.length >= attribute.max}>
        Add a component to {label}
      </button>
      {choosing ? (
        <Dialog title={`Add to ${label}`} onClose={() => setChoosing(false)} description="Choose the kind of component to add.">
          <ul className="kind-grid">
            {allowed.map((uid) => (
              <li key={uid}>
                <button type="button" className="kind-choice" onClick={() => add(uid)}>
                  <span className="kind-label">{componentName(uid)}</span>
                  <span className="kind-description">
                    {Object.keys(lookup(uid)?.attributes ?? {})
                      .map(humanize)
                      .join(', ') || uid}
                  </span>
                </button>
              </li>
            ))}
          </ul>
        </Dialog>
      ) : null}
    </Field>
  );
}
