import { Link, Navigate } from 'react-router';
import { describeError } from '../../api/errors';
import { EmptyState, ErrorNotice, Loading, PageHeader } from '../../components/feedback';
import { editableTypes, useSchemas } from '../content-types/schemas-context';

/** The content home: opens the first type, or explains how to make one. */
export function ContentHome() {
  const { contentTypes, loading, error, reload } = useSchemas();
  const types = editableTypes(contentTypes);
  if (loading) return <Loading />;
  if (error) return <ErrorNotice message={describeError(error)} onRetry={reload} />;
  const first = types[0];
  if (first) return <Navigate to={`/content/${encodeURIComponent(first.uid)}`} replace />;
  return (
    <div className="screen">
      <PageHeader title="Content" />
      <EmptyState title="No content-types yet" action={<Link to="/builder/types/new" className="btn btn-primary">Create a content-type</Link>}>
        Describe what you want to store (articles, products, pages) in the content-type builder, then write entries here.
      </EmptyState>
    </div>
  );
}
