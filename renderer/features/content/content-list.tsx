import { useEffect, useState } from 'react';
import { Link, Navigate, useParams, useSearchParams } from 'react-router';
import { describeError } from '../../api/errors';
import { hasDraftAndPublish, isLocalized } from '../../api/schema';
import { useLoad } from '../../api/use-load';
import { EmptyState, ErrorNotice, Loading, PageHeader } from '../../components/feedback';
import { Pager } from '../../components/pagination';
import { StatusBadge } from '../../components/status-badge';
import { useClient } from '../auth/session';
import { useSchemas } from '../content-types/schemas-context';
import { cellText, listDocuments } from './content-api';
import { filtersQuery, type FilterRule } from './filter-operators';
import { FiltersBar } from './filters-bar';
import { humanize, listColumns, nextSort, sortState } from './list-columns';
import { LocaleSelect, useLocaleParam } from './locale-select';
import { SingleTypeRedirect } from './single-type-redirect';
import { TypeSwitcher } from './type-switcher';

const PAGE_SIZE = 20;

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

function CollectionList({ uid }: { readonly uid: string }) {
  const client = useClient();
  const schemas = useSchemas();
  const type = schemas.contentType(uid);
  const [params, setParams] = useSearchParams();
  const [locale, setLocale] = useLocaleParam(type);
  const page = Number(params.get('page') ?? '1') || 1;
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
  const key = JSON.stringify({ uid, page, sort, q, rules, locale });
  const list = useLoad(() => listDocuments(client, uid, { page, pageSize: PAGE_SIZE, sort, q, filters: filtersQuery(rules, type?.schema.attributes), locale }), key);

  if (!type) return null;
  const { schema } = type;
  const columns = listColumns(schema);
  const drafts = hasDraftAndPublish(schema);
  const filtered = q !== '' || rules.length > 0;
  // A refused request leaves no list behind: the entries of the previous filters would pass for its answer.
  const data = list.error ? undefined : list.data;
  const newLink = `/content/${encodeURIComponent(uid)}/new${locale ? `?locale=${locale}` : ''}`;
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
            <Link to={newLink} className="btn btn-primary">
              Create new entry
            </Link>
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
                  {columns.length === 0 ? <th scope="col">Entry</th> : null}
                  {columns.map((c) => sortable(c, humanize(c)))}
                  {drafts ? <th scope="col">Status</th> : null}
                  {sortable('updatedAt', 'Last update')}
                </tr>
              </thead>
              <tbody>
                {data.items.map((entry) => {
                  const href = `/content/${encodeURIComponent(uid)}/${entry.documentId}${locale ? `?locale=${locale}` : ''}`;
                  return (
                    <tr key={entry.documentId}>
                      {columns.length === 0 ? (
                        <td>
                          <Link to={href}>{entry.documentId}</Link>
                        </td>
                      ) : null}
                      {columns.map((c, i) => (
                        <td key={c}>{i === 0 ? <Link to={href}>{cellText(entry.values[c]) || <span className="muted">(untitled)</span>}</Link> : cellText(entry.values[c])}</td>
                      ))}
                      {drafts ? (
                        <td>
                          <StatusBadge status={entry.status} />
                        </td>
                      ) : null}
                      <td>{entry.updatedAt ? new Date(entry.updatedAt).toLocaleString() : ''}</td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
            <Pager page={data.pagination.page} pageCount={data.pagination.pageCount} total={data.pagination.total} onPage={(p) => update({ page: String(p) })} label="Entries pages" />
          </>
        ) : null}
      </div>
    </div>
  );
}
