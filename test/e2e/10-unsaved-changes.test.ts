import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { data } from './support/api.js';
import { AppNav, loginAsOwner } from './support/auth-pages.js';
import { BuilderPage } from './support/builder-page.js';
import { ContentPage } from './support/content-page.js';
import { captureFailures, registerOwner, screenshot, startE2E, type E2E } from './support/harness.js';
import { focusedLabel, isFocused, visible } from './support/wait.js';

/** The "Leave without saving?" dialog. */
class LeaveDialog {
  constructor(private readonly page: Page) {}

  dialog() {
    return this.page.getByRole('dialog', { name: 'Leave without saving?' });
  }

  async shown(): Promise<void> {
    await visible(this.dialog());
  }

  async stay(): Promise<void> {
    await this.dialog().getByRole('button', { name: 'Stay' }).click();
    await this.dialog().waitFor({ state: 'hidden' });
  }

  async leave(): Promise<void> {
    await this.dialog().getByRole('button', { name: 'Leave' }).click();
    await this.dialog().waitFor({ state: 'hidden' });
  }
}

describe('10. unsaved changes are not lost without a word', () => {
  let e2e: E2E;
  let documentId: string;
  beforeAll(async () => {
    e2e = await startE2E();
    const session = await registerOwner(e2e.server);
    const article = await data(e2e.server, '/api/articles?locale=en', { method: 'POST', token: session, json: { data: { title: 'Plum cake' } } }, 201);
    documentId = String(article.documentId);
    await loginAsOwner(e2e.page);
  });
  afterAll(async () => {
    await e2e?.close();
  });
  captureFailures(() => e2e);

  const openArticle = async (page: Page) => {
    await page.goto(`/admin/content/api%3A%3Aarticle.article/${documentId}?locale=en`);
    await visible(new ContentPage(page).field('Title'));
  };

  it('the entry form asks before the back link, a sidebar link or browser Back leave unsaved work; Stay keeps it, Leave goes', async () => {
    const { page } = e2e;
    const content = new ContentPage(page);
    const guard = new LeaveDialog(page);
    // Reached from the list inside the app, so browser Back stays in the app.
    await openArticle(page);
    await page.getByRole('link', { name: '← Article' }).click();
    await visible(page.getByRole('heading', { level: 1, name: 'Article' }));
    await content.open('Plum cake');
    await content.field('Title').fill('Plum cake, edited');
    await visible(page.getByText('Unsaved changes'));

    // The back link: the dialog opens with Stay focused; Escape stays.
    await page.getByRole('link', { name: '← Article' }).click();
    await guard.shown();
    expect(await isFocused(guard.dialog().getByRole('button', { name: 'Stay' }))).toBe(true);
    await screenshot(page, 'unsaved-changes-dialog');
    await page.keyboard.press('Escape');
    await guard.dialog().waitFor({ state: 'hidden' });
    expect(new URL(page.url()).pathname).toBe(`/admin/content/api%3A%3Aarticle.article/${documentId}`);
    expect(await content.field('Title').inputValue()).toBe('Plum cake, edited');

    // A sidebar link: Stay with the mouse keeps the work.
    await new AppNav(page).go('Media library');
    await guard.shown();
    await guard.stay();
    expect(await content.field('Title').inputValue()).toBe('Plum cake, edited');

    // Browser Back.
    await page.goBack();
    await guard.shown();
    await guard.stay();
    expect(new URL(page.url()).pathname).toBe(`/admin/content/api%3A%3Aarticle.article/${documentId}`);
    expect(await content.field('Title').inputValue()).toBe('Plum cake, edited');

    // Leave, by keyboard: Tab from Stay reaches Leave, Enter goes.
    await new AppNav(page).go('Media library');
    await guard.shown();
    await page.keyboard.press('Tab');
    expect(await focusedLabel(page)).toContain('Leave');
    await page.keyboard.press('Enter');
    await visible(page.getByRole('heading', { level: 1, name: 'Media library' }));
    expect(await guard.dialog().count()).toBe(0);
  });

  it('saving clears the guard: the back link leaves at once', async () => {
    const { page } = e2e;
    const content = new ContentPage(page);
    await openArticle(page);
    await content.field('Summary').fill('Saved before leaving.');
    await content.act('Save draft', 'Saved');
    await page.getByRole('link', { name: '← Article' }).click();
    await visible(page.getByRole('heading', { level: 1, name: 'Article' }));
    expect(await new LeaveDialog(page).dialog().count()).toBe(0);
  });

  it('a new entry saved for the first time opens its page without asking', async () => {
    const { page } = e2e;
    const content = new ContentPage(page);
    await page.goto('/admin/content/api%3A%3Aarticle.article/new?locale=en');
    await content.field('Title').fill('Brand new');
    await content.act('Save draft', 'Saved');
    await page.waitForURL(/\/content\/api%3A%3Aarticle\.article\/[a-z0-9]+\?locale=en$/);
    expect(await new LeaveDialog(page).dialog().count()).toBe(0);
  });

  it('closing or reloading the tab with unsaved work gets the browser warning; a clean form closes quietly', async () => {
    const { context } = e2e;
    // A tab of its own (the session lives in the tab's sessionStorage: log in there too).
    const page = await context.newPage();
    await loginAsOwner(page);
    await openArticle(page);
    await new ContentPage(page).field('Title').fill('Not saved');
    // The form shows it is dirty once React has rendered the change; the unload guard is set up with it.
    await visible(page.getByText('Unsaved changes'));
    const asked = page.waitForEvent('dialog');
    await page.close({ runBeforeUnload: true });
    const dialog = await asked;
    expect(dialog.type()).toBe('beforeunload');
    await dialog.accept();
    await page.waitForEvent('close');

    const clean = await context.newPage();
    await loginAsOwner(clean);
    await openArticle(clean);
    const dialogs: string[] = [];
    clean.on('dialog', (d) => {
      dialogs.push(d.type());
      void d.dismiss();
    });
    await clean.close({ runBeforeUnload: true });
    await clean.waitForEvent('close').catch(() => undefined);
    expect(clean.isClosed()).toBe(true);
    expect(dialogs).toEqual([]);
  });

  it('in the desktop window the page asks on close too (the main process turns that into its Leave/Stay box)', async () => {
    const secret = 'e2e-launch-secret-unsaved-0123456789';
    const desktop = await startE2E({
      desktopSecret: secret,
      initScript: `window.hearthDesktop = { getLaunchSecret: () => Promise.resolve(${JSON.stringify(secret)}), openDataFolder: () => Promise.resolve() };`,
    });
    try {
      const { page } = desktop;
      await page.goto('/admin/content/api%3A%3Aarticle.article/new?locale=en');
      await new ContentPage(page).field('Title').fill('Not saved in the desktop app');
      await visible(page.getByText('Unsaved changes'));
      const asked = page.waitForEvent('dialog');
      await page.close({ runBeforeUnload: true });
      const dialog = await asked;
      expect(dialog.type()).toBe('beforeunload');
      await dialog.accept();
      await page.waitForEvent('close');
      expect(desktop.problems).toEqual([]);
    } finally {
      await desktop.close();
    }
  });

  it('the type editor asks before an added field is lost; Leave drops it, saving a new type opens it without asking', async () => {
    const { page } = e2e;
    const builder = new BuilderPage(page);
    const guard = new LeaveDialog(page);
    await builder.open();
    await page.getByRole('link', { name: 'Tag', exact: true }).click();
    await visible(page.getByTestId('field-row-label'));
    await builder.addField('Short text', 'colour');

    await page.getByRole('link', { name: '← Content-type builder' }).click();
    await guard.shown();
    await guard.stay();
    await visible(page.getByTestId('field-row-colour'));

    await new AppNav(page).go('Settings');
    await guard.shown();
    await guard.leave();
    await visible(page.getByRole('heading', { level: 1, name: 'Settings' }));
    await builder.open();
    await page.getByRole('link', { name: 'Tag', exact: true }).click();
    await visible(page.getByTestId('field-row-label'));
    expect(await page.getByTestId('field-row-colour').count()).toBe(0);
    // Unchanged: leaving does not ask.
    await page.getByRole('link', { name: '← Content-type builder' }).click();
    await visible(page.getByRole('heading', { name: 'Content-type builder' }));

    await builder.newType('Pudding');
    await builder.addField('Short text', 'name');
    await builder.save('Pudding created');
    await page.waitForURL(/\/admin\/builder\/types\/api%3A%3Apudding\.pudding$/);
    expect(await guard.dialog().count()).toBe(0);
    await page.getByRole('link', { name: '← Content-type builder' }).click();
    await visible(page.getByRole('heading', { name: 'Content-type builder' }));
    expect(await guard.dialog().count()).toBe(0);
  });

  it('the component editor asks too', async () => {
    const { page } = e2e;
    const builder = new BuilderPage(page);
    const guard = new LeaveDialog(page);
    await builder.open();
    await builder.newComponent('Banner', 'shared');
    await new AppNav(page).go('Settings');
    await guard.shown();
    await guard.stay();
    expect(await page.getByLabel('Display name').inputValue()).toBe('Banner');
    await new AppNav(page).go('Settings');
    await guard.shown();
    await guard.leave();
    await visible(page.getByRole('heading', { level: 1, name: 'Settings' }));
    expect(e2e.problems).toEqual([]);
  });
});

/** The sum of the RGB channels of an element's computed background (dark: small). */
interface Styled {
  readonly ownerDocument: { readonly defaultView: { getComputedStyle(el: unknown): { readonly backgroundColor: string } } | null };
}
const backgroundSum = (el: Styled): number =>
  (el.ownerDocument.defaultView?.getComputedStyle(el).backgroundColor.match(/\d+/g) ?? []).slice(0, 3).reduce((sum, n) => sum + Number(n), 0);

describe('10. the leave dialog in the dark scheme', () => {
  let e2e: E2E;
  beforeAll(async () => {
    e2e = await startE2E({ colorScheme: 'dark' });
    await registerOwner(e2e.server);
    await loginAsOwner(e2e.page);
  });
  afterAll(async () => {
    await e2e?.close();
  });
  captureFailures(() => e2e);

  it('uses the dark palette, as the other dialogs do', async () => {
    const { page } = e2e;
    const builder = new BuilderPage(page);
    const guard = new LeaveDialog(page);
    await builder.open();
    await builder.newComponent('Banner', 'shared');
    await new AppNav(page).go('Media library');
    await guard.shown();
    expect(await guard.dialog().evaluate(backgroundSum)).toBeLessThan(150);
    await screenshot(page, 'dark-unsaved-changes-dialog');
    await guard.stay();
    expect(e2e.problems).toEqual([]);
  });
});
