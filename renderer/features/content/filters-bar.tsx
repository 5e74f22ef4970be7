import { useState, type FormEvent } from 'react';
import type { Attribute } from '../../api/schema';
import { RelationSearch } from './fields/relation-search';
import { operatorsFor, ruleWords, takesNoValue, type FilterRule } from './filter-operators';

/** Props of the filters bar. */
export interface FiltersBarProps {
  readonly attributes: Readonly<Record<string, Attribute>>;
  readonly rules: readonly FilterRule[];
  readonly onChange: (rules: FilterRule[]) => void;
  /** The list's locale: a relation's entries are searched in it. */
  readonly locale?: string | null;
}

const inputType = (attribute: Attribute | undefined) =>
  attribute?.type === 'integer' || attribute?.type === 'float' || attribute?.type === 'decimal' ? 'number' : attribute?.type === 'date' ? 'date' : 'text';

/** The value control of a new filter: an entry picker on relations, a choice on booleans and enumerations, else text. */
function ValueControl({ attribute, draft, setDraft, locale }: { readonly attribute: Attribute | undefined; readonly draft: FilterRule; readonly setDraft: (rule: FilterRule) => void; readonly locale: string | null }) {
  if (attribute?.type === 'relation') {
    if (draft.value !== '') {
      return (
        <span className="chip" data-testid="filter-picked">
          <span>{draft.label ?? draft.value}</span>
          <button type="button" className="btn btn-ghost btn-small" onClick={() => setDraft({ field: draft.field, operator: draft.operator, value: '' })}>
            Change
          </button>
        </span>
      );
    }
    return <RelationSearch target={attribute.target ?? ''} label="Filter value" placeholder="Search an entry…" exclude={[]} locale={locale} onPick={(item) => setDraft({ ...draft, value: item.documentId, label: item.label })} />;
  }
  if (attribute?.type === 'enumeration' || attribute?.type === 'boolean') {
    return (
      <>
        <label className="visually-hidden" htmlFor="filter-value">
          Filter value
        </label>
        <select id="filter-value" value={draft.value} onChange={(e) => setDraft({ ...draft, value: e.target.value })}>
          <option value="">Choose…</option>
          {(attribute.type === 'boolean' ? ['true', 'false'] : (attribute.enum ?? [])).map((v) => (
            <option key={v} value={v}>
              {v}
            </option>
          ))}
        </select>
      </>
    );
  }
  return (
    <>
      <label className="visually-hidden" htmlFor="filter-value">
        Filter value
      </label>
      <input id="filter-value" type={inputType(attribute)} step="any" value={draft.value} onChange={(e) => setDraft({ ...draft, value: e.target.value })} data-autofocus />
    </>
  );
}

/** Filter chips and a small form to add one. */
export function FiltersBar({ attributes, rules, onChange, locale = null }: FiltersBarProps) {
  const fields = Object.entries(attributes).filter(([, a]) => operatorsFor(a).length > 0);
  const [adding, setAdding] = useState(false);
  const [draft, setDraft] = useState<FilterRule>({ field: fields[0]?.[0] ?? '', operator: '', value: '' });
  const ops = operatorsFor(attributes[draft.field]);
  const operator = ops.some(([o]) => o === draft.operator) ? draft.operator : (ops[0]?.[0] ?? '');
  const attribute = attributes[draft.field];
  const ready = draft.field !== '' && operator !== '' && (takesNoValue(operator) || draft.value !== '');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!ready) return;
    const rule: FilterRule = takesNoValue(operator) ? { field: draft.field, operator, value: '' } : { ...draft, operator };
    onChange([...rules, rule]);
    setAdding(false);
    setDraft({ field: draft.field, operator, value: '' });
  };
  return (
    <div className="filters">
      {rules.length === 0 ? null : (
      <ul className="chips" aria-label="Active filters">
        {rules.map((r, i) => (
          <li key={`${r.field}${r.operator}${r.value}${i}`} className="chip">
            <span>{ruleWords(r, attributes)}</span>
            <button type="button" className="btn btn-ghost btn-icon btn-small" aria-label={`Remove filter ${ruleWords(r, attributes)}`} onClick={() => onChange(rules.filter((_, j) => j !== i))}>
              <span aria-hidden="true">×</span>
            </button>
          </li>
        ))}
      </ul>
      )}
      {adding ? (
        <form className="filter-form" onSubmit={submit} aria-label="New filter">
          <label className="visually-hidden" htmlFor="filter-field">
            Filter field
          </label>
          <select id="filter-field" value={draft.field} onChange={(e) => setDraft({ field: e.target.value, operator: '', value: '' })}>
            {fields.map(([name]) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
          <label className="visually-hidden" htmlFor="filter-operator">
            Condition
          </label>
          <select id="filter-operator" value={operator} onChange={(e) => setDraft({ ...draft, operator: e.target.value })}>
            {ops.map(([o, w]) => (
              <option key={o} value={o}>
                {w}
              </option>
            ))}
          </select>
          {takesNoValue(operator) ? null : <ValueControl attribute={attribute} draft={draft} setDraft={setDraft} locale={locale} />}
          <button type="submit" className="btn btn-small btn-primary" disabled={!ready}>
            Apply filter
          </button>
          <button type="button" className="btn btn-small btn-ghost" onClick={() => setAdding(false)}>
            Cancel
          </button>
        </form>
      ) : (
        <button type="button" className="btn btn-small" onClick={() => setAdding(true)} disabled={fields.length === 0}>
          Add filter
        </button>
      )}
    </div>
  );
}
