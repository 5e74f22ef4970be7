import * as yup from 'yup';

/**
 * yup's messages are Strapi's messages (Strapi validates with yup 0.32). Strapi's locale drops yup's
 * "If null is intended..." hint from type errors; everything else is yup's own wording.
 */
function printValue(value: unknown, quoteStrings: boolean): string {
  const simple = (v: unknown, quote: boolean): string | null => {
    if (v == null || v === true || v === false) return String(v);
    if (typeof v === 'number') return v !== +v ? 'NaN' : v === 0 && 1 / v < 0 ? '-0' : String(v);
    if (typeof v === 'string') return quote ? `"${v}"` : v;
    if (typeof v === 'function') return `[Function ${(v as { name?: string }).name || 'anonymous'}]`;
    if (typeof v === 'symbol') return v.toString().replace(/^Symbol\((.*)\)(.*)$/, 'Symbol($1)');
    if (v instanceof Date) return Number.isNaN(v.getTime()) ? String(v) : v.toISOString();
    if (v instanceof Error) return `[${v.toString()}]`;
    if (v instanceof RegExp) return v.toString();
    return null;
  };
  const result = simple(value, quoteStrings);
  if (result !== null) return result;
  return JSON.stringify(
    value,
    function replacer(this: unknown, key: string, v: unknown) {
      const r = simple((this as Record<string, unknown>)[key], quoteStrings);
      return r !== null ? r : v;
    },
    2,
  );
}

let installed = false;

/** Installs Strapi's variant of yup's type-error message, once per process. */
export function installYupLocale(): void {
  if (installed) return;
  installed = true;
  yup.setLocale({
    mixed: {
      notType: ({ path, type, value, originalValue }: { path: string; type: string; value: unknown; originalValue: unknown }) => {
        const isCast = originalValue != null && originalValue !== value;
        return (
          `${path} must be a \`${type}\` type, but the final value was: \`${printValue(value, true)}\`` +
          (isCast ? ` (cast from the value \`${printValue(originalValue, true)}\`).` : '.')
        );
      },
    },
  });
}

export { yup };
