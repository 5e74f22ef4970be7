import type { Caller } from '../auth/caller.js';
import type { Registry } from '../schema/registry.js';
import { MCP_MAX_PAGE_SIZE } from '../limits.js';
import type { Args, McpContext, McpTransportKind, ToolAnswer } from './context.js';
import { deleteDocument, documentAction, findDocuments, getDocument, writeDocument } from './documents.js';
import { FILE_ACTIONS, findFiles, uploadFile } from './files.js';
import { apiId, dataDescription, typesAllowing, type ContentAction } from './model-info.js';
import { getContentType, listContentTypes } from './type-tools.js';

/** A tool as `tools/list` shows it. */
export interface ToolDefinition {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: { type: 'object'; properties: Record<string, unknown>; required?: string[]; additionalProperties?: boolean };
  readonly annotations?: Record<string, unknown>;
}

type Run = (ctx: McpContext, args: Args) => Promise<ToolAnswer>;

/** What building the tool list reads. */
interface ListEnv {
  readonly registry: Registry;
  readonly caller: Caller;
  readonly transport: McpTransportKind;
  readonly destructive: boolean;
}

const schema = (properties: Record<string, unknown>, required: string[] = []): ToolDefinition['inputSchema'] => ({
  type: 'object',
  properties,
  ...(required.length > 0 ? { required } : {}),
  additionalProperties: false,
});

/** `contentType`: the uids and API ids of the types the caller may perform the action on. */
function contentTypeArg(env: ListEnv, action: ContentAction): Record<string, unknown> {
  const types = typesAllowing(env.registry, env.caller, action);
  return {
    type: 'string',
    description: 'A content type: its uid (api::article.article) or its API id (articles; a single type: its singular id)',
    enum: [...new Set(types.flatMap((m) => [m.uid, apiId(m)]))],
  };
}

const QUERY = {
  filters: { type: 'object', description: 'Strapi filters, e.g. {"title":{"$containsi":"news"},"category":{"name":{"$eq":"Tech"}}}; operators $eq $ne $lt $lte $gt $gte $in $notIn $contains $containsi $startsWith $endsWith $null $notNull $between $and $or $not' },
  sort: { description: 'e.g. "title:asc" or ["publishedAt:desc","title"]', anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] },
  fields: { description: 'Attributes to answer, e.g. ["title","slug"] (documentId always comes)', anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] },
  populate: { description: 'Relations, media, components to include: "*", ["category","cover"] or {"category":{"fields":["name"]}}', anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }, { type: 'object' }] },
  status: { type: 'string', enum: ['draft', 'published'], description: 'Which version to read (default: published)' },
  locale: { type: 'string', description: 'A locale code such as en or fr (default: the default locale); "*" for all' },
};
const PAGINATION = {
  type: 'object',
  description: `{"page":1,"pageSize":25} or {"start":0,"limit":25}; at most ${MCP_MAX_PAGE_SIZE} per call. meta.pagination in the answer says whether there is more (page < pageCount), and the result's _meta.more gives the next pagination to send.`,
  properties: { page: { type: 'integer', minimum: 1 }, pageSize: { type: 'integer', minimum: 1, maximum: MCP_MAX_PAGE_SIZE }, start: { type: 'integer', minimum: 0 }, limit: { type: 'integer', minimum: 1, maximum: MCP_MAX_PAGE_SIZE } },
};
const DOCUMENT_ID = { type: 'string', description: "The document's documentId (not needed for a single type)" };
const WRITE_STATUS = { type: 'string', enum: ['draft', 'published'], description: 'draft (default) saves the draft only; published also publishes it' };
const LOCALE = { type: 'string', description: 'A locale code (default: the default locale)' };
const FILE_INFO = { type: 'object', description: 'Optional {"name","alternativeText","caption"}', properties: { name: { type: 'string' }, alternativeText: { type: 'string' }, caption: { type: 'string' } } };

/** Every tool: its definition for this caller (null: not listed) and what it runs. */
const TOOLS: readonly { readonly define: (env: ListEnv) => ToolDefinition | null; readonly run: Run }[] = [
  {
    define: () => ({ name: 'list_content_types', description: 'Lists the content types and components you may see: uid, kind, API id, locales, draft & publish. Start here.', inputSchema: schema({}), annotations: { readOnlyHint: true } }),
    run: listContentTypes,
  },
  {
    define: () => ({
      name: 'get_content_type',
      description: "One content type's or component's attributes (types, required, relations' targets), as its schema.json writes them.",
      inputSchema: schema({ contentType: { type: 'string', description: 'A uid (api::article.article, or a component uid such as shared.seo) or an API id (articles)' } }, ['contentType']),
      annotations: { readOnlyHint: true },
    }),
    run: getContentType,
  },
  {
    define: (env) =>
      typesAllowing(env.registry, env.caller, 'find').length === 0
        ? null
        : {
            name: 'find_documents',
            description: "Finds documents with Strapi's REST query language; answers exactly what GET /api/:pluralApiId answers ({ data, meta.pagination }).",
            inputSchema: schema({ contentType: contentTypeArg(env, 'find'), ...QUERY, pagination: PAGINATION }, ['contentType']),
            annotations: { readOnlyHint: true },
          },
    run: findDocuments,
  },
  {
    define: (env) =>
      typesAllowing(env.registry, env.caller, 'findOne').length === 0
        ? null
        : {
            name: 'get_document',
            description: 'Reads one document by documentId; answers what GET /api/:pluralApiId/:documentId answers ({ data, meta }).',
            inputSchema: schema({ contentType: contentTypeArg(env, 'findOne'), documentId: DOCUMENT_ID, fields: QUERY.fields, populate: QUERY.populate, status: QUERY.status, locale: QUERY.locale }, ['contentType']),
            annotations: { readOnlyHint: true },
          },
    run: getDocument,
  },
  ...(['create', 'update'] as const).map((kind) => ({
    define: (env: ListEnv): ToolDefinition | null => {
      const types = typesAllowing(env.registry, env.caller, kind);
      if (types.length === 0) return null;
      const what = kind === 'create' ? 'Creates a document' : 'Updates a document (only the fields given change)';
      return {
        name: `${kind}_document`,
        description: `${what}; saves a draft unless status is "published". Answers { data, meta } as the REST API does. Relations take documentIds, media take file ids (see find_files, upload_file). Types you may ${kind}:\n${types.map(dataDescription).join('\n')}`,
        inputSchema: schema(
          {
            contentType: contentTypeArg(env, kind),
            ...(kind === 'update' ? { documentId: DOCUMENT_ID } : {}),
            data: { type: 'object', description: "The document's fields (see this tool's description for each type's fields and an example)" },
            status: WRITE_STATUS,
            locale: LOCALE,
          },
          ['contentType', 'data'],
        ),
      };
    },
    run: (ctx: McpContext, args: Args) => writeDocument(ctx, args, kind),
  })),
  ...(
    [
      ['publish_document', 'publish', 'Publishes the draft of one locale (the published version becomes the draft); answers the published version.'],
      ['unpublish_document', 'unpublish', 'Unpublishes one locale (the draft stays); answers the draft.'],
      ['discard_draft', 'discardDraft', 'Resets the draft of one locale to its published version; answers the draft.'],
    ] as const
  ).map(([name, action, description]) => ({
    define: (env: ListEnv): ToolDefinition | null => {
      const types = typesAllowing(env.registry, env.caller, 'update').filter((m) => m.draftAndPublish);
      if (types.length === 0) return null;
      const contentType = { ...contentTypeArg(env, 'update'), enum: [...new Set(types.flatMap((m) => [m.uid, apiId(m)]))] };
      return { name, description, inputSchema: schema({ contentType, documentId: DOCUMENT_ID, locale: LOCALE }, ['contentType']) };
    },
    run: (ctx: McpContext, args: Args) => documentAction(ctx, args, action),
  })),
  {
    define: (env) =>
      !env.destructive || typesAllowing(env.registry, env.caller, 'delete').length === 0
        ? null
        : {
            name: 'delete_document',
            description: 'Deletes a document in one locale (every version: draft and published). Cannot be undone.',
            inputSchema: schema({ contentType: contentTypeArg(env, 'delete'), documentId: DOCUMENT_ID, locale: LOCALE }, ['contentType']),
            annotations: { destructiveHint: true },
          },
    run: deleteDocument,
  },
  {
    define: (env) =>
      !env.caller.allows(FILE_ACTIONS.find)
        ? null
        : {
            name: 'find_files',
            description: 'Lists media library files (id, name, url, mime, size, formats); answers { data, meta.pagination } as GET /api/upload/files/page does.',
            inputSchema: schema({ filters: QUERY.filters, sort: QUERY.sort, pagination: PAGINATION }),
            annotations: { readOnlyHint: true },
          },
    run: findFiles,
  },
  {
    define: (env) =>
      !env.caller.allows(FILE_ACTIONS.upload)
        ? null
        : {
            name: 'upload_file',
            description:
              env.transport === 'stdio'
                ? 'Uploads one file to the media library, from a local path, or from name and base64 bytes; answers { data: [file] }. Use the file id in a media field.'
                : 'Uploads one file to the media library from its name and base64 bytes; answers { data: [file] }. Use the file id in a media field.',
            inputSchema: schema({
              ...(env.transport === 'stdio' ? { path: { type: 'string', description: 'A local file path' } } : {}),
              name: { type: 'string', description: 'The file name, e.g. photo.jpg' },
              base64: { type: 'string', description: "The file's bytes, base64" },
              fileInfo: FILE_INFO,
            }),
          },
    run: uploadFile,
  },
];

/** The tools this caller sees now. */
export function listTools(env: ListEnv): ToolDefinition[] {
  return TOOLS.map((t) => t.define(env)).filter((d): d is ToolDefinition => d !== null);
}

/** The tool of this name the caller sees now, with what it runs (undefined: unknown or not the caller's). */
export function findTool(env: ListEnv, name: string): Run | undefined {
  return TOOLS.find((t) => t.define(env)?.name === name)?.run;
}

/** Every tool name this server has, listed or not. */
export const TOOL_NAMES: readonly string[] = [
  'list_content_types',
  'get_content_type',
  'find_documents',
  'get_document',
  'create_document',
  'update_document',
  'publish_document',
  'unpublish_document',
  'discard_draft',
  'delete_document',
  'find_files',
  'upload_file',
];
