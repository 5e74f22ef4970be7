/** A value a query string can carry, nested as Strapi's qs expects (`filters[title][$containsi]=x`). */
export type QueryValue = string | number | boolean | null | undefined | readonly QueryValue[] | { readonly [key: string]: QueryValue };

function append(params: URLSearchParams, key: string, value: QueryValue): void {
  if (value === undefined || value === null || value === '') return;
  if (Array.isArray(value)) {
    value.forEach((item: QueryValue, i: number) => append(params, `${key}[${i}]`, item));
    return;
  }
  if (typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) append(params, `${key}[${k}]`, v);
    return;
  }
  params.append(key, String(value));
}

/** Encodes nested query parameters with bracket notation; empty values are left out. */
export function toQueryString(query: Readonly<Record<string, QueryValue>>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) append(params, key, value);
  const text = params.toString();
  return text ? `?${text}` : '';
}
