import { useState, type FormEvent } from 'react';
import type { QueryValue } from '../../api/query';
import type { Attribute } from '../../api/schema';

/** One filter condition on a field. */
export interface FilterRule {
  readonly field: string;
  readonly operator: string;
  readonly value: string;
}

const TEXT_OPS = [
  ['$containsi', 'contains'],
  ['$notContainsi', 'does not contain'],
  ['$eqi', 'is'],
  ['$nei', 'is not'],
  ['$startsWithi', 'starts with'],
  ['$endsWithi', 'ends with'],
  ['$null', 'is empty'],
  ['$notNull', 'is not empty'],
] as const;
const VALUE_OPS = [
  ['$eq', 'is'],
  ['$ne', 'is not'],
  ['$gt', 'is greater than'],
  ['$gte', 'is at least'],
  ['$lt', 'is less than'],
  ['$lte', 'is at most'],
  ['$null', 'is empty'],
  ['$notNull', 'is not empty'],
] as const;
const NO_VALUE = new Set(['$null', '$notNull']);

/** The operators a field type can be filtered with, as [operator, words]. */
export function operatorsFor(attribute: Attribute | undefined): readonly (readonly [string, string])[] {
  if (!attribute) return [];
  if (['string', 'text', 'email', 'uid', 'richtext'].includes(attribute.type)) return TEXT_OPS;
  if (attribute.type === 'boolean' || attribute.type === 'enumeration') return VALUE_OPS.filter(([op]) => op === '$eq' || op === '$ne' || NO_VALUE.has(op));
  return VALUE_OPS;
}

/** The filters of a list as Strapi's `filters` query (`$and` of each rule). */
export function filtersQuery(rules: readonly FilterRule[]): Record<string, QueryValue> | null {
  if (rules.length === 0) return null;
  return { $and: rules.map((r) => ({ [r.field]: { [r.operator]: NO_VALUE.has(r.operator) ? 'true' : r.value } })) };
}

function words(rule: FilterRule, attributes: Readonly<Record<string, Attribute>>): string {
  const op = operatorsFor(attributes[rule.field]).find(([o]) => o === rule.operator)?.[1] ?? rule.operator;
  return NO_VALUE.has(rule.operator) ? `${rule.field} ${op}` : `${rule.field} ${op} “${rule.value}”`;
}

/** Filter chips and a small form to add one. */
export function FiltersBar({ attributes, rules, onChange }: { readonly attributes: Readonly<Record<string, Attribute>>; readonly rules: readonly FilterRule[]; readonly onChange: (rules: FilterRule[]) => void }) {
  const fields = Object.entries(attributes).filter(([, a]) => operatorsFor(a).length > 0 && a.type !== 'password' && !a.private);
  const [adding, setAdding] = useState(false);
  const [draft, setDraft] = useState<FilterRule>({ field: fields[0]?.[0] ?? '', operator: '', value: '' });
  const ops = operatorsFor(attributes[draft.field]);
  const operator = ops.some(([o]) => o === draft.operator) ? draft.operator : (ops[0]?.[0] ?? '');
  const attribute = attributes[draft.field];
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!draft.field || !operator) return;
    onChange([...rules, { ...draft, operator }]);
    setAdding(false);
    setDraft({ ...draft, value: '' });
  };
  return (
    <div className="filters">
      {rules.length === 0 ? null : (
      <ul className="chips" aria-label="Active filters">
        {rules.map((r, i) => (
          <li key={`${r.field}${r.operator}${r.value}${i}`} className="chip">
            <span>{words(r, attributes)}</span>
            <button type="button" className="btn btn-ghost btn-icon btn-small" aria-label={`Remove filter ${words(r, attributes)}`} onClick={() => onChange(rules.filter((_, j) => j !== i))}>
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
          <select id="filter-field" value={draft.field} onChange={(e) => setDraft({ ...draft, field: e.target.value })}>
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
          {NO_VALUE.has(operator) ? null : attribute?.type === 'enumeration' || attribute?.type === 'boolean' ? (
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
          ) : (
            <>
              <label className="visually-hidden" htmlFor="filter-value">
                Filter value
              </label>
              <input id="filter-value" value={draft.value} onChange={(e) => setDraft({ ...draft, value: e.target.value })} data-autofocus />
            </>
          )}
          <button type="submit" className="btn btn-small btn-primary">
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
