import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/** An SDK client connected to a running server's `/mcp` with a bearer. */
export async function httpClient(url: string, token: string, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'hearth-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${token}`, ...headers } } });
  await client.connect(transport);
  return client;
}

/** Calls a tool and answers its result, checking the one-text-item shape every answer has. */
export async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<CallToolResult & { structuredContent: Record<string, unknown> }> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const [item] = result.content;
  if (result.content.length !== 1 || item?.type !== 'text') throw new Error(`${name}: expected one text item, got ${JSON.stringify(result.content)}`);
  if (JSON.stringify(JSON.parse(item.text)) !== JSON.stringify(result.structuredContent)) throw new Error(`${name}: the text item and structuredContent differ`);
  return result as CallToolResult & { structuredContent: Record<string, unknown> };
}

/** The names of the tools a client sees. */
export async function toolNames(client: Client): Promise<string[]> {
  return (await client.listTools()).tools.map((t) => t.name).sort();
}
