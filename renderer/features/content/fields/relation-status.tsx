import { hasDraftAndPublish } from '../../../api/schema';
import type { DocStatus } from '../../../api/types';
import { useSchemas } from '../../content-types/schemas-context';

const LABEL: Record<DocStatus, string> = { draft: 'Draft', published: 'Published', modified: 'Modified' };

/**
 * Whether a related entry is a draft, published or modified, as Strapi's relation picker shows it;
 * nothing for targets without Draft & publish (always published) or without a known status.
 */
export function RelationStatus({ target, status, id }: { readonly target: string; readonly status: DocStatus | undefined; readonly id?: string }) {
  const { contentType } = useSchemas();
  const type = contentType(target);
  if (status === undefined || !type || !hasDraftAndPublish(type.schema)) return null;
  return (
    <span id={id} className={`badge badge-${status} relation-status`} data-testid="relation-status">
      {LABEL[status]}
    </span>
  );
}
