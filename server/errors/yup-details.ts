import type { ValidationError } from 'yup';

/** One entry of a failed validation's `details.errors`, as Strapi's `formatYupErrors` prints it. */
export interface YupErrorEntry {
  readonly path: string[];
  readonly message: string;
  readonly name: 'ValidationError';
  readonly value?: unknown;
}

/** The message and `details` Strapi gives a failed yup validation (`N errors occurred` past one). */
export function yupDetails(error: ValidationError, fallback = 'Validation error'): { message: string; details: { errors: YupErrorEntry[] } } {
  const inner = error.inner.length > 0 ? error.inner : [error];
  const errors = inner.map((e): YupErrorEntry => {
    const path = e.path ? e.path.replace(/\[(\w+)\]/g, '.$1').split('.').filter((p) => p !== '') : [];
    return e.value !== undefined ? { path, message: e.message, name: 'ValidationError', value: e.value } : { path, message: e.message, name: 'ValidationError' };
  });
  const message = errors.length > 1 ? `${errors.length} errors occurred` : (errors[0]?.message ?? fallback);
  return { message, details: { errors } };
}
