import { validationError } from '../errors/app-error.js';
import { isLocaleCode } from './locale-code.js';
import { PUBLICATION_FILTERS, type LocaleSelection, type PublicationFilter } from './ast.js';
import { textOf } from './coerce.js';

/** Root query keys the content API accepts (Strapi's ALLOWED_QUERY_PARAM_KEYS, strictParams on). */
export const ALLOWED_QUERY_KEYS = new Set([
  'filters',
  'sort',
  'fields',
  'populate',
  'status',
  'locale',
  'page',
  'pageSize',
  'start',
  'limit',
  '_q',
  'publicationFilter',
  'hasPublishedVersion',
  'pagination',
  'count',
  'ordering',
]);

const isEmpty = (v: unknown) => v === undefined || v === null || v === '';

/** `status`: `draft` or `published`, default published (REST's default). */
export function parseStatus(raw: unknown): 'draft' | 'published' {
  if (isEmpty(raw)) return 'published';
  if (raw !== 'published' && raw !== 'draft') {
    throw validationError(`Invalid parameter at 'status'. Expected 'published' or 'draft', received: ${textOf(raw)}`);
  }
  return raw;
}

function checkLocaleCode(value: unknown, at: string): string {
  if (typeof value !== 'string') {
    throw validationError(`Invalid parameter at '${at}'. Expected a string, received: ${typeof value}`, { received: value });
  }
  if (value === '*') return value;
  let reason: string | undefined;
  if (value.length === 0) reason = 'Locale cannot be empty';
  else if (value.length > 35) reason = 'Locale exceeds maximum length of 35 characters';
  else if (!isLocaleCode(value)) reason = 'Locale must be a valid BCP 47 format (e.g. en, en-US, zh-Hans)';
  if (reason) throw validationError(`Invalid parameter at '${at}'. ${reason}.`);
  return value;
}

/** `locale`: one code, `*`, or a list; null when absent (the default locale applies). */
export function parseLocale(raw: unknown): LocaleSelection | null {
  if (isEmpty(raw)) return null;
  if (Array.isArray(raw)) {
    const codes = raw.filter((v): v is string => typeof v === 'string' && v !== '');
    if (codes.length === 0) return null;
    const checked = codes.map((code, i) => checkLocaleCode(code, `locale[${i}]`));
    return checked.includes('*') ? { kind: 'all' } : { kind: 'list', codes: checked };
  }
  if (typeof raw === 'object') {
    throw validationError(
      "Invalid parameter at 'locale'. Expected a string, array of strings, empty string, null, or undefined; received: object",
      { received: raw },
    );
  }
  const code = checkLocaleCode(raw, 'locale');
  return code === '*' ? { kind: 'all' } : { kind: 'one', code };
}

/** `publicationFilter` (and the deprecated `hasPublishedVersion`, which maps onto it). */
export function parsePublicationFilter(raw: unknown, hasPublishedVersion: unknown): PublicationFilter | null {
  if (!isEmpty(raw)) {
    if (typeof raw !== 'string' || !(PUBLICATION_FILTERS as readonly string[]).includes(raw)) {
      throw validationError(
        `Invalid value for 'publicationFilter'. Expected one of: ${PUBLICATION_FILTERS.join(', ')}.`,
        { source: 'query', param: 'publicationFilter' },
      );
    }
    return raw as PublicationFilter;
  }
  if (isEmpty(hasPublishedVersion)) return null;
  if (hasPublishedVersion === true || hasPublishedVersion === 'true') return 'has-published-version';
  if (hasPublishedVersion === false || hasPublishedVersion === 'false') return 'never-published';
  throw validationError("Invalid value for 'hasPublishedVersion'. Expected true or false.", {
    source: 'query',
    param: 'hasPublishedVersion',
  });
}
