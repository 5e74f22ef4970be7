import type { DocStatus } from '../api/types';

const LABEL: Record<DocStatus, string> = { draft: 'Draft', published: 'Published', modified: 'Modified' };

/** The publication status of a document as a small coloured badge. */
export function StatusBadge({ status }: { readonly status: DocStatus }) {
  return (
    <span className={`badge badge-${status}`} data-testid="status-badge">
      {LABEL[status]}
    </span>
  );
}
