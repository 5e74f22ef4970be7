import { useSearchParams } from 'react-router';
import { isLocalized } from '../../api/schema';
import type { ContentType } from '../../api/types';
import { useSchemas } from '../content-types/schemas-context';

/** The locale of the screen from `?locale=`, defaulting to the default locale (null for types without i18n). */
export function useLocaleParam(type: ContentType | undefined): [string | null, (locale: string) => void] {
  const [params, setParams] = useSearchParams();
  const { locales } = useSchemas();
  const localized = type ? isLocalized(type.schema) : false;
  const fallback = locales.find((l) => l.isDefault)?.code ?? locales[0]?.code ?? 'en';
  const locale = localized ? (params.get('locale') ?? fallback) : null;
  const set = (next: string) => {
    const copy = new URLSearchParams(params);
    copy.set('locale', next);
    copy.delete('page');
    setParams(copy, { replace: true });
  };
  return [locale, set];
}

/** A labelled select of the configured locales. */
export function LocaleSelect({ id, value, onChange, label = 'Locale', marks }: { readonly id: string; readonly value: string | null; readonly onChange: (code: string) => void; readonly label?: string; readonly marks?: ReadonlyMap<string, string> }) {
  const { locales } = useSchemas();
  return (
    <div className="toolbar-item">
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value ?? ''} onChange={(e) => onChange(e.target.value)}>
        {locales.map((l) => (
          <option key={l.code} value={l.code}>
            {l.name.includes(l.code) ? l.name : `${l.name} (${l.code})`}{marks?.get(l.code) ? ` · ${marks.get(l.code)}` : ''}
          </option>
        ))}
      </select>
    </div>
  );
}
