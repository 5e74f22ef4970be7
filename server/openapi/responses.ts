import type { JsonSchema, SchemaSet } from './schema-set.js';

/** One operation of a path (OpenAPI's Operation Object, as Hearth fills it). */
export interface Operation {
  readonly tags: readonly string[];
  readonly operationId: string;
  readonly summary: string;
  readonly parameters?: readonly JsonSchema[];
  readonly requestBody?: JsonSchema;
  readonly responses: Readonly<Record<string, JsonSchema>>;
}

/** The operations of one path, by HTTP method. */
export type PathItem = { get?: Operation; post?: Operation; put?: Operation; delete?: Operation };

/** Strapi's error envelope: what every failed request answers. */
const ERROR: JsonSchema = {
  type: 'object',
  required: ['data', 'error'],
  properties: {
    data: { type: 'null' },
    error: {
      type: 'object',
      required: ['status', 'name', 'message', 'details'],
      properties: {
        status: { type: 'integer' },
        name: { type: 'string' },
        message: { type: 'string' },
        details: { type: 'object', additionalProperties: true },
      },
    },
  },
};

const FAILURES: Readonly<Record<string, string>> = {
  400: 'Invalid query or body (ValidationError naming the path)',
  401: 'Missing, invalid or expired credentials (UnauthorizedError)',
  403: 'The caller may not call this operation (ForbiddenError)',
  404: 'No such document (NotFoundError)',
};

/** `$ref` to Strapi's error envelope. */
export const errorRef = (set: SchemaSet): JsonSchema => set.ref('Error', () => ERROR);

/** The 400, 401, 403 and 404 answers, each Strapi's error envelope. */
export function errorResponses(set: SchemaSet): Record<string, JsonSchema> {
  const schema = errorRef(set);
  return Object.fromEntries(Object.entries(FAILURES).map(([status, description]) => [status, { description, content: { 'application/json': { schema } } }]));
}

/** `meta.pagination`: by page (`page, pageSize, pageCount, total`) or by offset (`start, limit, total`); no total with `withCount=false`. */
export function paginationRef(set: SchemaSet): JsonSchema {
  return set.ref('Pagination', () => ({
    anyOf: [
      {
        type: 'object',
        required: ['page', 'pageSize'],
        properties: { page: { type: 'integer' }, pageSize: { type: 'integer' }, pageCount: { type: 'integer' }, total: { type: 'integer' } },
      },
      { type: 'object', required: ['start', 'limit'], properties: { start: { type: 'integer' }, limit: { type: 'integer' }, total: { type: 'integer' } } },
    ],
  }));
}
