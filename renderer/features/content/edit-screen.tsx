import { useEffect, useMemo, useRef } from 'react';
import { Link, useParams } from 'react-router';
import { hasDraftAndPublish, isLocalized } from '../../api/schema';
import type { ContentType } from '../../api/types';
import { EmptyState, ErrorNotice, Loading } from '../../components/feedback';
import { useLeaveGuard } from '../../components/leave-guard';
import { StatusBadge } from '../../components/status-badge';
import { useSchemas } from '../content-types/schemas-context';
import { EDIT_FORM_ID, EditActions } from './edit-actions';
import { EntryPanel } from './entry-panel';
import { FieldList } from './fields/field-input';
import { fieldId, FormContext } from './fields/form-context';
import { humanize } from './list-columns';
import { mainField } from './form-values';
import { LocaleSelect, useLocaleParam } from './locale-select';
import { ServerMessage } from './server-message';
import { useEditor } from './use-editor';

/** The controls a form's first field may have (a blocks field is contenteditable). */
const FIRST_CONTROL = 'input:not([type="hidden"]):not([disabled]), select:not([disabled]), textarea:not([disabled]), [contenteditable="true"]';

/** The edit screen of one document (or the create screen when there is no documentId). */
export function EditScreen() {
  const { uid = '', documentId } = useParams();
  const schemas = useSchemas();
  const type = schemas.contentType(uid);
  if (schemas.loading) return <Loading />;
  if (!type) return <EmptyState title="Unknown content-type" action={<Link to="/content">Back to content</Link>} />;
  return <EditForm key={`${uid}/${documentId ?? 'new'}`} type={type} documentId={documentId ?? null} />;
}

function EditForm({ type, documentId }: { readonly type: ContentType; readonly documentId: string | null }) {
  const schemas = useSchemas();
  const [locale, setLocale] = useLocaleParam(type);
  const editor = useEditor(type, documentId, locale);
  const guard = useLeaveGuard(editor.dirty);
  // When the entry opens, its first field takes the focus (it was left on the page's body).
  const opened = useRef(false);
  // The form remounts when its values are first set (formKey 0 -> 1, new and loaded entries alike): focus after that.
  useEffect(() => {
    if (editor.phase !== 'ready' || editor.formKey === 0 || opened.current) return;
    opened.current = true;
    document.getElementById(EDIT_FORM_ID)?.querySelector<HTMLElement>(FIRST_CONTROL)?.focus();
  }, [editor.phase, editor.formKey]);
  const { schema, uid } = type;
  const localized = isLocalized(schema);
  const drafts = hasDraftAndPublish(schema);
  const titleField = mainField(schema);
  const title = titleField && typeof editor.values[titleField] === 'string' && editor.values[titleField] !== '' ? String(editor.values[titleField]) : null;
  const context = useMemo(
    () => ({ lookup: editor.lookup, errors: editor.errors, locale, componentName: (c: string) => schemas.component(c)?.schema.info.displayName ?? c }),
    [editor.lookup, editor.errors, locale, schemas],
  );
  const marks = new Map<string, string>();
  if (editor.entry) for (const l of editor.entry.localizations) marks.set(l.locale, l.status);
  if (editor.entry?.locale) marks.set(editor.entry.locale, editor.entry.status);
  const listLink = `/content/${encodeURIComponent(uid)}${locale ? `?locale=${locale}` : ''}`;
  const back = schema.kind === 'singleType' ? null : <Link to={listLink} className="back-link">← {schema.info.displayName}</Link>;

  return (
    <div className="screen edit-screen">
      <header className="page-header">
        <div>
          {back}
          <h1>{title ?? (documentId ? 'Untitled entry' : schema.kind === 'singleType' ? schema.info.displayName : `New ${schema.info.displayName.toLowerCase()}`)}</h1>
          <p className="page-subtitle">
            {drafts && editor.entry ? <StatusBadge status={editor.entry.status} /> : null}
            {drafts && !editor.entry ? <span className="badge badge-new">Not saved yet</span> : null}
            {editor.dirty ? <span className="unsaved">Unsaved changes</span> : null}
          </p>
        </div>
        {editor.phase === 'ready' ? <EditActions type={type} editor={editor} /> : null}
      </header>
      {localized ? (
        <div className="toolbar">
          <LocaleSelect id="edit-locale" value={locale} onChange={setLocale} label="Locale" marks={documentId ? marks : undefined} />
        </div>
      ) : null}
      {editor.changedElsewhere ? (
        <div className="notice notice-warning" role="alert">
          <span>This entry was changed elsewhere — </span>
          <button type="button" className="btn btn-small" onClick={editor.reload}>
            reload
          </button>
          <span className="muted"> (your unsaved changes here would be lost)</span>
        </div>
      ) : null}
      {editor.message ? <ErrorNotice message={editor.message} /> : null}
      {editor.errors.size > 0 ? (
        <ul className="error-summary" aria-label="Problems to fix">
          {[...editor.errors].map(([path, message]) => (
            <li key={path}>
              <a href={`#${fieldId(path.split('.'))}`}>{path.split('.').map(humanize).join(' › ')}</a>: {message}
              <ServerMessage text={editor.serverErrors?.get(path)} shown={message} />
            </li>
          ))}
        </ul>
      ) : null}
      {editor.phase === 'loading' ? <Loading label="Loading entry…" /> : null}
      {editor.phase === 'error' ? <ErrorNotice message={editor.message ?? 'The entry could not be loaded.'} onRetry={editor.reload} /> : null}
      {editor.phase === 'not-found' ? <EmptyState title="This entry does not exist" action={<Link to={listLink}>Back to the list</Link>} /> : null}
      {editor.phase === 'missing-locale' ? (
        <EmptyState title={`No ${locale ?? ''} version yet`}>
          <span>This entry exists in {editor.source?.locale ?? 'another locale'} only. </span>
          <span className="button-row centered">
            <button type="button" className="btn btn-primary" onClick={() => editor.startLocale(true)}>
              Create the {locale} version from {editor.source?.locale ?? 'the other locale'}
            </button>
            <button type="button" className="btn" onClick={() => editor.startLocale(false)}>
              Start the {locale} version empty
            </button>
          </span>
        </EmptyState>
      ) : null}
      {editor.phase === 'ready' ? (
        <FormContext.Provider value={context}>
          <form
            key={editor.formKey}
            id={EDIT_FORM_ID}
            className="edit-form card"
            noValidate
            aria-label={`${schema.info.displayName} fields`}
            onSubmit={(e) => {
              e.preventDefault();
              if (editor.busy === null) void editor.save();
            }}
            onKeyDown={(e) => {
              if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 's') {
                e.preventDefault();
                if (editor.busy === null) void editor.save();
              }
            }}
          >
            <FieldList attributes={schema.attributes} values={editor.values} onChange={editor.setField} path={[]} />
          </form>
          <EntryPanel type={type} entry={editor.entry} locale={locale} />
        </FormContext.Provider>
      ) : null}
      {guard.dialog}
    </div>
  );
}
