import type { Attribute } from '../../../api/schema';
import { BlocksEditor } from '../blocks/blocks-editor';
import { describedBy, Field } from '../../../components/field';
import { humanize } from '../list-columns';
import { ComponentField } from './component-field';
import { DynamicZoneField } from './dynamic-zone-field';
import { errorWithin, fieldId, useFormContext, type FieldControlProps } from './form-context';
import { MediaField } from './media-field';
import { RelationField } from './relation-field';
import { ScalarField } from './scalar-field';

function BlocksField({ name, attribute, value, onChange, path }: FieldControlProps) {
  const { errors } = useFormContext();
  const id = fieldId(path);
  const error = errorWithin(errors, path);
  const label = humanize(name);
  return (
    <Field id={id} label={label} error={error} required={attribute.required} group>
      <BlocksEditor id={id} label={label} value={value} onChange={onChange} describedBy={describedBy(id, null, error)} invalid={error !== undefined} />
    </Field>
  );
}

/** The control for one attribute, chosen by its type. */
export function FieldInput(props: FieldControlProps) {
  switch (props.attribute.type) {
    case 'relation':
      return <RelationField {...props} />;
    case 'media':
      return <MediaField {...props} />;
    case 'component':
      return <ComponentField {...props} />;
    case 'dynamiczone':
      return <DynamicZoneField {...props} />;
    case 'blocks':
      return <BlocksField {...props} />;
    default:
      return <ScalarField {...props} />;
  }
}

/** Every field of a schema's values (a document or one component), in schema order. */
export function FieldList({ attributes, values, onChange, path }: { readonly attributes: Readonly<Record<string, Attribute>>; readonly values: Readonly<Record<string, unknown>>; readonly onChange: (name: string, value: unknown) => void; readonly path: readonly string[] }) {
  return (
    <div className="field-list">
      {Object.entries(attributes).map(([name, attribute]) => (
        <FieldInput key={name} name={name} attribute={attribute} value={values[name]} onChange={(v) => onChange(name, v)} path={[...path, name]} siblings={values} />
      ))}
    </div>
  );
}
