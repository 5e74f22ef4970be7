import qs from 'qs';
import { QS_ARRAY_LIMIT, QS_DEPTH, QS_PARAMETER_LIMIT } from '../limits.js';

/**
 * The one qs configuration of Hearth, Strapi's (`strictNullHandling`, `arrayLimit: 100`,
 * `depth: 20`), with prototype keys refused and null-prototype objects.
 */
export function parseQueryString(raw: string): Record<string, unknown> {
  return qs.parse(raw, {
    strictNullHandling: true,
    arrayLimit: QS_ARRAY_LIMIT,
    depth: QS_DEPTH,
    parameterLimit: QS_PARAMETER_LIMIT,
    allowPrototypes: false,
    plainObjects: true,
  }) as Record<string, unknown>;
}

/** The query-string part of a request URL. */
export function rawQuery(url: string): string {
  const at = url.indexOf('?');
  return at === -1 ? '' : url.slice(at + 1);
}
