import { Navigate } from 'react-router';
import { describeError } from '../../api/errors';
import type { ContentType } from '../../api/types';
import { useLoad } from '../../api/use-load';
import { ErrorNotice, Loading } from '../../components/feedback';
import { useClient } from '../auth/session';
import { listDocuments } from './content-api';
import { useLocaleParam } from './locale-select';

/** A single type has one document: open it, or the form to create it. */
export function SingleTypeRedirect({ type }: { readonly type: ContentType }) {
  const client = useClient();
  const [locale] = useLocaleParam(type);
  const found = useLoad(() => listDocuments(client, type.uid, { page: 1, pageSize: 1, sort: '', q: '', filters: null, locale }), `${type.uid}:${locale ?? ''}`);
  if (found.error) return <ErrorNotice message={describeError(found.error)} onRetry={found.reload} />;
  if (!found.data) return <Loading />;
  const [doc] = found.data.items;
  const query = locale ? `?locale=${locale}` : '';
  const uid = encodeURIComponent(type.uid);
  return <Navigate to={doc ? `/content/${uid}/${doc.documentId}${query}` : `/content/${uid}/new${query}`} replace />;
}
