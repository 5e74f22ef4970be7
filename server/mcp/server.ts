import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { packageInfo } from '../admin/package-info.js';
import { rerunOnSchemaRace } from '../admin/schema-race.js';
import { forbidden, notFound } from '../errors/app-error.js';
import { errorAnswer, type McpContext } from './context.js';
import { listResources, readResource, RESOURCE_TEMPLATES } from './resources.js';
import { findTool, listTools, TOOL_NAMES } from './tools.js';

const INSTRUCTIONS =
  "Hearth is a local headless CMS that answers Strapi 5's REST API. Call list_content_types first, then get_content_type for a type's fields. " +
  'find_documents and get_document answer exactly what the REST API answers; create_document and update_document save drafts unless status is "published". ' +
  'Lists are paged: when meta.pagination.page < pageCount, ask again with the next page.';

/**
 * One MCP server for one caller (a stdio process, or one HTTP session): the tools and resources
 * that caller may use, answered through the document service as the REST API answers them.
 * `tools/list_changed` and `resources/list_changed` are sent after every schema change.
 */
export function createMcpServer(ctx: McpContext): Server {
  const log = ctx.services.log;
  const server = new Server(
    { name: 'hearth', version: packageInfo().version },
    { capabilities: { tools: { listChanged: true }, resources: { listChanged: true } }, instructions: INSTRUCTIONS },
  );
  const listEnv = async () => ({ registry: ctx.services.registry(), caller: await ctx.caller(), transport: ctx.transport, destructive: ctx.destructive });

  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: listTools(await listEnv()) }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const { name } = request.params;
    try {
      // Team mode: a call racing a schema change made on another instance runs again under the new schemas, unless it wrote.
      return await rerunOnSchemaRace(ctx.services.schemas, async () => {
        const run = findTool(await listEnv(), name);
        if (run === undefined) throw TOOL_NAMES.includes(name) ? forbidden() : notFound(`Unknown tool "${name}"`);
        return run(ctx, request.params.arguments ?? {});
      });
    } catch (err) {
      return errorAnswer(err, log);
    }
  });
  server.setRequestHandler(ListResourcesRequestSchema, async () => ({ resources: await listResources(ctx) }));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({ resourceTemplates: RESOURCE_TEMPLATES }));
  server.setRequestHandler(ReadResourceRequestSchema, (request) => readResource(ctx, request.params.uri, log));

  const unsubscribe = ctx.services.schemas.onChange(() => {
    // A client that has gone stays subscribed until its close; a failed send is not the change's failure.
    server.sendToolListChanged().catch(() => undefined);
    server.sendResourceListChanged().catch(() => undefined);
  });
  const previous = server.onclose;
  server.onclose = () => {
    unsubscribe();
    previous?.();
  };
  return server;
}
