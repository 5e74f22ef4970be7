import { useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { hasDraftAndPublish, isLocalized, schemaToJson, type Schema } from '../../api/schema';
import type { ContentType } from '../../api/types';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { Field } from '../../components/field';
import { useLeaveGuard } from '../../components/leave-guard';
import { EmptyState, ErrorNotice, Loading, PageHeader } from '../../components/feedback';
import { useToast } from '../../components/toast';
import { useClient } from '../auth/session';
import { AttributeList, fromEdited, toEdited, type EditedAttribute } from './attribute-list';
import { Check } from './option-controls';
import { kebab, pluralize, tableName } from './naming';
import { savedLocalization, withLocalized, withoutLocalized } from './i18n-fields';
import { EditorActions, schemaErrorLines, useSchemaSave, writeSchema } from './schema-save';
import { useSchemas } from './schemas-context';
import { defaultPopulateText, ProjectCodeNotes, withDefaultPopulate } from './type-defaults';

interface TypeForm {
  readonly displayName: string;
  readonly singularName: string;
  readonly pluralName: string;
  readonly kind: 'collectionType' | 'singleType';
  readonly description: string;
  readonly draftAndPublish: boolean;
  readonly localized: boolean;
  /** `pluginOptions.hearth.defaultPopulate` as text: paths or JSON. */
  readonly defaultPopulate: string;
  readonly attributes: EditedAttribute[];
}

const EMPTY: TypeForm = { displayName: '', singularName: '', pluralName: '', kind: 'collectionType', description: '', draftAndPublish: true, localized: false, defaultPopulate: '', attributes: [] };

function formOf(type: ContentType): TypeForm {
  const { schema } = type;
  return {
    displayName: schema.info.displayName,
    singularName: schema.info.singularName ?? '',
    pluralName: schema.info.pluralName ?? '',
    kind: schema.kind ?? 'collectionType',
    description: schema.info.description ?? '',
    draftAndPublish: hasDraftAndPublish(schema),
    localized: isLocalized(schema),
    defaultPopulate: defaultPopulateText(schema.pluginOptions),
    attributes: toEdited(schema.attributes),
  };
}

function schemaOf(form: TypeForm, existing: Schema | undefined): Schema {
  const { i18n: _old, ...otherPlugins } = existing?.pluginOptions ?? {};
  return {
    kind: form.kind,
    collectionName: existing?.collectionName ?? tableName(form.pluralName),
    info: { ...(existing?.info ?? {}), displayName: form.displayName, singularName: form.singularName, pluralName: form.pluralName, description: form.description },
    options: { ...(existing?.options ?? {}), draftAndPublish: form.draftAndPublish },
    pluginOptions: withDefaultPopulate(form.localized ? { ...otherPlugins, i18n: { localized: true } } : otherPlugins, form.defaultPopulate),
    attributes: Object.fromEntries(Object.entries(fromEdited(form.attributes).attributes).map(([name, a]) => [name, savedLocalization(a, form.localized)])),
  };
}

/** Switching Internationalization on makes every field localized, switching it off drops the fields' i18n option (as Strapi's builder does). */
function withTypeLocalized(form: TypeForm, localized: boolean): Partial<TypeForm> {
  if (localized === form.localized) return {};
  const attributes = form.attributes.map((a) => ({ ...a, attribute: localized ? withLocalized(a.attribute, true) : withoutLocalized(a.attribute) }));
  return { localized, attributes };
}

/** Creates or edits a collection or single type; saving applies it to the running server. */
export function TypeEditor() {
  const { uid } = useParams();
  const schemas = useSchemas();
  const client = useClient();
  const navigate = useNavigate();
  const { notify } = useToast();
  const existing = uid ? schemas.contentType(uid) : undefined;
  const [form, setForm] = useState<TypeForm | null>(uid ? null : EMPTY);
  // The form as last loaded or saved: leaving with anything else asks first.
  const [saved, setSaved] = useState<TypeForm | null>(uid ? null : EMPTY);
  const [deleting, setDeleting] = useState(false);
  useEffect(() => {
    if (!existing) return;
    setForm(formOf(existing));
    setSaved(formOf(existing));
  }, [existing]);
  const guard = useLeaveGuard(form !== null && saved !== null && JSON.stringify(form) !== JSON.stringify(saved));

  const { save, busy, error, confirmation } = useSchemaSave(async (confirmDataLoss) => {
    if (!form) return;
    await writeSchema(
      { client, notify, reload: schemas.reload, navigate: (to) => guard.leave(() => navigate(to)) },
      { collection: 'content-types', key: 'contentType', route: 'types', uid: existing?.uid ?? null, displayName: form.displayName },
      { schema: schemaToJson(schemaOf(form, existing?.schema)), renames: fromEdited(form.attributes).renames, confirmDataLoss },
    );
    setSaved(form);
  });

  if (uid && !existing) {
    if (schemas.loading) return <Loading />;
    return <EmptyState title="Content-type not found" action={<Link to="/builder">Back to the builder</Link>} />;
  }
  if (!form) return <Loading />;
  const set = (changes: Partial<TypeForm>) => setForm({ ...form, ...changes });
  const rename = (displayName: string) => {
    if (existing) return set({ displayName });
    const singular = kebab(displayName);
    return set({ displayName, singularName: singular, pluralName: pluralize(singular) });
  };
  const canSave = form.displayName !== '' && form.singularName !== '' && form.pluralName !== '' && form.singularName !== form.pluralName;

  return (
    <div className="screen">
      <PageHeader
        title={existing ? form.displayName || 'Content-type' : 'New content-type'}
        subtitle={existing ? <code>{existing.uid}</code> : 'Describe the type, then add its fields.'}
        back={<Link to="/builder" className="back-link">← Content-type builder</Link>}
        actions={<EditorActions deleteLabel={existing ? 'Delete type' : null} onDelete={() => setDeleting(true)} onSave={() => void save()} busy={busy} canSave={canSave} />}
      />
      {error ? <ErrorNotice message={schemaErrorLines(error).join(' — ')} /> : null}
      <section className="card stack" aria-label="Type settings">
        <div className="row-3">
          <Field id="type-display-name" label="Display name" required>
            <input id="type-display-name" value={form.displayName} onChange={(e) => rename(e.target.value)} autoComplete="off" />
          </Field>
          <Field id="type-singular" label="API ID (singular)" required hint={existing ? 'Fixed once created.' : undefined}>
            <input id="type-singular" value={form.singularName} readOnly={existing !== undefined} onChange={(e) => set({ singularName: kebab(e.target.value) })} />
          </Field>
          <Field id="type-plural" label="API ID (plural)" required hint={existing ? 'Fixed once created.' : `Served at /api/${form.pluralName || '…'}`}>
            <input id="type-plural" value={form.pluralName} readOnly={existing !== undefined} onChange={(e) => set({ pluralName: kebab(e.target.value) })} />
          </Field>
        </div>
        <div className="row-2">
          <Field id="type-kind" label="Kind">
            <select id="type-kind" value={form.kind} disabled={existing !== undefined} onChange={(e) => set({ kind: e.target.value === 'singleType' ? 'singleType' : 'collectionType' })}>
              <option value="collectionType">Collection type (many entries)</option>
              <option value="singleType">Single type (one entry)</option>
            </select>
          </Field>
          <Field id="type-description" label="Description">
            <input id="type-description" value={form.description} onChange={(e) => set({ description: e.target.value })} />
          </Field>
        </div>
        <Field
          id="type-default-populate"
          label="Default populate"
          hint="Used by find and findOne when a request sends no populate: paths (`*`, `category,seo.image`) or the JSON object form. A request's own populate keeps its own."
        >
          <input id="type-default-populate" value={form.defaultPopulate} onChange={(e) => set({ defaultPopulate: e.target.value })} autoComplete="off" spellCheck={false} />
        </Field>
        <div className="checks-inline">
          <Check id="type-draft-publish" label="Draft & publish" checked={form.draftAndPublish} onChange={(v) => set({ draftAndPublish: v })} hint="Entries are saved as drafts until published." />
          <Check id="type-i18n" label="Internationalization" checked={form.localized} onChange={(v) => set(withTypeLocalized(form, v))} hint="Entries can have a version per locale." />
        </div>
      </section>
      {existing?.projectCode ? <ProjectCodeNotes notes={existing.projectCode} /> : null}
      <AttributeList attributes={form.attributes} onChange={(attributes) => set({ attributes })} localizedType={form.localized} forComponent={false} />
      {confirmation}
      {deleting && existing ? (
        <ConfirmDialog
          title={`Delete ${form.displayName}?`}
          confirmLabel="Delete type and its entries"
          danger
          onClose={() => setDeleting(false)}
          onConfirm={async () => {
            await client.del(`/admin/api/content-types/${encodeURIComponent(existing.uid)}`, { confirmDataLoss: 'true' });
            notify(`${form.displayName} deleted`);
            schemas.reload();
            guard.leave(() => navigate('/builder'));
          }}
        >
          <p>The type, its schema file and every entry it holds are removed. This cannot be undone.</p>
        </ConfirmDialog>
      ) : null}
      {guard.dialog}
    </div>
  );
}
