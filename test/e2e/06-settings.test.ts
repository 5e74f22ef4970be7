import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppNav, loginAsOwner } from './support/auth-pages.js';
import { data, dataList } from './support/api.js';
import { captureFailures, registerOwner, screenshot, startE2E, type E2E } from './support/harness.js';
import { eventually, visible } from './support/wait.js';

describe('6. settings', () => {
  let e2e: E2E;
  let session: string;
  beforeAll(async () => {
    e2e = await startE2E();
    session = await registerOwner(e2e.server);
    await data(e2e.server, '/api/articles', { method: 'POST', token: session, json: { data: { title: 'Public news' } } }, 201);
  });
  afterAll(async () => {
    await e2e?.close();
  });
  captureFailures(() => e2e);

  it('shows the server URL and data folder, and adds a locale and makes it the default', async () => {
    const { page, server } = e2e;
    await loginAsOwner(page);
    await new AppNav(page).go('Settings');
    await visible(page.getByRole('heading', { level: 1, name: 'Settings' }));
    expect(await page.getByTestId('server-url').innerText()).toBe(server.url);
    expect(await page.getByTestId('data-dir').innerText()).toBe(server.dataDir);

    await page.getByLabel('Locale code').fill('fr');
    await page.getByLabel('Display name').fill('French');
    await page.getByRole('button', { name: 'Add locale' }).click();
    await visible(page.getByTestId('locale-row-fr'));
    await page.getByRole('button', { name: 'Make French the default locale' }).click();
    await visible(page.getByTestId('locale-row-fr').getByText('Default', { exact: true }));
    expect(await page.getByTestId('locale-row-en').getByText('Default', { exact: true }).count()).toBe(0);
    const locales = await dataList(server, '/admin/api/i18n/locales', { token: session });
    expect(locales.find((l) => l.code === 'fr')).toMatchObject({ isDefault: true });

    // An unknown code is refused with the server's message at the field.
    await page.getByLabel('Locale code').fill('not a locale');
    await page.getByRole('button', { name: 'Add locale' }).click();
    await visible(page.locator('.field').filter({ has: page.getByLabel('Locale code') }).getByRole('alert'));
    expect(e2e.problems).toEqual([]);
  });

  it('opens content to the public role one action at a time', async () => {
    const { page, server } = e2e;
    expect((await server.request('/api/articles')).status).toBe(403);
    const publicFind = page.getByRole('checkbox', { name: 'Article find', exact: true });
    await publicFind.check();
    await page.getByRole('button', { name: 'Save permissions' }).click();
    await visible(page.getByTestId('toast').filter({ hasText: 'Permissions saved' }));
    await eventually(async () => (await server.request('/api/articles')).status).toBe(200);
    expect((await server.request('/api/categories')).status).toBe(403);
    await page.getByLabel('Locale code').fill('');
    await page.evaluate('window.scrollTo(0, 0)');
    await screenshot(page, 'settings');
    expect(e2e.problems).toEqual([]);
  });
});
