import { useId, useState, type KeyboardEvent } from 'react';
import { dataOf, object, str } from '../../api/decode';
import { schemaToJson } from '../../api/schema';
import { Field } from '../../components/field';
import { ErrorNotice } from '../../components/feedback';
import { useToast } from '../../components/toast';
import { useClient } from '../auth/session';
import { kebab, pluralize, tableName } from './naming';
import { schemaErrorLines } from './schema-save';
import { useSchemas } from './schemas-context';

/** Icons Strapi's builder offers for components (names of its design system), kept as info.icon. */
export const COMPONENT_ICONS = ['cube', 'apps', 'archive', 'book', 'briefcase', 'calendar', 'dashboard', 'feather', 'file', 'globe', 'grid', 'heart', 'landscape', 'layer', 'lightbulb', 'link', 'paint', 'picture', 'pin', 'puzzle', 'quote', 'star', 'user', 'write'] as const;

const uidDecoder = dataOf(object({ uid: str }));

/**
 * "Create a new component" inside the field dialog, as Strapi's builder offers: a category, a
 * display name and an icon; the component is created at once through the admin API (with no fields
 * yet) and handed to `onCreated`, which selects it. Not a <form>: it sits inside the dialog's form.
 */
export function NewComponentForm({ onCreated, onCancel }: { readonly onCreated: (uid: string) => void; readonly onCancel: () => void }) {
  const client = useClient();
  const schemas = useSchemas();
  const { notify } = useToast();
  const categoriesId = useId();
  const [category, setCategory] = useState(schemas.components[0]?.category ?? 'shared');
  const [displayName, setDisplayName] = useState('');
  const [icon, setIcon] = useState<string>(COMPONENT_ICONS[0]);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const categories = [...new Set(schemas.components.map((c) => c.category))].sort();
  const name = kebab(displayName);

  const create = async () => {
    if (busy) return;
    if (category === '' || name === '') {
      setProblem('Give the component a category and a display name.');
      return;
    }
    if (schemas.component(`${category}.${name}`)) {
      setProblem(`A component ${category}.${name} already exists: choose it in the list.`);
      return;
    }
    setBusy(true);
    setProblem(null);
    try {
      const schema = schemaToJson({
        collectionName: `components_${tableName(category)}_${tableName(pluralize(name))}`,
        info: { displayName, icon, description: '' },
        options: {},
        attributes: {},
      });
      const { uid } = uidDecoder(await client.post('/admin/api/components', { component: { category, ...schema } }));
      notify(`${displayName} created: add its fields from the builder home`);
      schemas.reload();
      onCreated(uid);
    } catch (error) {
      setProblem(schemaErrorLines(error).join(' — '));
    } finally {
      setBusy(false);
    }
  };
  // Enter creates the component instead of submitting the dialog's field form.
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Enter') return;
    event.preventDefault();
    void create();
  };

  return (
    <div className="new-component card" role="group" aria-label="New component">
      <div className="row-3">
        <Field id="new-component-category" label="Component category" required hint="Groups components, e.g. shared.">
          <input id="new-component-category" list={categoriesId} value={category} onChange={(e) => setCategory(kebab(e.target.value))} onKeyDown={onKeyDown} autoComplete="off" />
        </Field>
        <datalist id={categoriesId}>
          {categories.map((c) => (
            <option key={c} value={c} />
          ))}
        </datalist>
        <Field id="new-component-name" label="Component display name" required hint={name ? `Will be ${category || '…'}.${name}` : undefined}>
          <input id="new-component-name" value={displayName} onChange={(e) => setDisplayName(e.target.value)} onKeyDown={onKeyDown} autoComplete="off" />
        </Field>
        <Field id="new-component-icon" label="Component icon">
          <select id="new-component-icon" value={icon} onChange={(e) => setIcon(e.target.value)}>
            {COMPONENT_ICONS.map((i) => (
              <option key={i} value={i}>
                {i}
              </option>
            ))}
          </select>
        </Field>
      </div>
      {problem ? <ErrorNotice message={problem} /> : null}
      <div className="button-row">
        <button type="button" className="btn" onClick={onCancel} disabled={busy}>
          Choose an existing one
        </button>
        <button type="button" className="btn btn-primary" onClick={() => void create()} disabled={busy}>
          {busy ? 'Creating…' : 'Create component'}
        </button>
      </div>
    </div>
  );
}
