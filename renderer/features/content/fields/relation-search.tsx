import { useEffect, useId, useState, type KeyboardEvent } from 'react';
import { describeError } from '../../../api/errors';
import { isLocalized } from '../../../api/schema';
import { useClient } from '../../auth/session';
import { useSchemas } from '../../content-types/schemas-context';
import { listDocuments } from '../content-api';
import { mainField, relationItem, type RelationItem } from '../form-values';
import { RelationStatus } from './relation-status';

/** Props of the relation search box. */
export interface RelationSearchProps {
  readonly target: string;
  readonly label: string;
  readonly exclude: readonly string[];
  readonly locale: string | null;
  readonly onPick: (item: RelationItem) => void;
  readonly describedBy?: string | undefined;
  /** The empty box's prompt (a list filter picks rather than adds). */
  readonly placeholder?: string;
}

/** A combobox that searches the related type (`_q`) and adds the chosen entry; arrows move, Enter picks, Escape closes. */
export function RelationSearch({ target, label, exclude, locale, onPick, describedBy, placeholder = 'Search to add…' }: RelationSearchProps) {
  const client = useClient();
  const schemas = useSchemas();
  const targetType = schemas.contentType(target);
  const labelField = mainField(targetType?.schema);
  const listId = useId();
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const [results, setResults] = useState<RelationItem[]>([]);
  const [active, setActive] = useState(0);
  const [state, setState] = useState<'idle' | 'loading' | 'error'>('idle');
  const [error, setError] = useState('');
  const localized = targetType ? isLocalized(targetType.schema) : false;
  const excludeKey = exclude.join('|');

  useEffect(() => {
    if (!open) return;
    let live = true;
    setState('loading');
    const timer = window.setTimeout(() => {
      listDocuments(client, target, { page: 1, pageSize: 10, sort: '', q: text, filters: null, locale: localized ? locale : null })
        .then((page) => {
          if (!live) return;
          setResults(page.items.map((e) => relationItem(e.values, labelField)).filter((r): r is RelationItem => r !== null && !excludeKey.split('|').includes(r.documentId)));
          setActive(0);
          setState('idle');
        })
        .catch((e: unknown) => {
          if (!live) return;
          setError(describeError(e));
          setState('error');
        });
    }, 200);
    return () => {
      live = false;
      window.clearTimeout(timer);
    };
    // The excluded ids are compared by value: a new array with the same ids must not search again.
  }, [open, text, target, locale, client, labelField, localized, excludeKey]);

  const pick = (item: RelationItem | undefined) => {
    if (!item) return;
    onPick(item);
    setText('');
    setOpen(false);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown') {
      event.preventDefault();
      setOpen(true);
      setActive((a) => Math.min(a + 1, results.length - 1));
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      setActive((a) => Math.max(a - 1, 0));
    } else if (event.key === 'Enter') {
      // Never submit the form from the search box.
      event.preventDefault();
      if (open && results.length > 0) pick(results[active]);
    } else if (event.key === 'Escape' && open) {
      event.preventDefault();
      event.stopPropagation();
      setOpen(false);
    }
  };
  const optionId = (i: number) => `${listId}-option-${i}`;

  return (
    <div className="combobox">
      <input
        type="text"
        role="combobox"
        aria-label={label}
        aria-expanded={open}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={open && results[active] ? optionId(active) : undefined}
        aria-describedby={describedBy}
        placeholder={placeholder}
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          setOpen(true);
        }}
        onFocus={() => setOpen(true)}
        onBlur={() => setOpen(false)}
        onKeyDown={onKeyDown}
      />
      {open ? (
        <ul id={listId} role="listbox" className="combobox-list" aria-label={`${label} results`}>
          {state === 'loading' && results.length === 0 ? <li className="combobox-note">Searching…</li> : null}
          {state === 'error' ? <li className="combobox-note">{error}</li> : null}
          {state === 'idle' && results.length === 0 ? <li className="combobox-note">No matching entries.</li> : null}
          {results.map((r, i) => (
            <li
              key={r.documentId}
              id={optionId(i)}
              role="option"
              aria-selected={i === active}
              aria-label={r.label}
              aria-describedby={r.status ? `${optionId(i)}-status` : undefined}
              className={i === active ? 'combobox-option active' : 'combobox-option'}
              onMouseDown={(e) => {
                e.preventDefault();
                pick(r);
              }}
            >
              {r.label}
              <RelationStatus target={target} status={r.status} id={`${optionId(i)}-status`} />
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
