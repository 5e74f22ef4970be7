/** Where Hearth runs, as the admin API's /information reports it. */
export interface ServerPlace {
  readonly serverUrl: string;
  readonly dataDir: string;
  readonly schemasDir: string | null;
  /** This install's CLI by absolute paths (never `npx hearth`: the npm package of that name is another project). */
  readonly cli: { readonly command: string; readonly args: readonly string[]; readonly env: Readonly<Record<string, string>> };
}

/** How the assistant reaches Hearth: it starts `hearth mcp` itself, or it calls the running server's /mcp. */
export type Transport = 'stdio' | 'http';

/** One assistant's configuration: which client, which file, and its text. */
export interface AssistantSnippet {
  readonly client: 'claude' | 'cursor' | 'vscode';
  readonly label: string;
  /** Where the text goes, for the person pasting it. */
  readonly where: string;
  readonly text: string;
}

/** The path of the running server's MCP endpoint (server/mcp). */
export const MCP_PATH = '/mcp';
/** The name the assistant knows Hearth's server by. */
const SERVER_NAME = 'hearth';
const CLAUDE_FILE = 'claude_desktop_config.json (Claude Desktop: Settings → Developer → Edit Config)';
const CURSOR_FILE = '.cursor/mcp.json in your project, or ~/.cursor/mcp.json for every project';
const VSCODE_FILE = '.vscode/mcp.json in your workspace';

/** The MCP endpoint's URL on the running server. */
export function mcpUrl(place: ServerPlace): string {
  return `${place.serverUrl.replace(/\/+$/, '')}${MCP_PATH}`;
}

/** The arguments of `hearth mcp` (after the CLI's own) for this data dir (and schemas folder) as the token's caller. */
export function stdioArgs({ place, token }: { readonly place: ServerPlace; readonly token: string }): string[] {
  return [...place.cli.args, 'mcp', '--data', place.dataDir, ...(place.schemasDir ? ['--schemas', place.schemasDir] : []), '--token', token];
}

/** The command an assistant starts: this install's CLI, with its environment when it needs one (the desktop app's binary run as Node). */
function stdioServer(place: ServerPlace, token: string): Record<string, unknown> {
  const env = place.cli.env;
  return { command: place.cli.command, args: stdioArgs({ place, token }), ...(Object.keys(env).length > 0 ? { env } : {}) };
}

/** True when a URL is plain http to another machine: mcp-remote refuses those without --allow-http. */
function remotePlainHttp(url: string): boolean {
  const { protocol, hostname } = new URL(url);
  return protocol === 'http:' && !['localhost', '127.0.0.1', '[::1]'].includes(hostname);
}

/** JSON with two-space indents, lists kept on one line (argument lists stay readable). */
function json(value: unknown, indent = ''): string {
  if (Array.isArray(value)) return `[${value.map((v) => json(v, indent)).join(', ')}]`;
  if (typeof value !== 'object' || value === null) return JSON.stringify(value);
  const inner = `${indent}  `;
  const lines = Object.entries(value).map(([k, v]) => `${inner}${JSON.stringify(k)}: ${json(v, inner)}`);
  return lines.length === 0 ? '{}' : `{\n${lines.join(',\n')}\n${indent}}`;
}

/** The configuration of each assistant (Claude Desktop, Cursor, VS Code) for one transport. */
export function assistantSnippets({
  place,
  token,
  transport,
}: {
  readonly place: ServerPlace;
  readonly token: string;
  readonly transport: Transport;
}): AssistantSnippet[] {
  if (transport === 'stdio') {
    const server = stdioServer(place, token);
    return [
      { client: 'claude', label: 'Claude Desktop', where: CLAUDE_FILE, text: json({ mcpServers: { [SERVER_NAME]: server } }) },
      { client: 'cursor', label: 'Cursor', where: CURSOR_FILE, text: json({ mcpServers: { [SERVER_NAME]: server } }) },
      { client: 'vscode', label: 'VS Code', where: VSCODE_FILE, text: json({ servers: { [SERVER_NAME]: { type: 'stdio', ...server } } }) },
    ];
  }
  const url = mcpUrl(place);
  const headers = { Authorization: `Bearer ${token}` };
  // Claude Desktop starts local commands only: mcp-remote bridges it to /mcp. The header's value
  // goes through an environment variable because some clients split arguments at spaces.
  const remote = {
    command: 'npx',
    args: ['mcp-remote', url, '--header', 'Authorization:${AUTH_HEADER}', ...(remotePlainHttp(url) ? ['--allow-http'] : [])],
    env: { AUTH_HEADER: headers.Authorization },
  };
  return [
    { client: 'claude', label: 'Claude Desktop', where: CLAUDE_FILE, text: json({ mcpServers: { [SERVER_NAME]: remote } }) },
    { client: 'cursor', label: 'Cursor', where: CURSOR_FILE, text: json({ mcpServers: { [SERVER_NAME]: { url, headers } } }) },
    { client: 'vscode', label: 'VS Code', where: VSCODE_FILE, text: json({ servers: { [SERVER_NAME]: { type: 'http', url, headers } } }) },
  ];
}
