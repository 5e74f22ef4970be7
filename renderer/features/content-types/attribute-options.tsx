import type { Attribute } from '../../api/schema';
import { Field } from '../../components/field';
import { isScalarType } from './attribute-kinds';
import { hasLocalizedChoice, isFieldLocalized, withLocalized } from './i18n-fields';
import { Check, NumberInput } from './option-controls';

/** Props shared by the option editors of the attribute dialog. */
export interface OptionProps {
  readonly attribute: Attribute;
  readonly patch: (changes: Partial<Attribute>) => void;
  /** Names of the other attributes (uid target fields). */
  readonly siblings: readonly { readonly name: string; readonly attribute: Attribute }[];
  readonly localizedType: boolean;
}

const isNumeric = (t: Attribute['type']) => t === 'integer' || t === 'biginteger' || t === 'float' || t === 'decimal';
const hasLength = (t: Attribute['type']) => t === 'string' || t === 'text' || t === 'richtext' || t === 'email' || t === 'password' || t === 'uid';

function DefaultValue({ attribute, patch }: Pick<OptionProps, 'attribute' | 'patch'>) {
  const { type } = attribute;
  if (type === 'boolean') {
    const value = attribute.default === true ? 'true' : attribute.default === false ? 'false' : '';
    return (
      <Field id="attr-default" label="Default value">
        <select id="attr-default" value={value} onChange={(e) => patch({ default: e.target.value === '' ? undefined : e.target.value === 'true' })}>
          <option value="">None</option>
          <option value="true">Yes</option>
          <option value="false">No</option>
        </select>
      </Field>
    );
  }
  if (type === 'enumeration') {
    return (
      <Field id="attr-default" label="Default value">
        <select id="attr-default" value={typeof attribute.default === 'string' ? attribute.default : ''} onChange={(e) => patch({ default: e.target.value || undefined })}>
          <option value="">None</option>
          {(attribute.enum ?? []).map((v) => (
            <option key={v} value={v}>
              {v}
            </option>
          ))}
        </select>
      </Field>
    );
  }
  if (isNumeric(type)) {
    return (
      <Field id="attr-default" label="Default value">
        <NumberInput id="attr-default" value={typeof attribute.default === 'number' ? attribute.default : undefined} onChange={(v) => patch({ default: v })} />
      </Field>
    );
  }
  const inputType = type === 'date' ? 'date' : type === 'time' ? 'time' : 'text';
  return (
    <Field id="attr-default" label="Default value">
      <input id="attr-default" type={inputType} value={typeof attribute.default === 'string' ? attribute.default : ''} onChange={(e) => patch({ default: e.target.value || undefined })} />
    </Field>
  );
}

/** Options of scalar attributes: required, unique, private, limits, default, enum values, uid target, localized. */
export function ScalarOptions({ attribute, patch, siblings, localizedType }: OptionProps) {
  const { type } = attribute;
  const scalar = isScalarType(type);
  return (
    <div className="stack">
      {type === 'enumeration' ? (
        <Field id="attr-enum" label="Values" required hint="One value per line.">
          <textarea
            id="attr-enum"
            rows={4}
            value={(attribute.enum ?? []).join('\n')}
            onChange={(e) => patch({ enum: e.target.value.split('\n').map((v) => v.trim()).filter((v, i, all) => v !== '' || i === all.length - 1) })}
            aria-describedby="attr-enum-hint"
          />
        </Field>
      ) : null}
      {type === 'uid' ? (
        <Field id="attr-target-field" label="Generated from">
          <select id="attr-target-field" value={attribute.targetField ?? ''} onChange={(e) => patch({ targetField: e.target.value || undefined })}>
            <option value="">Nothing (typed by hand)</option>
            {siblings
              .filter((s) => s.attribute.type === 'string' || s.attribute.type === 'text')
              .map((s) => (
                <option key={s.name} value={s.name}>
                  {s.name}
                </option>
              ))}
          </select>
        </Field>
      ) : null}
      {type === 'string' ? (
        <Field id="attr-regex" label="Pattern (regular expression)">
          <input id="attr-regex" value={attribute.regex ?? ''} onChange={(e) => patch({ regex: e.target.value || undefined })} />
        </Field>
      ) : null}
      {hasLength(type) ? (
        <div className="row-2">
          <Field id="attr-min-length" label="Minimum length">
            <NumberInput id="attr-min-length" step="1" value={attribute.minLength} onChange={(v) => patch({ minLength: v })} />
          </Field>
          <Field id="attr-max-length" label="Maximum length">
            <NumberInput id="attr-max-length" step="1" value={attribute.maxLength} onChange={(v) => patch({ maxLength: v })} />
          </Field>
        </div>
      ) : null}
      {isNumeric(type) ? (
        <div className="row-2">
          <Field id="attr-min" label="Minimum">
            <NumberInput id="attr-min" value={attribute.min} onChange={(v) => patch({ min: v })} />
          </Field>
          <Field id="attr-max" label="Maximum">
            <NumberInput id="attr-max" value={attribute.max} onChange={(v) => patch({ max: v })} />
          </Field>
        </div>
      ) : null}
      {scalar && type !== 'uid' ? <DefaultValue attribute={attribute} patch={patch} /> : null}
      <CommonFlags attribute={attribute} patch={patch} localizedType={localizedType} />
    </div>
  );
}

/** Required, unique, private and localized: the flags every kind of attribute may carry. */
export function CommonFlags({ attribute, patch, localizedType }: Pick<OptionProps, 'attribute' | 'patch' | 'localizedType'>) {
  const uniqueAllowed = isScalarType(attribute.type) || attribute.type === 'media';
  return (
    <fieldset className="checks">
      <legend className="field-label">Settings</legend>
      {attribute.type === 'dynamiczone' || attribute.type === 'relation' ? null : (
        <Check id="attr-required" label="Required" checked={attribute.required === true} onChange={(v) => patch({ required: v || undefined })} />
      )}
      {uniqueAllowed ? <Check id="attr-unique" label="Unique" checked={attribute.unique === true} onChange={(v) => patch({ unique: v || undefined })} /> : null}
      <Check id="attr-private" label="Private (left out of API answers)" checked={attribute.private === true} onChange={(v) => patch({ private: v || undefined })} />
      {localizedType && hasLocalizedChoice(attribute.type) ? (
        <Check
          id="attr-localized"
          label="Different in each locale"
          checked={isFieldLocalized(attribute)}
          onChange={(v) => patch({ pluginOptions: withLocalized(attribute, v).pluginOptions })}
        />
      ) : null}
    </fieldset>
  );
}
