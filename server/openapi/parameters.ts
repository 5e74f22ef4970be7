import { COMPARISON_OPERATORS } from '../query/ast.js';
import type { ContentTypeModel } from '../schema/types.js';
import type { JsonSchema, SchemaSet } from './schema-set.js';

/** The page sizes a list uses (`api.rest.defaultLimit` / `maxLimit`; null: no cap). */
export interface PageLimits {
  readonly defaultLimit: number;
  readonly maxLimit: number | null;
}

/** Attributes `fields` and `sort` may name: public scalars and the system timestamps. */
function scalarNames(model: ContentTypeModel): string[] {
  const names = [...model.attributes.values()].filter((a) => a.kind === 'scalar' && !a.private && a.type !== 'password').map((a) => a.name);
  return [...names, 'createdAt', 'updatedAt', 'publishedAt', ...(model.localized ? ['locale'] : [])];
}

/** Attributes `populate` may name: relations, media, components, dynamic zones and morph relations. */
const populatable = (model: ContentTypeModel): string[] => [
  ...[...model.attributes.values()].filter((a) => a.kind !== 'scalar' && !a.private).map((a) => a.name),
  ...[...(model.morphs?.values() ?? [])].filter((m) => m.raw.private !== true).map((m) => m.name),
];

/** `{ $eq: ..., $in: [...], ... }`: Strapi's comparison operators. */
const OPERATORS: JsonSchema = {
  type: 'object',
  description: 'Comparison operators ($eq, $containsi, $in, $between, $null, ...); $and / $or / $not combine conditions',
  properties: Object.fromEntries([
    ...COMPARISON_OPERATORS.map((op) => [op, {}]),
    ['$and', { type: 'array' }],
    ['$or', { type: 'array' }],
    ['$not', { type: 'object', additionalProperties: true }],
  ]),
};

function filtersParameter(set: SchemaSet, model: ContentTypeModel): JsonSchema {
  const operators = set.ref('FilterOperators', () => OPERATORS);
  const byField = Object.fromEntries(
    ['id', 'documentId', ...scalarNames(model)].map((name) => [name, { anyOf: [{ type: ['string', 'number', 'boolean'] }, operators] }]),
  );
  return {
    name: 'filters',
    in: 'query',
    style: 'deepObject',
    explode: true,
    description:
      'Filters, as `filters[title][$containsi]=hello` or `filters[category][name][$eq]=News`. Relations filter on their attributes; `$and`, `$or` and `$not` combine. Unknown fields or operators answer 400.',
    schema: {
      type: 'object',
      properties: {
        ...byField,
        $and: { type: 'array', items: { type: 'object', additionalProperties: true } },
        $or: { type: 'array', items: { type: 'object', additionalProperties: true } },
        $not: { type: 'object', additionalProperties: true },
      },
      additionalProperties: true,
    },
  };
}

function populateParameter(model: ContentTypeModel): JsonSchema {
  const names = populatable(model);
  const nested: JsonSchema = {
    anyOf: [
      { type: 'boolean' },
      {
        type: 'object',
        properties: {
          fields: { type: 'array', items: { type: 'string' } },
          populate: {},
          filters: { type: 'object', additionalProperties: true },
          sort: {},
          on: { type: 'object', additionalProperties: true },
        },
      },
    ],
  };
  return {
    name: 'populate',
    in: 'query',
    style: 'deepObject',
    explode: true,
    description: `Relations, media, components and dynamic zones to include: \`*\` (one level), a comma list, or \`populate[name][fields][0]=...\` for nested levels.${names.length > 0 ? ` Populatable here: ${names.join(', ')}.` : ''}`,
    schema: {
      anyOf: [
        { type: 'string', examples: ['*', names.join(',')] },
        { type: 'array', items: names.length > 0 ? { type: 'string', enum: names } : { type: 'string' } },
        { type: 'object', properties: Object.fromEntries(names.map((n) => [n, nested])) },
      ],
    },
  };
}

const fieldsParameter = (model: ContentTypeModel): JsonSchema => ({
  name: 'fields',
  in: 'query',
  style: 'form',
  explode: false,
  description: 'The attributes to answer (id and documentId always are), as `fields=title,slug` or `fields[0]=title`.',
  schema: { type: 'array', items: { type: 'string', enum: scalarNames(model) } },
});

const SORT: JsonSchema = {
  name: 'sort',
  in: 'query',
  style: 'form',
  explode: false,
  description: 'Sort order, as `sort=title:asc,createdAt:desc` or `sort[0]=title`; a relation attribute sorts as `category.name:asc`.',
  schema: { type: 'array', items: { type: 'string', pattern: '^[A-Za-z0-9_.]+(:(asc|desc|ASC|DESC))?$' } },
};

function paginationParameter(limits: PageLimits): JsonSchema {
  const cap = limits.maxLimit === null ? '' : ` (at most ${limits.maxLimit})`;
  return {
    name: 'pagination',
    in: 'query',
    style: 'deepObject',
    explode: true,
    description: `By page (\`pagination[page]=2&pagination[pageSize]=10\`) or by offset (\`pagination[start]=20&pagination[limit]=10\`), not both. Default page size ${limits.defaultLimit}${cap}.`,
    schema: {
      type: 'object',
      properties: {
        page: { type: 'integer', minimum: 1 },
        pageSize: { type: 'integer', minimum: 1, default: limits.defaultLimit },
        start: { type: 'integer', minimum: 0 },
        limit: { type: 'integer', description: '-1: every entry (up to the cap)' },
        withCount: { type: 'boolean', default: true, description: 'false: no total in meta.pagination' },
      },
    },
  };
}

/** `status` on draft & publish types, `locale` on localized ones. */
function versionParameters(model: ContentTypeModel): JsonSchema[] {
  const out: JsonSchema[] = [];
  if (model.draftAndPublish) {
    out.push({
      name: 'status',
      in: 'query',
      description: 'Which version: published (the default) or draft.',
      schema: { type: 'string', enum: ['published', 'draft'], default: 'published' },
    });
  }
  if (model.localized) {
    out.push({ name: 'locale', in: 'query', description: "The locale's code (the default locale when absent).", schema: { type: 'string', examples: ['en'] } });
  }
  return out;
}

/** The query parameters of a list (`find`). */
export const listParameters = (set: SchemaSet, model: ContentTypeModel, limits: PageLimits): JsonSchema[] => [
  filtersParameter(set, model),
  populateParameter(model),
  fieldsParameter(model),
  SORT,
  paginationParameter(limits),
  ...versionParameters(model),
];

/** The query parameters of a read, create or update of one document. */
export const oneParameters = (model: ContentTypeModel): JsonSchema[] => [populateParameter(model), fieldsParameter(model), ...versionParameters(model)];

/** The query parameters of a delete. */
export const deleteParameters = (model: ContentTypeModel): JsonSchema[] => versionParameters(model);
