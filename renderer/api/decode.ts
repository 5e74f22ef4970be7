/** A function that checks an unknown value and returns it typed, or throws a DecodeError naming the path. */
export type Decoder<T> = (value: unknown, path?: string) => T;

/** The server answered with something the UI did not expect. */
export class DecodeError extends Error {
  override readonly name = 'DecodeError';
}

const fail = (path: string, expected: string, value: unknown): never => {
  throw new DecodeError(`Unexpected answer from the server: ${path || 'value'} should be ${expected}, got ${JSON.stringify(value) ?? 'undefined'}`);
};

/** True for plain objects (not arrays, not null). */
export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Any string. */
export const str: Decoder<string> = (v, p = '') => (typeof v === 'string' ? v : fail(p, 'a string', v));
/** Any finite number (numeric strings are accepted: some databases return them). */
export const num: Decoder<number> = (v, p = '') => {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  return fail(p, 'a number', v);
};
/** A boolean (0/1 from SQLite are accepted). */
export const bool: Decoder<boolean> = (v, p = '') => {
  if (typeof v === 'boolean') return v;
  if (v === 0 || v === 1) return v === 1;
  return fail(p, 'a boolean', v);
};
/** Anything, kept as unknown. */
export const unknownValue: Decoder<unknown> = (v) => v;
/** A plain object with unknown values. */
export const record: Decoder<Record<string, unknown>> = (v, p = '') => (isRecord(v) ? v : fail(p, 'an object', v));

/** `null` (or a missing value) or what `inner` accepts. */
export const nullable =
  <T>(inner: Decoder<T>): Decoder<T | null> =>
  (v, p = '') =>
    v === null || v === undefined ? null : inner(v, p);

/** A missing value, or what `inner` accepts. */
export const optional =
  <T>(inner: Decoder<T>): Decoder<T | undefined> =>
  (v, p = '') =>
    v === undefined || v === null ? undefined : inner(v, p);

/** An array of what `inner` accepts. */
export const array =
  <T>(inner: Decoder<T>): Decoder<T[]> =>
  (v, p = '') =>
    Array.isArray(v) ? v.map((item, i) => inner(item, `${p}[${i}]`)) : fail(p, 'an array', v);

/** One of the given string literals. */
export const oneOf =
  <T extends string>(values: readonly T[]): Decoder<T> =>
  (v, p = '') => {
    const found = values.find((candidate) => candidate === v);
    return found ?? fail(p, `one of ${values.join(', ')}`, v);
  };

/** An object with the given fields (other fields are dropped). */
export const object =
  <T>(shape: { [K in keyof T]: Decoder<T[K]> }): Decoder<T> =>
  (v, p = '') => {
    const source = record(v, p);
    const out: Partial<T> = {};
    for (const key of Object.keys(shape) as (keyof T & string)[]) {
      out[key] = shape[key](source[key], p ? `${p}.${key}` : key);
    }
    // Every key of the shape was decoded above, so the object is complete.
    return out as T;
  };

/** `{ data }` envelope: the decoded `data`. */
export const dataOf =
  <T>(inner: Decoder<T>): Decoder<T> =>
  (v) =>
    inner(record(v, 'body').data, 'data');
