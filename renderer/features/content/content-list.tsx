import { useEffect, useState } from 'react';
import '../../styles/list-view.css';
import { Link, useParams, useSearchParams } from 'react-router';
import { describeError } from '../../api/errors';
import { hasDraftAndPublish, isLocalized } from '../../api/schema';
import { useLoad } from '../../api/use-load';
import { EmptyState, ErrorNotice, Loading, PageHeader } from '../../components/feedback';
import { Pager } from '../../components/pagination';
import type { Entry } from '../../api/types';
import { useClient } from '../auth/session';
import { useSchemas } from '../content-types/schemas-context';
import { isEntryEventOf, useLiveRefresh } from '../live/live-events';
import { BulkBar } from './bulk-actions';
import { ColumnSettings } from './column-settings';
import { cellText, listDocuments } from './content-api';
import { filtersQuery, type FilterRule } from './filter-operators';
import { FiltersBar } from './filters-bar';
import { ListCell } from './list-cell';
import { nextSort, sortState } from './list-columns';
import { availableColumns, DEFAULT_PAGE_SIZE, defaultColumnIds, getListView, PAGE_SIZES, populateFor, resetListView, saveListView, type SavedListView } from './list-view';
import { LocaleSelect, useLocaleParam } from './locale-select';
import { SingleTypeRedirect } from './single-type-redirect';
import { TypeSwitcher } from './type-switcher';

function readRules(text: string | null): FilterRule[] {
  if (!text) return [];
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed)
      ? parsed.flatMap((r: unknown) =>
          typeof r === 'object' && r !== null && 'field' in r && 'operator' in r && 'value' in r
            ? [{ field: String(r.field), operator: String(r.operator), value: String(r.value), ...('label' in r && typeof r.label === 'string' ? { label: r.label } : {}) }]
            : [],
        )
      : [];
  } catch {
    return [];
  }
}

/** The documents of one content-type: sortable columns, search, filters, locale, status badges, pages. */
export function ContentList() {
  const { uid = '' } = useParams();
  const schemas = useSchemas();
  const type = schemas.contentType(uid);
  if (schemas.loading) return <Loading />;
  if (!type) return <EmptyState title="Unknown content-type" action={<Link to="/content">Back to content</Link>} />;
  if (type.schema.kind === 'singleType') return <SingleTypeRedirect type={type} />;
  return <CollectionList key={uid} uid={uid} />;
}

/** Loads the type's saved list settings (columns, page size) before the list asks for entries. */
function CollectionList({ uid }: { readonly uid: string }) {
  const client = useClient();
  const saved = useLoad(() => getListView(client, uid), uid);
  if (saved.data === undefined && saved.loading) return <Loading label="Loading entries…" />;
  return <ListScreen uid={uid} saved={saved.data ?? null} reloadSaved={saved.reload} />;
}

function ListScreen({ uid, saved, reloadSaved }: { readonly uid: string; readonly saved: SavedListView | null; readonly reloadSaved: () => void }) {
  const client = useClient();
  const schemas = useSchemas();
  const type = schemas.contentType(uid);
  const [params, setParams] = useSearchParams();
  const [locale, setLocale] = useLocaleParam(type);
  const page = Number(params.get('page') ?? '1') || 1;
  const asked = Number(params.get('pageSize'));
  const pageSize = PAGE_SIZES.find((n) => n === asked) ?? saved?.pageSize ?? DEFAULT_PAGE_SIZE;
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [configuring, setConfiguring] = useState(false);
  const available = type ? availableColumns(type.schema, (target) => schemas.contentType(target)?.schema) : [];
  const columns = (saved?.columns ?? (type ? defaultColumnIds(type.schema) : [])).flatMap((id) => available.filter((c) => c.id === id));
  const populate = populateFor(columns);
  const sort = params.get('sort') ?? '';
  const q = params.get('q') ?? '';
  const rules = readRules(params.get('filters'));
  const [search, setSearch] = useState(q);
  const update = (changes: Record<string, string | null>) => {
    const next = new URLSearchParams(params);
    for (const [k, v] of Object.entries(changes)) if (v === null || v === '') next.delete(k);
    else next.set(k, v);
    if (!('page' in changes)) next.delete('page');
    // A new page is a step browser Back returns from; typing, sorting and filtering replace the entry.
    setParams(next, { replace: !('page' in changes) });
  };
  useEffect(() => {
    const timer = window.setTimeout(() => search !== q && update({ q: search }), 300);
    return () => window.clearTimeout(timer);
  });
  const key = JSON.stringify({ uid, page, pageSize, sort, q, rules, locale, populate });
  const list = useLoad(() => listDocuments(client, uid, { page, pageSize, sort, q, filters: filtersQuery(rules, type?.schema.attributes), locale, populate }), key);
  // A selection belongs to the page it was made on.
  useEffect(() => setSelected(new Set()), [key]);
  // Another window or client wrote an entry of this type: the page is read again (the rows it had stay until then).
  useLiveRefresh(isEntryEventOf(uid), list.reload);

  if (!type) return null;
  const { schema } = type;
  const drafts = hasDraftAndPublish(schema);
  const filtered = q !== '' || rules.length > 0;
  // A refused request leaves no list behind: the entries of the previous filters would pass for its answer.
  const data = list.error ? undefined : list.data;
  const newLink = `/content/${encodeURIComponent(uid)}/new${locale ? `?locale=${locale}` : ''}`;
  const mainColumn = columns.find((c) => c.kind === 'field' || c.kind === 'relation' || c.kind === 'system');
  const labelOf = (entry: Entry) => (mainColumn ? cellText(entry.values[mainColumn.id]) : '') || entry.documentId;
  const pageEntries = data?.items ?? [];
  const chosen = pageEntries.filter((e) => selected.has(e.documentId));
  const allChosen = pageEntries.length > 0 && chosen.length === pageEntries.length;
  const choose = (documentId: string, on: boolean) =>
    setSelected((all) => {
      const next = new Set(all);
      if (on) next.add(documentId);
      else next.delete(documentId);
      return next;
    });
  const sortable = (column: string, label: string) => (
    <th scope="col" aria-sort={sortState(sort, column)} key={column}>
      <button type="button" className="sort-button" onClick={() => update({ sort: nextSort(sort, column) })}>
        {label}
        <span className="sort-indicator" aria-hidden="true">
          {sortState(sort, column) === 'ascending' ? '▲' : sortState(sort, column) === 'descending' ? '▼' : ''}
        </span>
      </button>
    </th>
  );

  return (
    <div className="with-subnav">
      <TypeSwitcher />
      <div className="screen">
        <PageHeader
          title={schema.info.displayName}
          subtitle={data ? `${data.pagination.total} ${data.pagination.total === 1 ? 'entry' : 'entries'}` : ' '}
          actions={
            <>
              <button type="button" className="btn" onClick={() => setConfiguring(true)}>
                Columns
              </button>
              <Link to={newLink} className="btn btn-primary">
                Create new entry
              </Link>
            </>
          }
        />
        <div className="toolbar">
          <div className="toolbar-item grow">
            <label htmlFor="content-search">Search</label>
            <input id="content-search" type="search" value={search} onChange={(e) => setSearch(e.target.value)} placeholder={`Search ${schema.info.displayName.toLowerCase()}…`} />
          </div>
          {isLocalized(schema) ? <LocaleSelect id="list-locale" value={locale} onChange={setLocale} /> : null}
        </div>
        <FiltersBar attributes={schema.attributes} rules={rules} locale={locale} onChange={(next) => update({ filters: next.length > 0 ? JSON.stringify(next) : null })} />
        <BulkBar
          uid={uid}
          selected={chosen}
          drafts={drafts}
          localized={isLocalized(schema)}
          labelOf={labelOf}
          onClear={() => setSelected(new Set())}
          onDone={() => {
            setSelected(new Set());
            list.reload();
          }}
        />
        {list.error ? <ErrorNotice message={filtered ? `The entries could not be listed with these filters: ${describeError(list.error)}` : describeError(list.error)} onRetry={list.reload} /> : null}
        {list.loading && !data ? <Loading label="Loading entries…" /> : null}
        {data && data.items.length === 0 ? (
          filtered ? (
            <EmptyState title="No entries match">Change the search or remove a filter.</EmptyState>
          ) : (
            <EmptyState title={`No ${schema.info.displayName.toLowerCase()} entries yet`} action={<Link to={newLink} className="btn btn-primary">Create the first one</Link>} />
          )
        ) : null}
        {data && data.items.length > 0 ? (
          <>
            <table className="table content-table" aria-label={`${schema.info.displayName} entries`} aria-busy={list.loading}>
              <thead>
                <tr>
                  <th scope="col" className="select-cell">
                    <input
                      type="checkbox"
                      aria-label="Select all entries on this page"
                      checked={allChosen}
                      ref={(box) => {
                        if (box) box.indeterminate = chosen.length > 0 && !allChosen;
                      }}
                      onChange={(e) => setSelected(e.target.checked ? new Set(pageEntries.map((x) => x.documentId)) : new Set())}
                    />
                  </th>
                  {mainColumn ? null : <th scope="col">Entry</th>}
                  {columns.map((c) => (c.sortable ? sortable(c.id, c.label) : <th scope="col" key={c.id}>{c.label}</th>))}
                </tr>
              </thead>
              <tbody>
                {data.items.map((entry) => {
                  const href = `/content/${encodeURIComponent(uid)}/${entry.documentId}${locale ? `?locale=${locale}` : ''}`;
                  return (
                    <tr key={entry.documentId} aria-selected={selected.has(entry.documentId)}>
                      <td className="select-cell">
                        <input type="checkbox" aria-label={`Select ${labelOf(entry)}`} checked={selected.has(entry.documentId)} onChange={(e) => choose(entry.documentId, e.target.checked)} />
                      </td>
                      {mainColumn ? null : (
                        <td className="entry-main">
                          <Link to={href}>{entry.documentId}</Link>
                        </td>
                      )}
                      {columns.map((c) =>
                        c === mainColumn ? (
                          <td key={c.id} className="entry-main">
                            <Link to={href}>{cellText(entry.values[c.id]) || <span className="muted">(untitled)</span>}</Link>
                          </td>
                        ) : (
                          <td key={c.id}>
                            <ListCell column={c} entry={entry} />
                          </td>
                        ),
                      )}
                    </tr>
                  );
                })}
              </tbody>
            </table>
            <div className="list-footer">
              <Pager page={data.pagination.page} pageCount={data.pagination.pageCount} total={data.pagination.total} onPage={(p) => update({ page: String(p) })} label="Entries pages" />
              <label className="page-size">
                Entries per page{' '}
                <select value={pageSize} onChange={(e) => update({ pageSize: Number(e.target.value) === (saved?.pageSize ?? DEFAULT_PAGE_SIZE) ? null : e.target.value })}>
                  {PAGE_SIZES.map((n) => (
                    <option key={n} value={n}>
                      {n}
                    </option>
                  ))}
                </select>
              </label>
            </div>
          </>
        ) : null}
        {configuring ? (
          <ColumnSettings
            typeName={schema.info.displayName}
            available={available}
            shown={columns.map((c) => c.id)}
            pageSize={saved?.pageSize ?? DEFAULT_PAGE_SIZE}
            onSave={async (view) => {
              await saveListView(client, uid, view);
              reloadSaved();
            }}
            onReset={async () => {
              await resetListView(client, uid);
              reloadSaved();
            }}
            onClose={() => setConfiguring(false)}
          />
        ) : null}
      </div>
    </div>
  );
}
