import { validationError } from '../errors/app-error.js';
import type { Model } from '../schema/types.js';
import type { Parsed } from './check.js';
import { checkFieldKeys, fieldKeys } from './check-sort.js';

/**
 * `fields`: a comma string or a list of scalar field names; `*` (or absent) means every field.
 * `id` (and `documentId` on content types) are always selected, first, as Strapi does.
 */

const INVALID_FIELDS = 'Invalid fields parameter. Expected a string or an array of strings';

/** A comma string, or a list of them: the shapes the converter reads (Strapi's validator reads more). */
const readable = (raw: unknown): boolean => typeof raw === 'string' || (Array.isArray(raw) && raw.every((v) => typeof v === 'string'));

/** The selected names, `id` (and `documentId`) first, each once. */
function selected(names: readonly string[], model: Model): string[] {
  const always = model.modelType === 'contentType' ? ['id', 'documentId'] : ['id'];
  return [...new Set([...always, ...names.filter((n) => n !== '')])];
}

/**
 * The `fields` parameter of a query, validated and converted from one reading of its keys:
 * Strapi's `Invalid key` 400 is thrown at once; a shape the converter does not read is returned
 * as the error to throw once every parameter is validated.
 */
export function parseFields(raw: unknown, model: Model): Parsed<string[] | null> {
  if (raw === undefined || raw === null || raw === '*') return { ok: true, value: null };
  const keys = fieldKeys(raw);
  // An empty `fields` is not validated (Strapi skips empty parameters); it selects the ids only.
  if (raw !== '') checkFieldKeys(keys, model);
  if (!readable(raw)) return { ok: false, error: validationError(INVALID_FIELDS) };
  return { ok: true, value: selected(keys, model) };
}

/** `fields` converted without Strapi's validator passes (a populate's fields, an unvalidated single-type write). */
export function convertFields(raw: unknown, model: Model): string[] | null {
  if (raw === undefined || raw === null || raw === '*') return null;
  if (!readable(raw)) throw validationError(INVALID_FIELDS);
  return selected(fieldKeys(raw), model);
}
