import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { data, dataList } from './support/api.js';
import { AppNav, loginAsOwner } from './support/auth-pages.js';
import { BuilderPage } from './support/builder-page.js';
import { ContentPage } from './support/content-page.js';
import { captureFailures, registerOwner, startE2E, type E2E } from './support/harness.js';
import { gradientPng, MediaPage } from './support/media-page.js';
import { eventually, isFocused, visible } from './support/wait.js';

const NEW_ARTICLE = '/admin/content/api%3A%3Aarticle.article/new?locale=en';

describe('11. the editor’s details', () => {
  let e2e: E2E;
  let session: string;
  beforeAll(async () => {
    e2e = await startE2E();
    session = await registerOwner(e2e.server);
    await loginAsOwner(e2e.page);
  });
  afterAll(async () => {
    await e2e?.close();
  });
  captureFailures(() => e2e);

  it('an entry opens with its first field focused, new or existing', async () => {
    const { page, server } = e2e;
    const content = new ContentPage(page);
    await page.goto(NEW_ARTICLE);
    await eventually(() => isFocused(content.field('Title'))).toBe(true);

    await data(server, '/api/articles?locale=en', { method: 'POST', token: session, json: { data: { title: 'Focus cake' } } }, 201);
    await content.openType('Article');
    await content.open('Focus cake');
    await eventually(() => isFocused(content.field('Title'))).toBe(true);
  });

  it('a new entry’s slug follows its title until edited by hand; Generate stays; an existing entry’s slug does not move', async () => {
    const { page, server } = e2e;
    const content = new ContentPage(page);
    await page.goto(NEW_ARTICLE);
    await content.field('Title').fill('Apple pie');
    await eventually(() => content.field('Slug').inputValue()).toBe('apple-pie');
    await content.field('Title').pressSequentially(' à la mode');
    await eventually(() => content.field('Slug').inputValue()).toBe('apple-pie-a-la-mode');

    await content.field('Slug').fill('my-pie');
    await content.field('Title').fill('Apple pie deluxe');
    expect(await content.field('Slug').inputValue()).toBe('my-pie');
    await page.getByRole('button', { name: 'Generate Slug from Title' }).click();
    expect(await content.field('Slug').inputValue()).toBe('apple-pie-deluxe');

    const existing = await data(server, '/api/articles?locale=en', { method: 'POST', token: session, json: { data: { title: 'Plum tart', slug: 'plum-tart' } } }, 201);
    await page.goto(`/admin/content/api%3A%3Aarticle.article/${String(existing.documentId)}?locale=en`);
    await content.field('Title').fill('Plum tart, renamed');
    await content.field('Summary').fill('The slug keeps its published address.');
    expect(await content.field('Slug').inputValue()).toBe('plum-tart');
  });

  it('a file uploaded in the picker lands where the picker is, and no empty "API Uploads" folder appears', async () => {
    const { page, server } = e2e;
    const content = new ContentPage(page);
    await page.goto(NEW_ARTICLE);
    await content.field('Title').fill('With a cover');
    await page.getByRole('button', { name: 'Choose Cover' }).click();
    const picker = page.getByRole('dialog', { name: 'Choose a file' });
    await new MediaPage(page).choose([{ name: 'orchard.png', mimeType: 'image/png', buffer: await gradientPng(32, 24, [120, 180, 90], [220, 240, 160]) }], picker);
    await visible(picker.getByRole('button', { name: 'Select orchard.png' }));
    await picker.getByRole('button', { name: 'Use this file' }).click();
    await content.act('Save draft', 'Saved');

    const root = await dataList(server, '/admin/api/upload/files?folder=root', { token: session });
    expect(root.map((f) => f.name)).toEqual(['orchard.png']);
    expect(await dataList(server, '/admin/api/upload/folders', { token: session })).toEqual([]);
    const media = new MediaPage(page);
    await media.open();
    await eventually(() => media.names()).toEqual(['orchard.png']);
    expect(await page.getByRole('list', { name: 'Folders' }).count()).toBe(0);
  });

  it('the list’s page is a step of history: Back from page 2 returns to page 1, and from an entry to page 2', async () => {
    const { page, server } = e2e;
    const content = new ContentPage(page);
    for (let i = 1; i <= 21; i++) await data(server, '/api/tags', { method: 'POST', token: session, json: { data: { label: `Tag ${String(i).padStart(2, '0')}` } } }, 201);
    await content.openType('Tag');
    await content.sortBy('Label');
    await eventually(() => content.titles()).toHaveLength(20);
    await page.getByRole('button', { name: 'Next' }).click();
    await page.waitForURL(/[?&]page=2/);
    await eventually(() => content.titles()).toEqual(['Tag 21']);

    await content.open('Tag 21');
    await visible(content.field('Label'));
    await page.goBack();
    await eventually(() => content.titles()).toEqual(['Tag 21']);
    await page.goBack();
    await page.waitForURL((url) => !url.searchParams.has('page'));
    await eventually(() => content.titles()).toHaveLength(20);
    expect(new URL(page.url()).pathname).toBe('/admin/content/api%3A%3Atag.tag');
  });

  it('the open media folder is in the address: a reload keeps it, Back returns to the folder above', async () => {
    const { page, server } = e2e;
    const media = new MediaPage(page);
    const photos = await data(server, '/admin/api/upload/folders', { method: 'POST', token: session, json: { name: 'Photos' } }, 201);
    const trips = await data(server, '/admin/api/upload/folders', { method: 'POST', token: session, json: { name: 'Trips', parent: photos.id } }, 201);
    await media.open();
    await media.openFolder('Photos');
    await page.waitForURL(new RegExp(`[?&]folder=${String(photos.id)}$`));
    await media.openFolder('Trips');
    await page.waitForURL(new RegExp(`[?&]folder=${String(trips.id)}$`));

    await page.reload();
    const path = page.getByRole('navigation', { name: 'Folder path' });
    await eventually(() => path.locator('li').allInnerTexts()).toEqual(['Media library', 'Photos', 'Trips']);
    await visible(page.getByText('No files here yet'));

    await page.goBack();
    await page.waitForURL(new RegExp(`[?&]folder=${String(photos.id)}$`));
    await eventually(() => path.locator('li').allInnerTexts()).toEqual(['Media library', 'Photos']);
    await visible(page.getByRole('list', { name: 'Folders' }).getByRole('button', { name: /^Trips/ }));
    await path.getByRole('button', { name: 'Media library' }).click();
    await page.waitForURL((url) => !url.searchParams.has('folder'));
    await eventually(() => path.locator('li').allInnerTexts()).toEqual(['Media library']);
  });

  it('the builder home says "1 field", not "1 fields"', async () => {
    const { page } = e2e;
    await new BuilderPage(page).open();
    const richText = page.getByRole('listitem').filter({ has: page.getByRole('link', { name: 'Rich text', exact: true }) });
    await eventually(() => richText.innerText()).toContain('1 field');
    expect(await richText.innerText()).not.toContain('1 fields');
  });

  it('Settings › Locales fills the display name from the code and offers ISO locales to search', async () => {
    const { page, server } = e2e;
    await new AppNav(page).go('Settings');
    const code = page.getByLabel('Locale code');
    const name = page.getByLabel('Display name');
    await code.fill('pt-BR');
    expect(await name.inputValue()).toBe('Brazilian Portuguese (pt-BR)');
    await code.fill('de');
    expect(await name.inputValue()).toBe('German (de)');
    const options = await page.locator('#locale-codes option').evaluateAll((list) => list.map((o) => (o as unknown as { value: string }).value));
    expect(options).toEqual(expect.arrayContaining(['de', 'fr-CA', 'zh-Hant', 'sv']));
    expect(options.length).toBeGreaterThan(100);
    expect(options).not.toContain('en');

    // A name typed by hand stays when the code changes.
    await name.fill('Deutsch');
    await code.fill('de-AT');
    expect(await name.inputValue()).toBe('Deutsch');
    await code.fill('de');
    await page.getByRole('button', { name: 'Add locale' }).click();
    await visible(page.getByTestId('locale-row-de'));
    const locales = await dataList(server, '/admin/api/i18n/locales', { token: session });
    expect(locales.find((l) => l.code === 'de')).toMatchObject({ name: 'Deutsch' });

    await code.fill('fr');
    await page.getByRole('button', { name: 'Add locale' }).click();
    await visible(page.getByTestId('locale-row-fr'));
    expect((await dataList(server, '/admin/api/i18n/locales', { token: session })).find((l) => l.code === 'fr')).toMatchObject({ name: 'French (fr)' });
    expect(e2e.problems).toEqual([]);
  });
});
