import type { ReactNode } from 'react';

/** Props of a labelled form field. */
export interface FieldProps {
  readonly id: string;
  readonly label: string;
  readonly hint?: ReactNode;
  readonly error?: string | undefined;
  readonly required?: boolean;
  readonly children: ReactNode;
  /** For groups of controls (checkbox lists, relation pickers): a fieldset with a legend instead of a label. */
  readonly group?: boolean;
}

/** ids of a field's hint and error, for the control's aria-describedby. */
export function describedBy(id: string, hint: unknown, error: unknown): string | undefined {
  const ids = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean);
  return ids.length > 0 ? ids.join(' ') : undefined;
}

/** A label (or legend), the control, a hint and the field's error message. */
export function Field({ id, label, hint, error, required, children, group }: FieldProps) {
  // The marker sits outside the label, so the control's accessible name is the label alone.
  const marker = required ? (
    <span className="required" aria-hidden="true">
      *
    </span>
  ) : null;
  const extras = (
    <>
      {hint ? (
        <p id={`${id}-hint`} className="field-hint">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="field-error" role="alert">
          {error}
        </p>
      ) : null}
    </>
  );
  if (group) {
    return (
      <fieldset className={error ? 'field field-group field-invalid' : 'field field-group'} aria-describedby={describedBy(id, hint, error)}>
        <legend className="field-label">
          {label}
          {marker}
        </legend>
        {children}
        {extras}
      </fieldset>
    );
  }
  return (
    <div className={error ? 'field field-invalid' : 'field'}>
      <div className="field-label-row">
        <label htmlFor={id} className="field-label">
          {label}
        </label>
        {marker}
      </div>
      {children}
      {extras}
    </div>
  );
}
