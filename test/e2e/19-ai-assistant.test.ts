import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unlabelledControls } from './support/a11y.js';
import { AppNav, loginAsOwner } from './support/auth-pages.js';
import { data, dataList } from './support/api.js';
import { captureFailures, registerOwner, screenshot, startE2E, type E2E } from './support/harness.js';
import { TokensPage } from './support/tokens-page.js';
import { visible } from './support/wait.js';

const CLIENTS = ['claude', 'cursor', 'vscode'] as const;

/** The configuration text shown for one client, parsed. */
async function snippet(page: Page, client: (typeof CLIENTS)[number]): Promise<{ text: string; json: unknown }> {
  const text = await page.getByTestId(`assistant-code-${client}`).innerText();
  return { text, json: JSON.parse(text) };
}

describe('19. connect an AI assistant', () => {
  let e2e: E2E;
  let session: string;
  const status = async (path: string, token: string, method = 'GET') =>
    (await e2e.server.request(path, { method, token, ...(method === 'POST' ? { json: { data: { title: 'Nope' } } } : {}) })).status;

  beforeAll(async () => {
    e2e = await startE2E();
    session = await registerOwner(e2e.server);
  });
  afterAll(async () => {
    await e2e?.close();
  });
  captureFailures(() => e2e);

  it('creates a read-only token and shows the stdio and HTTP configuration of three assistants, with Copy', async () => {
    const { page, server } = e2e;
    await loginAsOwner(page);
    await new AppNav(page).go('Settings');
    await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Connect an AI assistant' }).click();
    await visible(page.getByRole('heading', { level: 1, name: 'Connect an AI assistant' }));
    expect(await unlabelledControls(page)).toEqual([]);
    await page.getByRole('radio', { name: 'Read-only' }).check();
    await page.getByRole('button', { name: 'Create token and show configuration' }).click();

    const field = await visible(page.getByTestId('token-plaintext'));
    const token = await field.inputValue();
    expect(token.length).toBeGreaterThan(20);
    await visible(page.getByText('Copy this token now. For your security it will not be shown again.'));
    expect(await page.getByTestId('assistant-grant').innerText()).toContain('can read every content type and file through token “AI assistant”');

    // stdio: the assistant starts this install's `hearth mcp` (absolute paths; `npx hearth` is another project on npm) on this data folder with the token.
    const { schemasDir } = await data(server, '/admin/api/information', { token: session });
    const cli = join(import.meta.dirname, '../../bin/hearth.js');
    const args = [cli, 'mcp', '--data', server.dataDir, ...(typeof schemasDir === 'string' ? ['--schemas', schemasDir] : []), '--token', token];
    const local = { command: process.execPath, args };
    expect((await snippet(page, 'claude')).json).toEqual({ mcpServers: { hearth: local } });
    expect((await snippet(page, 'cursor')).json).toEqual({ mcpServers: { hearth: local } });
    expect((await snippet(page, 'vscode')).json).toEqual({ servers: { hearth: { type: 'stdio', ...local } } });
    await page.getByRole('button', { name: 'Copy Cursor configuration' }).click();
    await visible(page.getByTestId('assistant-snippet-cursor').getByRole('button', { name: 'Copied' }));
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe((await snippet(page, 'cursor')).text);
    await page.evaluate('window.scrollTo(0, 0)');
    await screenshot(page, 'ai-assistant');

    // HTTP: the running server's /mcp with the token as a bearer.
    await page.getByRole('radio', { name: 'HTTP' }).check();
    expect(await unlabelledControls(page)).toEqual([]);
    const url = `${server.url}/mcp`;
    expect(await page.getByTestId('assistant-mcp-url').innerText()).toBe(url);
    const headers = { Authorization: `Bearer ${token}` };
    expect((await snippet(page, 'claude')).json).toEqual({
      mcpServers: {
        hearth: { command: 'npx', args: ['mcp-remote', url, '--header', 'Authorization:${AUTH_HEADER}'], env: { AUTH_HEADER: `Bearer ${token}` } },
      },
    });
    expect((await snippet(page, 'cursor')).json).toEqual({ mcpServers: { hearth: { url, headers } } });
    expect((await snippet(page, 'vscode')).json).toEqual({ servers: { hearth: { type: 'http', url, headers } } });
    for (const client of CLIENTS) {
      const { text } = await snippet(page, client);
      expect(text).toContain(token);
      expect(text).toContain(url);
    }
    await page.getByRole('button', { name: 'Copy VS Code configuration' }).click();
    await visible(page.getByTestId('assistant-snippet-vscode').getByRole('button', { name: 'Copied' }));
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe((await snippet(page, 'vscode')).text);

    // The token exists, read-only, and reads but does not write.
    const tokens = new TokensPage(page);
    await tokens.open();
    await visible(page.getByTestId('token-row-AI assistant').getByText('Read-only'));
    const list = await dataList(server, '/admin/api/api-tokens', { token: session });
    expect(list).toEqual([expect.objectContaining({ name: 'AI assistant', type: 'read-only' })]);
    expect(await status('/api/articles', token)).toBe(200);
    expect(await status('/api/articles', token, 'POST')).toBe(403);
    expect(e2e.problems).toEqual([]);
  });

  it('creates a custom token with only the actions ticked, and says so', async () => {
    const { page, server } = e2e;
    await new AppNav(page).go('Settings');
    await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Connect an AI assistant' }).click();
    await page.getByLabel('Token name').fill('Cursor on the laptop');
    await page.getByRole('radio', { name: 'Custom' }).check();
    await page.getByRole('checkbox', { name: 'Article find', exact: true }).check();
    await page.getByRole('button', { name: 'Create token and show configuration' }).click();
    const token = await (await visible(page.getByTestId('token-plaintext'))).inputValue();
    expect(await page.getByTestId('assistant-grant').innerText()).toContain('can do the actions you ticked through token “Cursor on the laptop”');
    expect(await page.getByTestId('assistant-code-vscode').innerText()).toContain(token);
    const list = await dataList(server, '/admin/api/api-tokens', { token: session });
    const custom = list.find((t) => t.name === 'Cursor on the laptop');
    expect(custom).toMatchObject({ type: 'custom', permissions: ['api::article.article.find'] });
    expect(await status('/api/articles', token)).toBe(200);
    expect(await status('/api/categories', token)).toBe(403);
    expect(e2e.problems).toEqual([]);
  });
});
