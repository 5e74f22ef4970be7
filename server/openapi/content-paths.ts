import type { ContentTypeModel } from '../schema/types.js';
import { documentRef, inputRef, routeSegment, schemaName, type ModelEnv } from './models.js';
import { deleteParameters, listParameters, oneParameters, type PageLimits } from './parameters.js';
import { errorResponses, paginationRef, type Operation, type PathItem } from './responses.js';
import { pascal, type JsonSchema } from './schema-set.js';

/** The content API's actions, as permissions name them (`api::article.article.find`). */
export type ContentAction = 'find' | 'findOne' | 'create' | 'update' | 'delete';

/** What describing a type's routes needs, beyond the models: which actions the caller may call. */
export interface PathEnv extends ModelEnv {
  readonly canCall: (action: string) => boolean;
  readonly limits: PageLimits;
}

const json = (schema: JsonSchema): JsonSchema => ({ 'application/json': { schema } });

function answer(env: PathEnv, model: ContentTypeModel, description: string): JsonSchema {
  const name = `${schemaName(model)}Response`;
  const schema = env.set.ref(name, () => ({
    type: 'object',
    required: ['data', 'meta'],
    properties: { data: documentRef(env, model), meta: { type: 'object', additionalProperties: true } },
  }));
  return { description, content: json(schema) };
}

function listAnswer(env: PathEnv, model: ContentTypeModel): JsonSchema {
  const name = `${schemaName(model)}ListResponse`;
  const schema = env.set.ref(name, () => ({
    type: 'object',
    required: ['data', 'meta'],
    properties: {
      data: { type: 'array', items: documentRef(env, model) },
      meta: { type: 'object', required: ['pagination'], properties: { pagination: paginationRef(env.set) } },
    },
  }));
  return { description: `A page of ${model.displayName} documents`, content: json(schema) };
}

function requestBody(env: PathEnv, model: ContentTypeModel): JsonSchema {
  const name = `${schemaName(model)}Request`;
  const schema = env.set.ref(name, () => ({ type: 'object', required: ['data'], properties: { data: inputRef(env, model) } }));
  return { required: true, content: json(schema) };
}

const DOCUMENT_ID: JsonSchema = { name: 'documentId', in: 'path', required: true, schema: { type: 'string' } };

/** The operations of one content type the caller may call, keyed by path then method (as content-api.ts routes them). */
export function contentPaths(env: PathEnv, model: ContentTypeModel): Record<string, PathItem> {
  const may = (action: ContentAction) => env.canCall(`${model.uid}.${action}`);
  const name = pascal(model.singularName);
  const tags = [model.displayName];
  // Built only when kept, so a dropped operation's schemas never enter the document.
  const op = (action: ContentAction, operation: () => Omit<Operation, 'tags'>): Entry => [action, () => ({ tags, ...operation() })];
  const remove = (parameters: JsonSchema[]) =>
    op('delete', () => ({
      operationId: `delete${name}`,
      summary: `Delete ${model.displayName}`,
      parameters,
      responses: { 204: { description: 'Deleted' }, ...errorResponses(env.set) },
    }));
  const base = `/api/${routeSegment(model)}`;
  if (model.kind === 'singleType') {
    return pathItems(
      {
        [base]: [
          op('find', () => ({
            operationId: `get${name}`,
            summary: `Get ${model.displayName}`,
            parameters: oneParameters(model),
            responses: { 200: answer(env, model, model.displayName), ...errorResponses(env.set) },
          })),
          op('update', () => ({
            operationId: `update${name}`,
            summary: `Create or update ${model.displayName}`,
            parameters: oneParameters(model),
            requestBody: requestBody(env, model),
            responses: { 200: answer(env, model, 'Written'), ...errorResponses(env.set) },
          })),
          remove(deleteParameters(model)),
        ],
      },
      may,
    );
  }
  const plural = pascal(model.pluralName);
  return pathItems(
    {
      [base]: [
        op('find', () => ({
          operationId: `find${plural}`,
          summary: `List ${model.displayName} documents`,
          parameters: listParameters(env.set, model, env.limits),
          responses: { 200: listAnswer(env, model), ...errorResponses(env.set) },
        })),
        op('create', () => ({
          operationId: `create${name}`,
          summary: `Create a ${model.displayName}`,
          parameters: oneParameters(model),
          requestBody: requestBody(env, model),
          responses: { 201: answer(env, model, 'Created'), ...errorResponses(env.set) },
        })),
      ],
      [`${base}/{documentId}`]: [
        op('findOne', () => ({
          operationId: `findOne${name}`,
          summary: `Get a ${model.displayName}`,
          parameters: [DOCUMENT_ID, ...oneParameters(model)],
          responses: { 200: answer(env, model, model.displayName), ...errorResponses(env.set) },
        })),
        op('update', () => ({
          operationId: `update${name}`,
          summary: `Update a ${model.displayName}`,
          parameters: [DOCUMENT_ID, ...oneParameters(model)],
          requestBody: requestBody(env, model),
          responses: { 200: answer(env, model, 'Updated'), ...errorResponses(env.set) },
        })),
        remove([DOCUMENT_ID, ...deleteParameters(model)]),
      ],
    },
    may,
  );
}

/** An operation of a type's routes, built on demand. */
type Entry = [ContentAction, () => Operation];

const METHOD: Record<ContentAction, keyof PathItem> = { find: 'get', findOne: 'get', create: 'post', update: 'put', delete: 'delete' };

/** Keeps the operations the caller may call, and the paths left with one. */
function pathItems(paths: Record<string, Entry[]>, may: (action: ContentAction) => boolean): Record<string, PathItem> {
  const out: Record<string, PathItem> = {};
  for (const [path, operations] of Object.entries(paths)) {
    const item: PathItem = {};
    for (const [action, operation] of operations) if (may(action)) item[METHOD[action]] = operation();
    if (Object.keys(item).length > 0) out[path] = item;
  }
  return out;
}
