import { useEffect, useRef } from 'react';
import { describedBy, Field } from '../../../components/field';
import { humanize } from '../list-columns';
import { errorAt, errorWithin, fieldId, useFormContext, type FieldControlProps } from './form-context';

const str = (v: unknown) => (typeof v === 'string' ? v : v === null || v === undefined ? '' : String(v));

function slugify(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

function hintOf({ attribute }: FieldControlProps): string | undefined {
  const a = attribute;
  const parts: string[] = [];
  if (a.minLength !== undefined && a.maxLength !== undefined) parts.push(`${a.minLength} to ${a.maxLength} characters`);
  else if (a.minLength !== undefined) parts.push(`At least ${a.minLength} characters`);
  else if (a.maxLength !== undefined) parts.push(`At most ${a.maxLength} characters`);
  if (a.min !== undefined && a.max !== undefined) parts.push(`From ${a.min} to ${a.max}`);
  else if (a.min !== undefined) parts.push(`At least ${a.min}`);
  else if (a.max !== undefined) parts.push(`At most ${a.max}`);
  if (a.type === 'password') parts.push('Leave empty to keep the current password');
  if (a.type === 'json') parts.push('Any JSON value');
  if (a.type === 'richtext') parts.push('Markdown');
  if (a.unique) parts.push('Must be unique');
  return parts.length > 0 ? `${parts.join(' · ')}.` : undefined;
}

/**
 * A uid field, with Generate when it has a target field. Empty when the form opened (a new entry),
 * it follows its target as the target is typed, as Strapi's uid field does, until it is edited by hand.
 */
function UidInput({ attribute, value, onChange, siblings, common, label }: FieldControlProps & { readonly common: Record<string, unknown>; readonly label: string }) {
  const source = attribute.targetField ? str(siblings[attribute.targetField]) : '';
  const following = useRef(str(value) === '');
  // The target as last seen: only a change typed after the form opened moves the slug (opening an
  // entry whose slug is empty must not change it, nor mark the form unsaved).
  const seen = useRef(source);
  const change = useRef(onChange);
  change.current = onChange;
  const current = str(value);
  useEffect(() => {
    if (source === seen.current) return;
    seen.current = source;
    if (!following.current || !attribute.targetField) return;
    const next = slugify(source);
    if (next !== current) change.current(next);
    // The slug's own value is read, not followed.
  }, [source, attribute.targetField]);
  return (
    <div className="input-with-button">
      <input
        {...common}
        value={current}
        onChange={(e) => {
          following.current = false;
          onChange(e.target.value);
        }}
        pattern="[A-Za-z0-9\-_.~]*"
      />
      {attribute.targetField ? (
        <button type="button" className="btn btn-small" onClick={() => onChange(slugify(source))} disabled={source === ''} aria-label={`Generate ${label} from ${humanize(attribute.targetField)}`}>
          Generate
        </button>
      ) : null}
    </div>
  );
}

/** A scalar field: text, numbers, dates, booleans, enumerations, JSON, uid (with a generate button). */
export function ScalarField(props: FieldControlProps) {
  const { name, attribute, value, onChange, path } = props;
  const { errors } = useFormContext();
  const id = fieldId(path);
  const error = attribute.type === 'json' ? errorWithin(errors, path) : errorAt(errors, path);
  const hint = hintOf(props);
  const common = { id, 'aria-invalid': error !== undefined, 'aria-describedby': describedBy(id, hint, error), required: attribute.required === true };
  const label = humanize(name);
  let control;
  switch (attribute.type) {
    case 'text':
    case 'richtext':
      control = <textarea {...common} rows={attribute.type === 'richtext' ? 8 : 4} value={str(value)} onChange={(e) => onChange(e.target.value)} />;
      break;
    case 'json':
      control = <textarea {...common} className="mono" rows={6} value={str(value)} onChange={(e) => onChange(e.target.value)} spellCheck={false} />;
      break;
    case 'enumeration':
      control = (
        <select {...common} value={str(value)} onChange={(e) => onChange(e.target.value)}>
          <option value="">—</option>
          {(attribute.enum ?? []).map((v) => (
            <option key={v} value={v}>
              {v}
            </option>
          ))}
        </select>
      );
      break;
    case 'boolean':
      return (
        <div className={error ? 'field field-invalid' : 'field'}>
          <div className="check switch">
            <input {...common} type="checkbox" role="switch" checked={value === true} onChange={(e) => onChange(e.target.checked)} />
            <label htmlFor={id}>{label}</label>
          </div>
          {error ? (
            <p id={`${id}-error`} className="field-error" role="alert">
              {error}
            </p>
          ) : null}
        </div>
      );
    case 'integer':
    case 'float':
    case 'decimal':
      control = <input {...common} type="number" step={attribute.type === 'integer' ? '1' : 'any'} min={attribute.min} max={attribute.max} value={str(value)} onChange={(e) => onChange(e.target.value)} />;
      break;
    case 'biginteger':
      control = <input {...common} inputMode="numeric" value={str(value)} onChange={(e) => onChange(e.target.value)} />;
      break;
    case 'date':
      control = <input {...common} type="date" value={str(value)} onChange={(e) => onChange(e.target.value)} />;
      break;
    case 'time':
      control = <input {...common} type="time" value={str(value)} onChange={(e) => onChange(e.target.value)} />;
      break;
    case 'datetime':
    case 'timestamp':
      control = <input {...common} type="datetime-local" value={str(value)} onChange={(e) => onChange(e.target.value)} />;
      break;
    case 'uid':
      control = <UidInput {...props} common={common} label={label} />;
      break;
    default:
      control = (
        <input
          {...common}
          type={attribute.type === 'email' ? 'email' : attribute.type === 'password' ? 'password' : 'text'}
          autoComplete={attribute.type === 'password' ? 'new-password' : 'off'}
          minLength={attribute.minLength}
          maxLength={attribute.maxLength}
          value={str(value)}
          onChange={(e) => onChange(e.target.value)}
        />
      );
  }
  return (
    <Field id={id} label={label} hint={hint} error={error} required={attribute.required}>
      {control}
    </Field>
  );
}
