import { FILE_UID } from '../schema/types.js';
import { documentRef, type ModelEnv } from './models.js';
import { errorResponses, paginationRef, type PathItem } from './responses.js';
import type { JsonSchema } from './schema-set.js';

/** The upload plugin's Content API actions (`plugin::upload.content-api.*`), as upload-api.ts checks them. */
const UPLOAD_ACTION = {
  find: 'plugin::upload.content-api.find',
  findOne: 'plugin::upload.content-api.findOne',
  upload: 'plugin::upload.content-api.upload',
  destroy: 'plugin::upload.content-api.destroy',
} as const;

const FILE_ID: JsonSchema = { name: 'id', in: 'path', required: true, schema: { type: 'integer' } };
const tags = ['Upload'];

const LIST_PARAMETERS: JsonSchema[] = [
  {
    name: 'filters',
    in: 'query',
    style: 'deepObject',
    explode: true,
    description: 'Filters on file attributes, as `filters[mime][$contains]=image`.',
    schema: { type: 'object', additionalProperties: true },
  },
  {
    name: 'sort',
    in: 'query',
    style: 'form',
    explode: false,
    description: 'Sort order, as `sort=createdAt:desc`.',
    schema: { type: 'array', items: { type: 'string' } },
  },
  { name: 'start', in: 'query', description: 'Files to skip.', schema: { type: 'integer', minimum: 0 } },
  { name: 'limit', in: 'query', description: 'Most files to answer (-1: all).', schema: { type: 'integer' } },
];

/** `pagination[page]` / `pagination[pageSize]` (or `start` / `limit`) of `/api/upload/files/page`. */
const PAGINATION: JsonSchema = {
  name: 'pagination',
  in: 'query',
  style: 'deepObject',
  explode: true,
  description: 'By page (`pagination[page]=2&pagination[pageSize]=10`) or by offset (`pagination[start]`, `pagination[limit]`).',
  schema: {
    type: 'object',
    properties: { page: { type: 'integer', minimum: 1 }, pageSize: { type: 'integer', minimum: 1 }, start: { type: 'integer', minimum: 0 }, limit: { type: 'integer' } },
  },
};

/** `multipart/form-data` of an upload: the files, their info, and what they are attached to. */
const UPLOAD_FORM: JsonSchema = {
  type: 'object',
  properties: {
    files: { type: 'array', items: { type: 'string', contentMediaType: 'application/octet-stream' } },
    fileInfo: { type: 'string', description: 'JSON `{ name, alternativeText, caption }` (a list of them for several files)' },
    ref: { type: 'string', description: 'Uid of the type to attach the files to (`api::article.article`)' },
    refId: { type: 'string', description: 'Id of the entry to attach them to' },
    field: { type: 'string', description: 'Its media attribute' },
    path: { type: 'string', description: 'A folder prefix (object storage)' },
  },
};

/** The upload endpoints the caller may call (`POST /api/upload`, `GET /api/upload/files`, `GET`/`DELETE /api/upload/files/{id}`). */
export function uploadPaths(env: ModelEnv & { readonly canCall: (action: string) => boolean }): Record<string, PathItem> {
  const model = env.registry.model(FILE_UID);
  if (!model || model.modelType !== 'contentType') return {};
  const file = documentRef(env, model);
  const errors = () => errorResponses(env.set);
  const one = (description: string) => ({ description, content: { 'application/json': { schema: file } } });
  const many = (description: string) => ({ description, content: { 'application/json': { schema: { type: 'array', items: file } } } });
  const out: Record<string, PathItem> = {};
  if (env.canCall(UPLOAD_ACTION.upload)) {
    out['/api/upload'] = {
      post: {
        tags,
        operationId: 'uploadFiles',
        summary: 'Upload files (or, with `id`, replace one file or update its info)',
        parameters: [{ name: 'id', in: 'query', description: 'A file to replace, or whose info to update', schema: { type: 'integer' } }],
        requestBody: { required: true, content: { 'multipart/form-data': { schema: UPLOAD_FORM } } },
        responses: { 200: one('The replaced or updated file'), 201: many('The uploaded files'), ...errors() },
      },
    };
  }
  if (env.canCall(UPLOAD_ACTION.find)) {
    out['/api/upload/files'] = {
      get: { tags, operationId: 'findFiles', summary: 'List files', parameters: LIST_PARAMETERS, responses: { 200: many('Files (a bare list)'), ...errors() } },
    };
    const page: JsonSchema = {
      type: 'object',
      required: ['data', 'meta'],
      properties: { data: { type: 'array', items: file }, meta: { type: 'object', required: ['pagination'], properties: { pagination: paginationRef(env.set) } } },
    };
    out['/api/upload/files/page'] = {
      get: {
        tags,
        operationId: 'findFilesPage',
        summary: 'List files a page at a time, with the total (Hearth; Strapi has only the bare list)',
        parameters: [...LIST_PARAMETERS.slice(0, 2), PAGINATION],
        responses: { 200: { description: 'A page of files', content: { 'application/json': { schema: page } } }, ...errors() },
      },
    };
  }
  const item: PathItem = {};
  if (env.canCall(UPLOAD_ACTION.findOne))
    item.get = { tags, operationId: 'findOneFile', summary: 'Get a file', parameters: [FILE_ID], responses: { 200: one('The file'), ...errors() } };
  if (env.canCall(UPLOAD_ACTION.destroy))
    item.delete = {
      tags,
      operationId: 'deleteFile',
      summary: 'Delete a file',
      parameters: [FILE_ID],
      responses: { 200: one('The deleted file'), ...errors() },
    };
  if (item.get || item.delete) out['/api/upload/files/{id}'] = item;
  return out;
}
