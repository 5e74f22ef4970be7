import { StatusBadge } from '../../components/status-badge';
import type { Entry } from '../../api/types';
import { cellText } from './content-api';
import { mediaRef, relationItem } from './form-values';
import type { ColumnDef } from './list-view';

const MAX_RELATION_LABELS = 3;

function MediaCell({ value }: { readonly value: unknown }) {
  const files = (Array.isArray(value) ? value : [value]).map(mediaRef).filter((f) => f !== null);
  const [first] = files;
  if (!first) return null;
  const more = files.length - 1;
  return (
    <span className="list-media">
      {first.thumbnail ? <img src={first.thumbnail} alt={first.name} className="list-thumbnail" data-testid="list-thumbnail" loading="lazy" /> : <span className="list-file">{first.name}</span>}
      {more > 0 ? <span className="muted"> +{more}</span> : null}
    </span>
  );
}

function relationText(value: unknown, labelField: string | null): string {
  const items = (Array.isArray(value) ? value : [value]).map((v) => relationItem(v, labelField)).filter((r) => r !== null);
  const shown = items.slice(0, MAX_RELATION_LABELS).map((r) => r.label);
  return items.length > MAX_RELATION_LABELS ? `${shown.join(', ')} +${items.length - MAX_RELATION_LABELS}` : shown.join(', ');
}

/** The content of one list cell. */
export function ListCell({ column, entry }: { readonly column: ColumnDef; readonly entry: Entry }) {
  const value = entry.values[column.id];
  switch (column.kind) {
    case 'media':
      return <MediaCell value={value} />;
    case 'relation':
      return <>{relationText(value, column.labelField ?? null)}</>;
    case 'status':
      return <StatusBadge status={entry.status} />;
    case 'locale':
      return (
        <span className="list-locales">
          {entry.localizations.map((l) => (
            <span key={l.locale} className={l.locale === entry.locale ? 'locale-chip current' : 'locale-chip'} title={`${l.locale}: ${l.status}`}>
              {l.locale}
            </span>
          ))}
        </span>
      );
    case 'system':
      if ((column.id === 'createdAt' || column.id === 'updatedAt') && typeof value === 'string') return <>{new Date(value).toLocaleString()}</>;
      return <>{cellText(value)}</>;
    case 'field':
      return <>{cellText(value)}</>;
  }
}
