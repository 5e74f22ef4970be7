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

/**
 * A query given as a JSON object (an MCP tool's arguments) as the content API would receive it:
 * written as a query string and read back with parseQueryString, so numbers and booleans become the
 * strings a URL carries and every later check is the one REST's requests meet.
 */
export function queryOfObject(value: Record<string, unknown>): Record<string, unknown> {
  return parseQueryString(qs.stringify(value, { strictNullHandling: true }));
}
