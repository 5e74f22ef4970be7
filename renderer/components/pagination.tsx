/** Props of a pager. */
export interface PagerProps {
  readonly page: number;
  readonly pageCount: number;
  readonly total: number;
  readonly onPage: (page: number) => void;
  readonly label: string;
}

/** Previous / next page buttons with the current position, as a labelled navigation landmark. */
export function Pager({ page, pageCount, total, onPage, label }: PagerProps) {
  if (pageCount <= 1) return <p className="pager-summary">{total === 1 ? '1 item' : `${total} items`}</p>;
  return (
    <nav className="pager" aria-label={label}>
      <button type="button" className="btn btn-small" onClick={() => onPage(page - 1)} disabled={page <= 1}>
        Previous
      </button>
      <span aria-live="polite">
        Page {page} of {pageCount} · {total} items
      </span>
      <button type="button" className="btn btn-small" onClick={() => onPage(page + 1)} disabled={page >= pageCount}>
        Next
      </button>
    </nav>
  );
}
