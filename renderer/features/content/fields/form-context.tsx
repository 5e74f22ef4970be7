import { createContext, useContext } from 'react';
import type { Attribute } from '../../../api/schema';
import type { ComponentLookup } from '../form-values';

/** What every field of an edit form needs: component schemas, field errors, the locale written. */
export interface FormContextValue {
  readonly lookup: ComponentLookup;
  readonly errors: ReadonlyMap<string, string>;
  readonly locale: string | null;
  /** Display names of components, for headings. */
  readonly componentName: (uid: string) => string;
}

/** The edit form's shared context. */
export const FormContext = createContext<FormContextValue>({ lookup: () => undefined, errors: new Map(), locale: null, componentName: (uid) => uid });

/** The current edit form's context. */
export function useFormContext(): FormContextValue {
  return useContext(FormContext);
}

/** Props every field control takes. */
export interface FieldControlProps {
  readonly name: string;
  readonly attribute: Attribute;
  readonly value: unknown;
  readonly onChange: (value: unknown) => void;
  /** Path of the field from the document root (`seo`, `blocks.0.text`): ids and error lookup. */
  readonly path: readonly string[];
  /** The values of the form holding this field (a uid field generates from a sibling). */
  readonly siblings: Readonly<Record<string, unknown>>;
}

/** A DOM id for a field path. */
export function fieldId(path: readonly string[]): string {
  return `field-${path.join('-').replace(/[^A-Za-z0-9_-]/g, '_')}`;
}

/** The error the server (or the form) gave for a path. */
export function errorAt(errors: ReadonlyMap<string, string>, path: readonly string[]): string | undefined {
  return errors.get(path.join('.'));
}

/** The error for a path or, for controls that hold a whole structure (blocks, JSON), the first one below it. */
export function errorWithin(errors: ReadonlyMap<string, string>, path: readonly string[]): string | undefined {
  const key = path.join('.');
  const exact = errors.get(key);
  if (exact !== undefined) return exact;
  for (const [at, message] of errors) if (at.startsWith(`${key}.`)) return `${message} (${at.slice(key.length + 1)})`;
  return undefined;
}
