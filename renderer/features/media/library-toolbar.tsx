import { useEffect, useState } from 'react';
import type { Library } from './use-library';
import { MIME_FILTERS, SORTS } from './use-library';

const isMime = (v: string): v is Library['mime'] => MIME_FILTERS.some((m) => m.value === v);

/** Search, type filter, sort and (optionally) the grid/list switch of the media library. */
export function LibraryToolbar({ library, view, onView, lockMime, idPrefix }: { readonly library: Library; readonly view?: 'grid' | 'list'; readonly onView?: (v: 'grid' | 'list') => void; readonly lockMime?: boolean; readonly idPrefix: string }) {
  const [text, setText] = useState(library.q);
  const { setQ, q } = library;
  useEffect(() => {
    // Only a real change searches: setting the same text again would send the library back to page 1
    // (a page turned within the debounce after the screen opened was undone).
    if (text === q) return undefined;
    const timer = window.setTimeout(() => setQ(text), 250);
    return () => window.clearTimeout(timer);
    // Only new text restarts the timer (setQ is rebuilt each render).
  }, [text]);
  return (
    <div className="toolbar">
      <div className="toolbar-item grow">
        <label htmlFor={`${idPrefix}-search`}>Search files</label>
        <input id={`${idPrefix}-search`} type="search" value={text} onChange={(e) => setText(e.target.value)} placeholder="Name, caption…" />
      </div>
      <div className="toolbar-item">
        <label htmlFor={`${idPrefix}-type`}>File type</label>
        <select id={`${idPrefix}-type`} value={library.mime} disabled={lockMime} onChange={(e) => isMime(e.target.value) && library.setMime(e.target.value)}>
          {MIME_FILTERS.map((m) => (
            <option key={m.value} value={m.value}>
              {m.label}
            </option>
          ))}
        </select>
      </div>
      <div className="toolbar-item">
        <label htmlFor={`${idPrefix}-sort`}>Sort by</label>
        <select id={`${idPrefix}-sort`} value={library.sort} onChange={(e) => library.setSort(e.target.value)}>
          {SORTS.map((s) => (
            <option key={s.value} value={s.value}>
              {s.label}
            </option>
          ))}
        </select>
      </div>
      {view && onView ? (
        <fieldset className="toolbar-item segmented">
          <legend>View</legend>
          {(['grid', 'list'] as const).map((v) => (
            <label key={v} className={view === v ? 'segment active' : 'segment'}>
              <input type="radio" name={`${idPrefix}-view`} value={v} checked={view === v} onChange={() => onView(v)} />
              {v === 'grid' ? 'Grid' : 'List'}
            </label>
          ))}
        </fieldset>
      ) : null}
    </div>
  );
}
