import { useState, type FormEvent } from 'react';
import type { Attribute, AttributeType } from '../../api/schema';
import { Dialog } from '../../components/dialog';
import { describedBy, Field } from '../../components/field';
import { ErrorNotice } from '../../components/feedback';
import { KIND_CHOICES } from './attribute-kinds';
import { ComponentOptions, DynamicZoneOptions, MediaOptions, RelationOptions } from './attribute-links';
import { ScalarOptions, type OptionProps } from './attribute-options';
import { withLocalized } from './i18n-fields';
import { attributeNameProblem } from './naming';

/** A named attribute as the builder edits it. */
export interface NamedAttribute {
  readonly name: string;
  readonly attribute: Attribute;
}

/** Props of the add/edit field dialog. */
export interface AttributeDialogProps {
  readonly initial?: NamedAttribute;
  readonly siblings: readonly NamedAttribute[];
  readonly localizedType: boolean;
  /** Components cannot hold dynamic zones. */
  readonly forComponent: boolean;
  readonly onSave: (value: NamedAttribute) => void;
  readonly onClose: () => void;
}

function starter(type: AttributeType): Attribute {
  switch (type) {
    case 'media':
      return { type, multiple: false, allowedTypes: ['images', 'files', 'videos', 'audios'] };
    case 'relation':
      return { type, relation: 'manyToOne' };
    case 'component':
      return { type, repeatable: false };
    case 'dynamiczone':
      return { type, components: [] };
    case 'enumeration':
      return { type, enum: [] };
    default:
      return { type };
  }
}

function optionProblem(a: Attribute): string | null {
  if (a.type === 'enumeration' && (a.enum ?? []).filter((v) => v !== '').length === 0) return 'An enumeration needs at least one value.';
  if (a.type === 'relation' && !a.target) return 'Choose the related type.';
  if (a.type === 'component' && !a.component) return 'Choose a component.';
  if (a.type === 'dynamiczone' && (a.components ?? []).length === 0) return 'Choose at least one component for the dynamic zone.';
  if (a.type === 'media' && (a.allowedTypes ?? []).length === 0) return 'Allow at least one type of file.';
  return null;
}

function Options(props: OptionProps) {
  switch (props.attribute.type) {
    case 'media':
      return <MediaOptions {...props} />;
    case 'relation':
      return <RelationOptions {...props} />;
    case 'component':
      return <ComponentOptions {...props} />;
    case 'dynamiczone':
      return <DynamicZoneOptions {...props} />;
    default:
      return <ScalarOptions {...props} />;
  }
}

/** Adds or edits one field: pick its type, then name it and set its options. */
export function AttributeDialog({ initial, siblings, localizedType, forComponent, onSave, onClose }: AttributeDialogProps) {
  const [attribute, setAttribute] = useState<Attribute | null>(initial?.attribute ?? null);
  const [name, setName] = useState(initial?.name ?? '');
  const [nameError, setNameError] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const patch = (changes: Partial<Attribute>) => setAttribute((a) => (a ? { ...a, ...changes } : a));
  const choices = KIND_CHOICES.filter((k) => !(forComponent && k.type === 'dynamiczone'));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!attribute) return;
    const nameIssue = attributeNameProblem(name, siblings.map((s) => s.name));
    const optionIssue = optionProblem(attribute);
    setNameError(nameIssue);
    setProblem(optionIssue);
    if (nameIssue || optionIssue) return;
    const cleaned = attribute.type === 'enumeration' ? { ...attribute, enum: (attribute.enum ?? []).filter((v) => v !== '') } : attribute;
    onSave({ name, attribute: cleaned });
  };

  if (!attribute) {
    return (
      <Dialog title="Add a field" onClose={onClose} size="large" description="Choose the kind of field.">
        <ul className="kind-grid">
          {choices.map((k) => (
            <li key={k.type}>
              <button type="button" className="kind-choice" onClick={() => setAttribute(localizedType ? withLocalized(starter(k.type), true) : starter(k.type))}>
                <span className="kind-label">{k.label}</span>
                <span className="kind-description">{k.description}</span>
              </button>
            </li>
          ))}
        </ul>
      </Dialog>
    );
  }

  const label = KIND_CHOICES.find((k) => k.type === attribute.type)?.label ?? attribute.type;
  return (
    <Dialog
      title={initial ? `Edit field “${initial.name}”` : `New ${label.toLowerCase()} field`}
      onClose={onClose}
      size="large"
      footer={
        <>
          {initial ? null : (
            <button type="button" className="btn btn-ghost" onClick={() => setAttribute(null)}>
              Back to field types
            </button>
          )}
          <span className="spacer" />
          <button type="button" className="btn" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" form="attribute-form" className="btn btn-primary">
            {initial ? 'Apply' : 'Add field'}
          </button>
        </>
      }
    >
      <form id="attribute-form" onSubmit={submit} className="stack" noValidate>
        <Field id="attr-name" label="Field name" required error={nameError ?? undefined} hint={initial && initial.name !== name ? 'Renaming keeps the stored values.' : undefined}>
          <input id="attr-name" value={name} onChange={(e) => setName(e.target.value.trim())} autoComplete="off" aria-invalid={nameError !== null} aria-describedby={describedBy('attr-name', initial && initial.name !== name, nameError)} data-autofocus />
        </Field>
        <Options attribute={attribute} patch={patch} siblings={siblings} localizedType={localizedType} />
        {problem ? <ErrorNotice message={problem} /> : null}
      </form>
    </Dialog>
  );
}
