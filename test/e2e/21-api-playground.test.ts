import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unlabelledControls } from './support/a11y.js';
import { loginAsOwner } from './support/auth-pages.js';
import { data } from './support/api.js';
import { captureFailures, registerOwner, screenshot, startE2E, type E2E } from './support/harness.js';
import { eventually, visible } from './support/wait.js';

/** The text of a monaco editor as shown (monaco renders spaces as no-break spaces). */
const editorText = async (page: Page, selector: string) => (await page.locator(selector).innerText()).replace(/\u00a0/g, ' ');

/** Replaces the query editor's text (monaco: select all, then insert as one input so brackets are not auto-closed). */
async function typeQuery(page: Page, query: string): Promise<void> {
  await page.locator('.graphiql-query-editor .monaco-editor').click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(query);
}

describe('21. API playground', () => {
  let e2e: E2E;
  let session: string;
  /** Every URL the page (and its workers) asked for. */
  const requested: string[] = [];

  beforeAll(async () => {
    e2e = await startE2E();
    session = await registerOwner(e2e.server);
    await data(e2e.server, '/api/articles', { method: 'POST', token: session, json: { data: { title: 'Playground pie', views: 7 } } }, 201);
    e2e.context.on('request', (request) => requested.push(request.url()));
  });
  afterAll(async () => {
    await e2e?.close();
  });
  captureFailures(() => e2e);

  it('runs a GraphQL query with a read-only token it creates, loading nothing from outside 127.0.0.1', async () => {
    const { page, server } = e2e;
    await loginAsOwner(page);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'API playground', exact: true }).click();
    await visible(page.getByRole('heading', { level: 1, name: 'API playground' }));
    expect(await unlabelledControls(page)).toEqual([]);

    // An empty paste is refused with a message; then a read-only token is made for the playground.
    await page.getByRole('button', { name: 'Use this token' }).click();
    await visible(page.getByText('Paste the key of an API token.'));
    await page.getByRole('button', { name: 'Create a read-only token (7 days)' }).click();
    await visible(page.getByTestId('playground-token-label'));
    expect(await page.getByTestId('playground-token-label').innerText()).toMatch(/^Running with the read-only token “API playground .+” \(expires in 7 days\)\.$/);
    const tokens = await e2e.server.request('/admin/api/api-tokens', { token: session });
    const list: unknown = await tokens.json();
    expect(JSON.stringify(list)).toContain('"type":"read-only"');

    await visible(page.locator('.graphiql-query-editor .monaco-editor'));
    await typeQuery(page, 'query { articles { title views } }');
    await page.getByRole('button', { name: /Execute query/ }).click();
    await eventually(() => editorText(page, '.graphiql-response')).toContain('"title": "Playground pie"');
    const answer = await editorText(page, '.graphiql-response');
    expect(answer).toContain('"views": 7');
    expect(answer).not.toContain('"errors"');

    await screenshot(page, 'api-playground');

    // A pasted key is used as it is: a wrong one gets the server's 401 envelope, shown in the answer pane.
    await page.getByRole('button', { name: 'Change token' }).click();
    await page.getByLabel('API token key').fill('not-a-real-token');
    await page.getByRole('button', { name: 'Use this token' }).click();
    expect(await (await visible(page.getByTestId('playground-token-label'))).innerText()).toBe('Running with the pasted token.');
    await visible(page.locator('.graphiql-query-editor .monaco-editor'));
    await typeQuery(page, 'query { articles { title } }');
    await page.getByRole('button', { name: /Execute query/ }).click();
    await eventually(() => editorText(page, '.graphiql-response')).toContain('"status": 401');

    // Nothing left this machine: every request went to the test server on 127.0.0.1 (no CDN, no fonts, workers bundled).
    const origin = new URL(server.url).origin;
    expect(new URL(server.url).hostname).toBe('127.0.0.1');
    expect(requested.length).toBeGreaterThan(0);
    expect(requested.filter((url) => !url.startsWith(`${origin}/`) && !url.startsWith('data:') && !url.startsWith('blob:'))).toEqual([]);
    expect(requested.some((url) => /\/admin\/assets\/.*worker.*\.js$/.test(url))).toBe(true);
    expect(e2e.problems).toEqual([]);
  });

  it('keeps the strict style policy on every other admin page', async () => {
    const policy = async (path: string) => (await e2e.server.request(path)).headers.get('content-security-policy') ?? '';
    expect(await policy('/admin/playground')).toContain("style-src 'self' 'unsafe-inline'");
    expect(await policy('/admin/content')).toContain("style-src 'self';");
    expect(await policy('/admin/playgrounds')).toContain("style-src 'self';");
    expect(await policy('/admin/playground')).toContain("script-src 'self';");
  });
});
