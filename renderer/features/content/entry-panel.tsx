import { Link } from 'react-router';
import { isRecord } from '../../api/decode';
import { hasDraftAndPublish, isLocalized } from '../../api/schema';
import type { ContentType, DocStatus, Entry } from '../../api/types';
import { StatusBadge } from '../../components/status-badge';
import { useSchemas } from '../content-types/schemas-context';

/** The admin user the admin content API names as an entry's creator or last editor. */
const adminName = (value: unknown): string | null => {
  if (!isRecord(value)) return null;
  const name = [value.firstname, value.lastname].filter((p): p is string => typeof p === 'string' && p !== '').join(' ');
  return name === '' ? `Admin #${String(value.id)}` : name;
};

const when = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? new Date(value).toLocaleString() : null);

/** One "Created" / "Last update" line: the date, and the admin when one made it. */
function Stamp({ label, at, by }: { readonly label: string; readonly at: unknown; readonly by: unknown }) {
  const date = when(at);
  const name = adminName(by);
  return (
    <div className="panel-row">
      <dt>{label}</dt>
      <dd>
        {date ? <time dateTime={String(at)}>{date}</time> : '—'}
        {name ? <span className="muted"> by {name}</span> : null}
      </dd>
    </div>
  );
}

/**
 * The side panel of an entry, as Strapi's edit view has: when and by whom it was created and last
 * changed, and (for localized types) every locale with its status and a link to open it.
 */
export function EntryPanel({ type, entry, locale }: { readonly type: ContentType; readonly entry: Entry | null; readonly locale: string | null }) {
  const { locales } = useSchemas();
  if (!entry) return null;
  const drafts = hasDraftAndPublish(type.schema);
  const statuses = new Map<string, DocStatus>(entry.localizations.map((l) => [l.locale, l.status]));
  const base = `/content/${encodeURIComponent(type.uid)}/${encodeURIComponent(entry.documentId)}`;
  return (
    <aside className="entry-panel card" aria-label="Entry information">
      <h2>Information</h2>
      <dl className="panel-list">
        <Stamp label="Created" at={entry.values.createdAt} by={entry.values.createdBy} />
        <Stamp label="Last update" at={entry.values.updatedAt} by={entry.values.updatedBy} />
      </dl>
      {isLocalized(type.schema) ? (
        <>
          <h2>Locales</h2>
          {/* No accessible name of its own: the heading says it, and a label holding "Locale" would shadow the locale select's. */}
          <ul className="panel-locales" data-testid="entry-locales">
            {locales.map((l) => {
              const status = statuses.get(l.code);
              const current = l.code === locale;
              return (
                <li key={l.code} data-testid={`locale-${l.code}`}>
                  <Link to={`${base}?locale=${encodeURIComponent(l.code)}`} aria-current={current ? 'page' : undefined}>
                    {l.name.includes(l.code) ? l.name : `${l.name} (${l.code})`}
                  </Link>
                  {status === undefined ? <span className="badge">Not created</span> : drafts ? <StatusBadge status={status} /> : <span className="badge">Created</span>}
                </li>
              );
            })}
          </ul>
        </>
      ) : null}
    </aside>
  );
}
