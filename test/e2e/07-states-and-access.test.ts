import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unlabelledControls } from './support/a11y.js';
import { AppNav, LoginPage, loginAsOwner } from './support/auth-pages.js';
import { BuilderPage } from './support/builder-page.js';
import { ContentPage } from './support/content-page.js';
import { captureFailures, registerOwner, screenshot, startE2E, type E2E } from './support/harness.js';
import { MediaPage } from './support/media-page.js';
import { TokensPage } from './support/tokens-page.js';
import { holdsFocus, isFocused, outlineStyle, visible } from './support/wait.js';

/** True when the element's computed background is dark (the dark palette is in use). */
const DARK_BACKGROUND = "(() => { const [r, g, b] = getComputedStyle(document.body).backgroundColor.match(/\\d+/g).map(Number); return r + g + b < 150; })()";

describe('7. empty and loading states, keyboard access, clear errors, a calm look (dark scheme)', () => {
  let e2e: E2E;
  beforeAll(async () => {
    e2e = await startE2E({ colorScheme: 'dark' });
    await registerOwner(e2e.server);
  });
  afterAll(async () => {
    await e2e?.close();
  });
  captureFailures(() => e2e);

  it('shows empty states, a loading state while the server answers, and errors with a way to retry', async () => {
    const { page } = e2e;
    await loginAsOwner(page);
    expect(await page.evaluate(DARK_BACKGROUND)).toBe(true);
    const content = new ContentPage(page);
    await content.openType('Article');
    await visible(page.getByTestId('empty-state').getByText('No article entries yet'));
    await visible(page.getByRole('link', { name: 'Create the first one' }));
    await screenshot(page, 'dark-content-empty');

    // Loading: hold the file list until the loading state has been seen.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/admin/api/upload/files?**', async (route) => {
      await held;
      await route.continue();
    });
    await new AppNav(page).go('Media library');
    await visible(page.getByRole('status').filter({ hasText: 'Loading files…' }));
    release();
    await visible(page.getByText('No files here yet'));
    await page.unroute('**/admin/api/upload/files?**');

    // A server error is said plainly, with a retry; once the server answers, the screen recovers.
    await page.route('**/admin/api/api-tokens', (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ data: null, error: { status: 500, name: 'InternalServerError', message: 'Internal Server Error', details: {} } }) }),
    );
    const tokens = new TokensPage(page);
    await tokens.open();
    await visible(page.getByRole('alert').filter({ hasText: 'Internal Server Error' }));
    await page.unroute('**/admin/api/api-tokens');
    await page.getByRole('button', { name: 'Try again' }).click();
    await visible(page.getByText('No API tokens yet'));

    // The server gone: a sentence, not a stack trace.
    await page.route('**/admin/api/api-tokens', (route) => route.abort('connectionrefused'));
    await page.reload();
    await visible(page.getByRole('alert').filter({ hasText: 'The server cannot be reached. Is Hearth still running?' }));
    await page.unroute('**/admin/api/api-tokens');
    await page.getByRole('button', { name: 'Try again' }).click();
    await visible(page.getByText('No API tokens yet'));

    // A session that ends (here: logged out elsewhere) brings the login screen back with a reason.
    const token = await page.evaluate("sessionStorage.getItem('hearth.session')");
    expect(typeof token).toBe('string');
    await e2e.server.request('/admin/api/logout', { method: 'POST', token: String(token) });
    await new AppNav(page).go('Settings');
    await new LoginPage(page).ready();
    await visible(page.getByText('Your session has ended. Please log in again.'));
    expect(e2e.problems).toEqual([]);
  });

  it('is usable from the keyboard: skip link, visible focus, dialogs that keep focus and close on Escape', async () => {
    const { page } = e2e;
    await loginAsOwner(page);
    await new MediaPage(page).open();
    // From the top of a freshly loaded screen, the first Tab reaches the skip link.
    await page.reload();
    await visible(page.getByRole('heading', { level: 1, name: 'Media library' }));
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: 'Skip to content' });
    expect(await isFocused(skip)).toBe(true);
    await page.keyboard.press('Enter');
    expect(await isFocused(page.getByRole('main'))).toBe(true);

    const newFolder = page.getByRole('button', { name: 'New folder' });
    await newFolder.focus();
    expect(await outlineStyle(newFolder)).toBe('solid');
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'New folder' });
    await visible(dialog);
    expect(await isFocused(dialog.getByLabel('Folder name'))).toBe(true);
    for (let i = 0; i < 6; i++) {
      await page.keyboard.press('Tab');
      expect(await holdsFocus(dialog)).toBe(true);
    }
    await page.keyboard.press('Shift+Tab');
    expect(await holdsFocus(dialog)).toBe(true);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    expect(await isFocused(newFolder)).toBe(true);
    expect(e2e.problems).toEqual([]);
  });

  it('names every control on every screen', async () => {
    const { page } = e2e;
    const screens: [string, () => Promise<void>][] = [
      ['content list', () => new ContentPage(page).openType('Article')],
      ['edit form', async () => {
        await new ContentPage(page).create();
        await visible(page.getByRole('textbox', { name: 'Body' }));
      }],
      ['media library', () => new MediaPage(page).open()],
      ['builder', () => new BuilderPage(page).open()],
      ['type editor', async () => {
        await page.getByRole('link', { name: 'Article' }).click();
        await visible(page.getByTestId('field-row-title'));
      }],
      ['new token', async () => {
        await new TokensPage(page).open();
        await page.getByRole('link', { name: 'Create new token' }).click();
        await visible(page.getByLabel('Name'));
      }],
      ['settings', async () => {
        await new AppNav(page).go('Settings');
        await visible(page.getByTestId('server-url'));
      }],
    ];
    for (const [name, open] of screens) {
      await open();
      expect(await unlabelledControls(page), name).toEqual([]);
    }
    await new ContentPage(page).openType('Article');
    await new ContentPage(page).create();
    await visible(page.getByRole('textbox', { name: 'Body' }));
    await screenshot(page, 'dark-content-edit');
    expect(e2e.problems).toEqual([]);
  });
});
