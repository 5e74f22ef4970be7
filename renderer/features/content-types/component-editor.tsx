import { useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { schemaToJson } from '../../api/schema';
import type { Component } from '../../api/types';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { Field } from '../../components/field';
import { useLeaveGuard } from '../../components/leave-guard';
import { EmptyState, ErrorNotice, Loading, PageHeader } from '../../components/feedback';
import { useToast } from '../../components/toast';
import { useClient } from '../auth/session';
import { AttributeList, fromEdited, toEdited, type EditedAttribute } from './attribute-list';
import { kebab, pluralize, tableName } from './naming';
import { EditorActions, schemaErrorLines, useSchemaSave, writeSchema } from './schema-save';
import { useSchemas } from './schemas-context';

interface ComponentForm {
  readonly category: string;
  readonly displayName: string;
  readonly description: string;
  readonly attributes: EditedAttribute[];
}

const formOf = (c: Component): ComponentForm => ({ category: c.category, displayName: c.schema.info.displayName, description: c.schema.info.description ?? '', attributes: toEdited(c.schema.attributes) });

const BLANK: ComponentForm = { category: 'shared', displayName: '', description: '', attributes: [] };

/** Creates or edits a component (a reusable group of fields). */
export function ComponentEditor() {
  const { uid } = useParams();
  const schemas = useSchemas();
  const client = useClient();
  const navigate = useNavigate();
  const { notify } = useToast();
  const existing = uid ? schemas.component(uid) : undefined;
  const [form, setForm] = useState<ComponentForm | null>(uid ? null : BLANK);
  // The form as last loaded or saved: leaving with anything else asks first.
  const [saved, setSaved] = useState<ComponentForm | null>(uid ? null : BLANK);
  const [deleting, setDeleting] = useState(false);
  useEffect(() => {
    if (!existing) return;
    setForm(formOf(existing));
    setSaved(formOf(existing));
  }, [existing]);
  const guard = useLeaveGuard(form !== null && saved !== null && JSON.stringify(form) !== JSON.stringify(saved));

  const { save, busy, error, confirmation } = useSchemaSave(async (confirmDataLoss) => {
    if (!form) return;
    const name = kebab(form.displayName);
    const schema = schemaToJson({
      collectionName: existing?.schema.collectionName ?? `components_${tableName(form.category)}_${tableName(pluralize(name))}`,
      info: { ...(existing?.schema.info ?? {}), displayName: form.displayName, description: form.description },
      options: existing?.schema.options ?? {},
      attributes: fromEdited(form.attributes).attributes,
    });
    await writeSchema(
      { client, notify, reload: schemas.reload, navigate: (to) => guard.leave(() => navigate(to)) },
      { collection: 'components', key: 'component', route: 'components', uid: existing?.uid ?? null, displayName: form.displayName },
      { schema: { category: form.category, ...schema }, renames: fromEdited(form.attributes).renames, confirmDataLoss },
    );
    setSaved(form);
  });

  if (uid && !existing) {
    if (schemas.loading) return <Loading />;
    return <EmptyState title="Component not found" action={<Link to="/builder">Back to the builder</Link>} />;
  }
  if (!form) return <Loading />;
  const set = (changes: Partial<ComponentForm>) => setForm({ ...form, ...changes });
  const canSave = form.category !== '' && kebab(form.displayName) !== '';

  return (
    <div className="screen">
      <PageHeader
        title={existing ? form.displayName : 'New component'}
        subtitle={existing ? <code>{existing.uid}</code> : `Will be ${form.category || '…'}.${kebab(form.displayName) || '…'}`}
        back={<Link to="/builder" className="back-link">← Content-type builder</Link>}
        actions={<EditorActions deleteLabel={existing ? 'Delete component' : null} onDelete={() => setDeleting(true)} onSave={() => void save()} busy={busy} canSave={canSave} />}
      />
      {error ? <ErrorNotice message={schemaErrorLines(error).join(' — ')} /> : null}
      <section className="card stack" aria-label="Component settings">
        <div className="row-3">
          <Field id="component-name" label="Display name" required>
            <input id="component-name" value={form.displayName} onChange={(e) => set({ displayName: e.target.value })} autoComplete="off" />
          </Field>
          <Field id="component-category" label="Category" required hint={existing ? 'Fixed once created.' : 'Groups components, e.g. shared.'}>
            <input id="component-category" value={form.category} readOnly={existing !== undefined} onChange={(e) => set({ category: kebab(e.target.value) })} />
          </Field>
          <Field id="component-description" label="Description">
            <input id="component-description" value={form.description} onChange={(e) => set({ description: e.target.value })} />
          </Field>
        </div>
      </section>
      <AttributeList attributes={form.attributes} onChange={(attributes) => set({ attributes })} localizedType={false} forComponent />
      {confirmation}
      {deleting && existing ? (
        <ConfirmDialog
          title={`Delete ${form.displayName}?`}
          confirmLabel="Delete component"
          danger
          onClose={() => setDeleting(false)}
          onConfirm={async () => {
            await client.del(`/admin/api/components/${encodeURIComponent(existing.uid)}`, { confirmDataLoss: 'true' });
            notify(`${form.displayName} deleted`);
            schemas.reload();
            guard.leave(() => navigate('/builder'));
          }}
        >
          <p>The component and the values stored in it are removed from every type that uses it.</p>
        </ConfirmDialog>
      ) : null}
      {guard.dialog}
    </div>
  );
}
