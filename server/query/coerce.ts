/**
 * Coercions of query-string values as Strapi's own code sees them. Hearth's qs objects have a
 * null prototype (no prototype pollution), so `String(obj)` and `Number(obj)` would throw a
 * TypeError (a 500) where Strapi's ordinary objects print as `[object Object]` and count as NaN.
 */

/** `String(value)` for any qs value: objects print as `[object Object]`, arrays join their items. */
export function textOf(value: unknown): string {
  if (Array.isArray(value)) return value.map((v: unknown) => (v === null || v === undefined ? '' : textOf(v))).join(',');
  if (typeof value === 'object' && value !== null) return '[object Object]';
  return String(value);
}

/** `Number(value)` for any qs value: objects are NaN, arrays convert through their text. */
export function numberOf(value: unknown): number {
  return typeof value === 'object' && value !== null ? Number(textOf(value)) : Number(value);
}
