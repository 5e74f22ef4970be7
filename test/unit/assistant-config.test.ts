import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// renderer/ has its own tsconfig: loaded by path, with the signatures the test uses.
interface ServerPlace {
  serverUrl: string;
  dataDir: string;
  schemasDir: string | null;
  cli: { command: string; args: string[]; env: Record<string, string> };
}
interface Snippet {
  client: string;
  text: string;
}
interface AssistantConfig {
  assistantSnippets(args: { place: ServerPlace; token: string; transport: 'stdio' | 'http' }): Snippet[];
  mcpUrl(place: ServerPlace): string;
}
const config = (await import(resolve(import.meta.dirname, '../../renderer/features/assistant/assistant-config.ts'))) as AssistantConfig;

const byClient = (snippets: Snippet[]) => Object.fromEntries(snippets.map((s) => [s.client, JSON.parse(s.text) as unknown]));

describe('AI assistant configuration snippets', () => {
  it('writes Windows paths and any token as valid JSON, without --schemas when there is no schemas folder', () => {
    const cli = { command: 'C:\\Program Files\\nodejs\\node.exe', args: ['C:\\hearth\\bin\\hearth.js'], env: {} };
    const place = { serverUrl: 'http://127.0.0.1:1337', dataDir: 'C:\\Users\\ada\\Hearth "data"', schemasDir: null, cli };
    const snippets = byClient(config.assistantSnippets({ place, token: 'a"b\\c', transport: 'stdio' }));
    // This install's CLI by absolute path: `npx hearth` would fetch another project's package of that name.
    const local = { command: cli.command, args: ['C:\\hearth\\bin\\hearth.js', 'mcp', '--data', 'C:\\Users\\ada\\Hearth "data"', '--token', 'a"b\\c'] };
    expect(snippets).toEqual({
      claude: { mcpServers: { hearth: local } },
      cursor: { mcpServers: { hearth: local } },
      vscode: { servers: { hearth: { type: 'stdio', ...local } } },
    });
  });

  it("runs the desktop app's own binary as Node, with its environment", () => {
    const cli = { command: '/Applications/Hearth.app/Contents/MacOS/Hearth', args: ['/Applications/Hearth.app/Contents/Resources/app.asar/bin/hearth.js'], env: { ELECTRON_RUN_AS_NODE: '1' } };
    const place = { serverUrl: 'http://127.0.0.1:1337', dataDir: '/Users/ada/Library/Application Support/Hearth', schemasDir: null, cli };
    const snippets = byClient(config.assistantSnippets({ place, token: 't', transport: 'stdio' }));
    expect(snippets.cursor).toEqual({ mcpServers: { hearth: { command: cli.command, args: [...cli.args, 'mcp', '--data', place.dataDir, '--token', 't'], env: cli.env } } });
  });

  it('points HTTP clients at /mcp once, and lets mcp-remote use plain http only to another machine with --allow-http', () => {
    const local = { serverUrl: 'http://localhost:1337/', dataDir: '/d', schemasDir: '/s', cli: { command: '/usr/bin/node', args: ['/opt/hearth/bin/hearth.js'], env: {} } };
    expect(config.mcpUrl(local)).toBe('http://localhost:1337/mcp');
    const remoteArgs = (serverUrl: string) => {
      const claude = byClient(config.assistantSnippets({ place: { ...local, serverUrl }, token: 't', transport: 'http' })).claude as {
        mcpServers: { hearth: { args: string[] } };
      };
      return claude.mcpServers.hearth.args;
    };
    expect(remoteArgs('http://localhost:1337')).toEqual(['mcp-remote', 'http://localhost:1337/mcp', '--header', 'Authorization:${AUTH_HEADER}']);
    expect(remoteArgs('http://192.168.1.20:1337')).toContain('--allow-http');
    expect(remoteArgs('https://cms.example.com')).not.toContain('--allow-http');
  });
});
