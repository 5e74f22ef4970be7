import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginAsOwner } from './support/auth-pages.js';
import { data, dataList } from './support/api.js';
import { captureFailures, registerOwner, screenshot, startE2E, type E2E } from './support/harness.js';
import { TokensPage } from './support/tokens-page.js';
import { visible } from './support/wait.js';

describe('5. API tokens', () => {
  let e2e: E2E;
  let session: string;
  /** A content API call with a bearer token; the status only. */
  const status = async (path: string, token: string, init: { method?: string; json?: unknown } = {}) =>
    (await e2e.server.request(path, { method: init.method ?? 'GET', token, ...(init.json !== undefined ? { json: init.json } : {}) })).status;

  beforeAll(async () => {
    e2e = await startE2E();
    session = await registerOwner(e2e.server);
    await data(e2e.server, '/api/articles', { method: 'POST', token: session, json: { data: { title: 'Hello' } } }, 201);
  });
  afterAll(async () => {
    await e2e?.close();
  });
  captureFailures(() => e2e);

  it('creates a token shown once with a copy button, uses it, regenerates and revokes it', async () => {
    const { page } = e2e;
    await loginAsOwner(page);
    const tokens = new TokensPage(page);
    await tokens.open();
    await visible(page.getByText('No API tokens yet'));

    await tokens.fill({ name: 'Website', description: 'The public site build', type: 'Read-only', duration: '7 days' });
    const plaintext = await tokens.create();
    expect(plaintext.length).toBeGreaterThan(20);
    await visible(page.getByText('Copy this token now. For your security it will not be shown again.'));
    await page.getByRole('button', { name: 'Copy token' }).click();
    await visible(page.getByRole('button', { name: 'Copied' }));
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(plaintext);
    await screenshot(page, 'token-created');

    expect(await status('/api/articles', plaintext)).toBe(200);
    expect(await status('/api/articles', plaintext, { method: 'POST', json: { data: { title: 'Nope' } } })).toBe(403);

    await page.getByRole('link', { name: 'Back to tokens' }).click();
    const row = page.getByTestId('token-row-Website');
    await visible(row.getByText('Read-only'));
    await screenshot(page, 'tokens');
    // Shown once: the token's own screen never shows the plaintext again.
    await row.getByRole('link', { name: 'Website' }).click();
    await visible(page.getByRole('heading', { level: 1, name: 'Website' }));
    expect(await page.getByTestId('token-plaintext').count()).toBe(0);
    await page.getByRole('link', { name: '← API tokens' }).click();

    await page.getByRole('button', { name: 'Regenerate Website' }).click();
    await page.getByRole('dialog', { name: 'Regenerate “Website”?' }).getByRole('button', { name: 'Regenerate' }).click();
    const renewed = page.getByRole('dialog', { name: 'New token for “Website”' }).getByTestId('token-plaintext');
    await visible(renewed);
    const second = await renewed.inputValue();
    expect(second).not.toBe(plaintext);
    expect(await status('/api/articles', plaintext)).toBe(401);
    expect(await status('/api/articles', second)).toBe(200);
    await page.getByRole('button', { name: 'Done' }).click();

    await page.getByRole('button', { name: 'Revoke Website' }).click();
    await page.getByRole('dialog', { name: 'Revoke “Website”?' }).getByRole('button', { name: 'Revoke token' }).click();
    await visible(page.getByText('No API tokens yet'));
    expect(await status('/api/articles', second)).toBe(401);
    expect(e2e.problems).toEqual([]);
  });

  it('creates a custom token limited to the actions ticked', async () => {
    const { page } = e2e;
    const tokens = new TokensPage(page);
    await tokens.open();
    await tokens.fill({ name: 'Reader', type: 'Custom', duration: 'Unlimited' });
    await page.getByRole('checkbox', { name: 'Article find', exact: true }).check();
    await page.getByRole('checkbox', { name: 'Article findOne', exact: true }).check();
    await screenshot(page, 'token-new');
    const plaintext = await tokens.create();
    expect(await status('/api/articles', plaintext)).toBe(200);
    expect(await status('/api/categories', plaintext)).toBe(403);
    expect(await status('/api/articles', plaintext, { method: 'POST', json: { data: { title: 'Nope' } } })).toBe(403);
    const [token] = await dataList(e2e.server, '/admin/api/api-tokens', { token: session });
    expect(token).toMatchObject({ name: 'Reader', expiresAt: null });
    expect(token?.permissions).toEqual(expect.arrayContaining(['api::article.article.find', 'api::article.article.findOne']));
    expect(token?.permissions).toHaveLength(2);
    expect(e2e.problems).toEqual([]);
  });
});
