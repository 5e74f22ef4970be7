import { useState } from 'react';
import type { Attribute } from '../../api/schema';
import { EmptyState } from '../../components/feedback';
import { TableHead } from '../../components/table-head';
import { AttributeDialog, type NamedAttribute } from './attribute-dialog';
import { kindLabel } from './attribute-kinds';

/** An attribute being edited, remembering the name it was saved under (for renames). */
export interface EditedAttribute extends NamedAttribute {
  readonly original?: string;
}

/** Props of the fields editor. */
export interface AttributeListProps {
  readonly attributes: readonly EditedAttribute[];
  readonly onChange: (attributes: EditedAttribute[]) => void;
  readonly localizedType: boolean;
  readonly forComponent: boolean;
}

function flags(a: Attribute): string {
  return [a.required ? 'required' : '', a.unique ? 'unique' : '', a.private ? 'private' : ''].filter(Boolean).join(', ');
}

/** The fields of a type or component: add, edit, remove and reorder. */
export function AttributeList({ attributes, onChange, localizedType, forComponent }: AttributeListProps) {
  const [editing, setEditing] = useState<number | 'new' | null>(null);
  const move = (index: number, by: number) => {
    const next = [...attributes];
    const [item] = next.splice(index, 1);
    if (!item) return;
    next.splice(index + by, 0, item);
    onChange(next);
  };
  const current = typeof editing === 'number' ? attributes[editing] : undefined;
  const save = (value: NamedAttribute) => {
    if (editing === 'new') onChange([...attributes, value]);
    else if (typeof editing === 'number' && current) onChange(attributes.map((a, i) => (i === editing ? { ...value, ...(current.original ? { original: current.original } : {}) } : a)));
    setEditing(null);
  };

  return (
    <section className="card" aria-labelledby="fields-heading">
      <header className="card-header">
        <h2 id="fields-heading">Fields</h2>
        <button type="button" className="btn btn-primary" onClick={() => setEditing('new')}>
          Add a field
        </button>
      </header>
      {attributes.length === 0 ? (
        <EmptyState title="No fields yet">Add the first field: a title is a good start.</EmptyState>
      ) : (
        <table className="table" aria-label="Fields">
          <TableHead columns={['Name', 'Type', 'Settings']} actions />
          <tbody>
            {attributes.map((a, i) => (
              <tr key={`${a.original ?? ''}:${a.name}`} data-testid={`field-row-${a.name}`}>
                <th scope="row">
                  <code>{a.name}</code>
                </th>
                <td>{kindLabel(a.attribute)}</td>
                <td className="muted">{flags(a.attribute)}</td>
                <td className="row-actions">
                  <button type="button" className="btn btn-ghost btn-small" aria-label={`Move ${a.name} up`} disabled={i === 0} onClick={() => move(i, -1)}>
                    ↑
                  </button>
                  <button type="button" className="btn btn-ghost btn-small" aria-label={`Move ${a.name} down`} disabled={i === attributes.length - 1} onClick={() => move(i, 1)}>
                    ↓
                  </button>
                  <button type="button" className="btn btn-small" aria-label={`Edit ${a.name}`} onClick={() => setEditing(i)}>
                    Edit
                  </button>
                  <button type="button" className="btn btn-small btn-danger-ghost" aria-label={`Remove ${a.name}`} onClick={() => onChange(attributes.filter((_, j) => j !== i))}>
                    Remove
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {editing !== null ? (
        <AttributeDialog
          {...(current ? { initial: current } : {})}
          siblings={attributes.filter((_, i) => i !== editing)}
          localizedType={localizedType}
          forComponent={forComponent}
          onSave={save}
          onClose={() => setEditing(null)}
        />
      ) : null}
    </section>
  );
}

/** The attributes of a schema as an editable list. */
export function toEdited(attributes: Readonly<Record<string, Attribute>>): EditedAttribute[] {
  return Object.entries(attributes).map(([name, attribute]) => ({ name, attribute, original: name }));
}

/** The attributes object and the renames map of an edited list. */
export function fromEdited(list: readonly EditedAttribute[]): { attributes: Record<string, Attribute>; renames: Record<string, string> } {
  const attributes: Record<string, Attribute> = {};
  const renames: Record<string, string> = {};
  for (const a of list) {
    attributes[a.name] = a.attribute;
    if (a.original && a.original !== a.name) renames[a.original] = a.name;
  }
  return { attributes, renames };
}
