import { Link } from 'react-router';
import { describeError } from '../../api/errors';
import { hasDraftAndPublish, isLocalized } from '../../api/schema';
import { EmptyState, ErrorNotice, Loading, PageHeader } from '../../components/feedback';
import { editableTypes, useSchemas } from './schemas-context';

/** "1 field", "3 fields". */
const fieldCount = (attributes: object): string => {
  const n = Object.keys(attributes).length;
  return `${n} ${n === 1 ? 'field' : 'fields'}`;
};

/** Lists content-types and components, with the ways to create new ones. */
export function BuilderHome() {
  const { contentTypes, components, loading, error, reload } = useSchemas();
  const types = editableTypes(contentTypes);
  return (
    <div className="screen">
      <PageHeader
        title="Content-type builder"
        subtitle="Schemas are saved as Strapi-format files and take effect at once."
        actions={
          <>
            <Link to="/builder/components/new" className="btn">
              New component
            </Link>
            <Link to="/builder/types/new" className="btn btn-primary">
              New content-type
            </Link>
          </>
        }
      />
      {error ? <ErrorNotice message={describeError(error)} onRetry={reload} /> : null}
      {loading ? <Loading /> : null}
      <div className="columns-2">
        <section className="card" aria-labelledby="types-heading">
          <h2 id="types-heading">Content-types</h2>
          {!loading && types.length === 0 ? (
            <EmptyState title="No content-types yet" action={<Link to="/builder/types/new" className="btn btn-primary">Create a content-type</Link>}>
              A content-type describes a kind of entry, like an article or a product.
            </EmptyState>
          ) : (
            <ul className="link-list">
              {types.map((t) => (
                <li key={t.uid}>
                  <Link to={`/builder/types/${encodeURIComponent(t.uid)}`}>{t.schema.info.displayName}</Link>
                  <span className="muted">
                    {t.schema.kind === 'singleType' ? 'Single type' : 'Collection'} · {fieldCount(t.schema.attributes)}
                    {hasDraftAndPublish(t.schema) ? ' · drafts' : ''}
                    {isLocalized(t.schema) ? ' · i18n' : ''}
                  </span>
                </li>
              ))}
            </ul>
          )}
        </section>
        <section className="card" aria-labelledby="components-heading">
          <h2 id="components-heading">Components</h2>
          {!loading && components.length === 0 ? (
            <EmptyState title="No components yet" action={<Link to="/builder/components/new" className="btn">Create a component</Link>}>
              Components are groups of fields reused across types, alone, repeated or in dynamic zones.
            </EmptyState>
          ) : (
            <ul className="link-list">
              {components.map((c) => (
                <li key={c.uid}>
                  <Link to={`/builder/components/${encodeURIComponent(c.uid)}`}>{c.schema.info.displayName}</Link>
                  <span className="muted">
                    <code>{c.uid}</code> · {fieldCount(c.schema.attributes)}
                  </span>
                </li>
              ))}
            </ul>
          )}
        </section>
      </div>
    </div>
  );
}
