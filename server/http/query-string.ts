export { parseQueryString } from '../query/query-string.js';

/** The query-string part of a request URL. */
export function rawQuery(url: string): string {
  const at = url.indexOf('?');
  return at === -1 ? '' : url.slice(at + 1);
}
