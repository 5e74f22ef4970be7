import type { ReactNode } from 'react';

/** A checkbox with its label to the right. */
export function Check({ id, label, checked, onChange, hint }: { readonly id: string; readonly label: string; readonly checked: boolean; readonly onChange: (checked: boolean) => void; readonly hint?: ReactNode }) {
  return (
    <div className="check">
      <input id={id} type="checkbox" checked={checked} onChange={(e) => onChange(e.target.checked)} aria-describedby={hint ? `${id}-hint` : undefined} />
      <label htmlFor={id}>{label}</label>
      {hint ? (
        <p id={`${id}-hint`} className="field-hint">
          {hint}
        </p>
      ) : null}
    </div>
  );
}

/** A number input that maps the empty string to undefined. */
export function NumberInput({ id, value, onChange, step }: { readonly id: string; readonly value: number | undefined; readonly onChange: (value: number | undefined) => void; readonly step?: string }) {
  return (
    <input
      id={id}
      type="number"
      step={step ?? 'any'}
      value={value ?? ''}
      onChange={(e) => onChange(e.target.value === '' || !Number.isFinite(e.target.valueAsNumber) ? undefined : e.target.valueAsNumber)}
    />
  );
}
