import type { ReactNode } from 'react';
import { isRecord } from '../../../api/decode';
import { describedBy, Field } from '../../../components/field';
import { moveItem, SortableList } from '../../../components/sortable-list';
import { isToMany } from '../../content-types/attribute-kinds';
import type { RelationItem } from '../form-values';
import { humanize } from '../list-columns';
import { errorWithin, fieldId, useFormContext, type FieldControlProps } from './form-context';
import { RelationSearch } from './relation-search';
import { RelationStatus } from './relation-status';

const itemsOf = (value: unknown): RelationItem[] =>
  Array.isArray(value) ? value.filter((v): v is RelationItem => isRecord(v) && typeof v.documentId === 'string' && typeof v.label === 'string') : [];

/** A relation: the related entries (drag to reorder), a remove button each, and a search box to add. */
export function RelationField({ name, attribute, value, onChange, path }: FieldControlProps) {
  const { errors, locale } = useFormContext();
  const id = fieldId(path);
  const error = errorWithin(errors, path);
  const label = humanize(name);
  const items = itemsOf(value);
  const many = isToMany(attribute.relation);
  const remove = (documentId: string) => onChange(items.filter((i) => i.documentId !== documentId));
  const row = (item: RelationItem, handle: ReactNode) => (
    <div className="relation-item" data-testid="relation-item">
      {handle}
      <span className="relation-label">{item.label}</span>
      <RelationStatus target={attribute.target ?? ''} status={item.status} />
      <button type="button" className="btn btn-ghost btn-small" aria-label={`Remove ${item.label} from ${label}`} onClick={() => remove(item.documentId)}>
        Remove
      </button>
    </div>
  );
  return (
    <Field id={id} label={label} error={error} group hint={many ? 'Drag the handles (or use Space and the arrow keys) to change the order.' : undefined}>
      {items.length === 0 ? <p className="muted relation-empty">No {many ? 'entries' : 'entry'} linked.</p> : null}
      {many ? (
        <SortableList
          items={items}
          getKey={(i) => i.documentId}
          getLabel={(i) => i.label}
          label={`${label} order`}
          className="relation-list"
          onMove={(from, to) => onChange(moveItem(items, from, to))}
          renderItem={(item, _index, handle) => row(item, handle)}
        />
      ) : items[0] ? (
        <ul className="relation-list">
          <li>{row(items[0], null)}</li>
        </ul>
      ) : null}
      <RelationSearch
        target={attribute.target ?? ''}
        label={many || items.length === 0 ? `Add to ${label}` : `Replace ${label}`}
        exclude={items.map((i) => i.documentId)}
        locale={locale}
        describedBy={describedBy(id, many, error)}
        onPick={(item) => onChange(many ? [...items, item] : [item])}
      />
    </Field>
  );
}
