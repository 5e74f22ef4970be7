import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { errorAnswer, type McpContext, type ToolAnswer } from './context.js';
import { getDocument } from './documents.js';
import { getContentType, visibleModels } from './type-tools.js';

/** Resource URIs: `hearth://<uid>` is a type's schema, `hearth://<uid>/<documentId>?locale=…&status=…` a document. */
const PREFIX = 'hearth://';

/** `resources/list`: each content type's schema the caller may see. */
export async function listResources(ctx: McpContext): Promise<{ uri: string; name: string; description: string; mimeType: string }[]> {
  const { types } = visibleModels(ctx.services.registry(), await ctx.caller());
  return types.map((m) => ({ uri: `${PREFIX}${m.uid}`, name: `${m.displayName} (schema)`, description: `The attributes of ${m.uid}`, mimeType: 'application/json' }));
}

/** `resources/templates/list`: documents by uid and documentId. */
export const RESOURCE_TEMPLATES = [
  {
    uriTemplate: `${PREFIX}{uid}/{documentId}{?locale,status}`,
    name: 'document',
    description: 'One document of a content type (as get_document answers it), e.g. hearth://api::article.article/abc123?locale=en',
    mimeType: 'application/json',
  },
];

/** What a tool answer reads as: its JSON text, or the error it carries as a JSON-RPC error. */
function textOf(answer: ToolAnswer): string {
  const text = answer.content[0]?.text ?? '';
  if (answer.isError) {
    const body = answer.structuredContent?.error as { message?: string } | undefined;
    throw new McpError(ErrorCode.InvalidParams, body?.message ?? 'Error', answer.structuredContent);
  }
  return text;
}

/** `resources/read`: a schema or a document, each read through the tool that answers it (same permissions). */
export async function readResource(ctx: McpContext, uri: string, log: (message: string) => void): Promise<{ contents: { uri: string; mimeType: string; text: string }[] }> {
  if (!uri.startsWith(PREFIX)) throw new McpError(ErrorCode.InvalidParams, `Unknown resource ${uri}`);
  const rest = uri.slice(PREFIX.length);
  const [path = '', search = ''] = rest.split('?', 2);
  const slash = path.indexOf('/');
  const attempt = async (run: () => Promise<ToolAnswer>) => {
    try {
      return await run();
    } catch (err) {
      return errorAnswer(err, log);
    }
  };
  let answer: ToolAnswer;
  if (slash === -1) answer = await attempt(() => getContentType(ctx, { contentType: decodeURIComponent(path) }));
  else {
    const params = new URLSearchParams(search);
    const args: Record<string, unknown> = { contentType: decodeURIComponent(path.slice(0, slash)), documentId: decodeURIComponent(path.slice(slash + 1)) };
    for (const name of ['locale', 'status']) {
      const value = params.get(name);
      if (value !== null) args[name] = value;
    }
    answer = await attempt(() => getDocument(ctx, args));
  }
  return { contents: [{ uri, mimeType: 'application/json', text: textOf(answer) }] };
}
