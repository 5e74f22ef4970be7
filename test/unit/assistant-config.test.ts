import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// renderer/ has its own tsconfig: loaded by path, with the signatures the test uses.
interface ServerPlace {
  serverUrl: string;
  dataDir: string;
  schemasDir: string | null;
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
    const place = { serverUrl: 'http://127.0.0.1:1337', dataDir: 'C:\\Users\\ada\\Hearth "data"', schemasDir: null };
    const snippets = byClient(config.assistantSnippets({ place, token: 'a"b\\c', transport: 'stdio' }));
    const local = { command: 'npx', args: ['hearth', 'mcp', '--data', 'C:\\Users\\ada\\Hearth "data"', '--token', 'a"b\\c'] };
    expect(snippets).toEqual({
      claude: { mcpServers: { hearth: local } },
      cursor: { mcpServers: { hearth: local } },
      vscode: { servers: { hearth: { type: 'stdio', ...local } } },
    });
  });

  it('points HTTP clients at /mcp once, and lets mcp-remote use plain http only to another machine with --allow-http', () => {
    const local = { serverUrl: 'http://localhost:1337/', dataDir: '/d', schemasDir: '/s' };
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
