import type { DocumentQuery } from './ast.js';
import { convertFields } from './fields.js';
import { unwrap } from './check.js';
import { parsePopulate } from './populate.js';
import { buildQuery, checkParams, type ParsedParts, type QueryEnv } from './read-query.js';
import { lookupField } from '../schema/fields.js';
import type { ContentTypeModel } from '../schema/types.js';

type Raw = Record<string, unknown>;

/** Whether `fields` has a shape convertFields reads: absent, `*`, a comma string, or a list of strings. */
const readableFields = (raw: unknown): boolean =>
  raw === undefined || raw === null || typeof raw === 'string' || (Array.isArray(raw) && raw.every((v) => typeof v === 'string'));

/**
 * The response-shaping part of a query that was not validated (single-type writes, as in Strapi).
 * A `fields` of another shape (an object, nested lists) is ignored: every field is answered, as
 * Strapi answers it; names that are not scalar attributes are dropped.
 */
function lenientQuery(raw: Raw, model: ContentTypeModel, env: QueryEnv): DocumentQuery {
  const params = checkParams(raw, false);
  const fields = readableFields(raw.fields) ? convertFields(raw.fields, model) : null;
  return {
    fields: fields?.filter((f) => lookupField(model, f)?.kind === 'scalar') ?? null,
    filters: null,
    sort: [],
    // Not validated, as in Strapi, but what the populate reaches is still the caller's to read.
    populate: unwrap(parsePopulate(raw.populate, { model, registry: env.registry, canRead: env.canRead }, 'lenient')),
    status: params.status,
    locale: params.locale,
    publicationFilter: null,
    search: null,
  };
}

/** The query of a write or delete: what validateQuery parsed for collection types (`parts`), lenient for single types. */
export function writeQuery(raw: Raw, model: ContentTypeModel, env: QueryEnv, parts: ParsedParts | null): DocumentQuery {
  return parts === null ? lenientQuery(raw, model, env) : buildQuery(raw, model, env, checkParams(raw, false), parts);
}
