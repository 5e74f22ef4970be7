import { resolve } from 'node:path';
import qs from 'qs';
import { ROOT } from './server.js';

/** The Strapi project the bench seeds (recipe, cuisine, region, tag, page and their components). */
export const SCHEMAS = resolve(ROOT, 'bench/schema');
export const RESULTS = resolve(ROOT, 'bench/results');
export const SQL_TRACE = resolve(ROOT, 'bench/lib/sql-trace.mjs');
export const MiB = 1024 * 1024;

/** Scenario names the targets refer to. */
export const POPULATE_STAR = 'list, populate=*';
export const FILTER_SORT = 'filter + sort';
export const DEEP_POPULATE = 'deep populate';
export const MARKETING_PAGE = 'marketing page, dynamic zone';

/** Progress and diagnostics go to stderr; stdout carries the report only. */
export const log = (text: string): void => {
  process.stderr.write(`${text}\n`);
};

export const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] ?? NaN) : ((s[mid - 1] ?? NaN) + (s[mid] ?? NaN)) / 2;
};

/** Strapi's documented form (`qs.stringify(..., { encodeValuesOnly: true })`), keeping `*` and `:` readable. */
export const query = (params: Record<string, unknown>): string =>
  qs.stringify(params, { encodeValuesOnly: true }).replace(/%2A/g, '*').replace(/%3A/g, ':');

/** The sorted, filtered list (also the query of the scaling checkpoints). */
export const FILTER_SORT_QUERY = query({ filters: { prepMinutes: { $lte: 45 }, vegetarian: { $eq: true } }, sort: ['rating:desc'] });

/** The first line of an error, for one-line reports. */
export const messageOf = (err: unknown): string => (err instanceof Error ? err.message : String(err)).split('\n')[0] ?? '';
/** Other processes using more than this many cores make a measurement "noisy": it waits and repeats. */
export const NOISE_CORES = 0.2;
