import type { HeaderRow } from './webhook-api';

/** Props of the header rows of a webhook. */
export interface HeadersEditorProps {
  readonly rows: readonly HeaderRow[];
  readonly onChange: (rows: HeaderRow[]) => void;
  /** Problems by row index (a value without a name). */
  readonly errors: ReadonlyMap<number, string>;
}

/** The headers sent with every call, as name/value rows with add and remove. */
export function HeadersEditor({ rows, onChange, errors }: HeadersEditorProps) {
  const set = (index: number, row: HeaderRow) => onChange(rows.map((r, i) => (i === index ? row : r)));
  return (
    <fieldset className="field field-group">
      <legend className="field-label">Headers</legend>
      <p className="field-hint" id="webhook-headers-hint">
        Sent with every call, before <code>X-Strapi-Event</code> and <code>Content-Type</code>. For example <code>Authorization: Bearer …</code>.
      </p>
      {rows.length > 0 ? (
        <ul className="webhook-headers">
          {rows.map((row, i) => {
            const n = i + 1;
            const error = errors.get(i);
            return (
              <li key={i} className="webhook-header-row">
                <label htmlFor={`webhook-header-key-${i}`} className="visually-hidden">
                  Header {n} name
                </label>
                <input
                  id={`webhook-header-key-${i}`}
                  className="mono"
                  placeholder="Name"
                  value={row.key}
                  onChange={(e) => set(i, { ...row, key: e.target.value })}
                  aria-invalid={error !== undefined}
                  aria-describedby={error ? `webhook-header-error-${i}` : undefined}
                  autoComplete="off"
                />
                <label htmlFor={`webhook-header-value-${i}`} className="visually-hidden">
                  Header {n} value
                </label>
                <input
                  id={`webhook-header-value-${i}`}
                  className="mono"
                  placeholder="Value"
                  value={row.value}
                  onChange={(e) => set(i, { ...row, value: e.target.value })}
                  autoComplete="off"
                />
                <button
                  type="button"
                  className="btn btn-small btn-danger-ghost"
                  onClick={() => onChange(rows.filter((_r, j) => j !== i))}
                  aria-label={`Remove header ${n}`}
                >
                  Remove
                </button>
                {error ? (
                  <p id={`webhook-header-error-${i}`} className="field-error" role="alert">
                    {error}
                  </p>
                ) : null}
              </li>
            );
          })}
        </ul>
      ) : null}
      <div>
        <button type="button" className="btn btn-small" onClick={() => onChange([...rows, { key: '', value: '' }])}>
          Add a header
        </button>
      </div>
    </fieldset>
  );
}
