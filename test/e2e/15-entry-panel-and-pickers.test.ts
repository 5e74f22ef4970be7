import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { data } from './support/api.js';
import { loginAsOwner } from './support/auth-pages.js';
import { BuilderPage } from './support/builder-page.js';
import { ContentPage } from './support/content-page.js';
import { captureFailures, registerOwner, screenshot, startE2E, type E2E } from './support/harness.js';
import { eventually, visible } from './support/wait.js';

const ARTICLE = (documentId: unknown, locale = 'en') => `/admin/content/api%3A%3Aarticle.article/${String(documentId)}?locale=${locale}`;

describe('15. the entry side panel, relation statuses and a component made from the field dialog', () => {
  let e2e: E2E;
  let session: string;
  beforeAll(async () => {
    e2e = await startE2E();
    session = await registerOwner(e2e.server);
    for (const code of ['fr', 'de']) await data(e2e.server, '/admin/api/i18n/locales', { method: 'POST', token: session, json: { code } }, 201);
    await loginAsOwner(e2e.page);
  });
  afterAll(async () => {
    await e2e?.close();
  });
  captureFailures(() => e2e);

  it('the side panel names who created and last changed the entry, and lists its locales with their status and links', async () => {
    const { page, server } = e2e;
    const content = new ContentPage(page);
    // Made with an API token: no admin is its creator.
    const token = await server.token('full-access');
    const made = await data(server, '/api/articles?locale=en', { method: 'POST', token, json: { data: { title: 'Pear crumble' } } }, 201);
    await data(server, `/api/articles/${String(made.documentId)}?status=draft&locale=en`, { method: 'PUT', token, json: { data: { summary: 'Changed after publishing' } } });
    await data(server, `/api/articles/${String(made.documentId)}?status=draft&locale=fr`, { method: 'PUT', token, json: { data: { title: 'Crumble aux poires' } } });

    await page.goto(ARTICLE(made.documentId));
    const panel = page.getByRole('complementary', { name: 'Entry information' });
    await visible(panel);
    const created = panel.locator('.panel-row').filter({ hasText: 'Created' });
    const updated = panel.locator('.panel-row').filter({ hasText: 'Last update' });
    await visible(created.locator('time'));
    expect(await created.innerText()).not.toContain(' by ');
    expect(await updated.innerText()).not.toContain(' by ');

    const locales = panel.getByTestId('entry-locales');
    const badge = (code: string) => locales.getByTestId(`locale-${code}`).locator('.badge');
    expect(await badge('en').innerText()).toBe('Modified');
    expect(await badge('fr').innerText()).toBe('Draft');
    expect(await badge('de').innerText()).toBe('Not created');
    expect(await locales.getByTestId('locale-en').getByRole('link').getAttribute('aria-current')).toBe('page');

    // Saved in the admin UI: the owner is named as the last editor, not as the creator.
    await content.field('Summary').fill('Edited by the owner');
    await content.act('Save draft', 'Saved');
    await eventually(() => updated.innerText()).toContain('by Ada Owner');
    expect(await created.innerText()).not.toContain(' by ');
    await screenshot(page, 'content-entry-panel');
    await page.emulateMedia({ colorScheme: 'dark' });
    await screenshot(page, 'dark-content-entry-panel');
    await page.emulateMedia({ colorScheme: 'light' });

    // Each locale opens from the panel.
    await locales.getByTestId('locale-fr').getByRole('link').click();
    await page.waitForURL(/locale=fr/);
    await visible(page.getByRole('heading', { level: 1, name: 'Crumble aux poires' }));
    expect(await locales.getByTestId('locale-fr').getByRole('link').getAttribute('aria-current')).toBe('page');

    // An entry created in the admin UI names its creator.
    await page.goto('/admin/content/api%3A%3Aarticle.article/new?locale=en');
    await content.field('Title').fill('Owner made');
    await content.act('Save draft', 'Saved');
    await eventually(() => page.getByRole('complementary', { name: 'Entry information' }).locator('.panel-row').filter({ hasText: 'Created' }).innerText()).toContain('by Ada Owner');
  });

  it('the relation picker shows whether each target is a draft, published or modified, in the results and in the chosen list', async () => {
    const { page, server } = e2e;
    const content = new ContentPage(page);
    const token = await server.token('full-access');
    await data(server, '/api/tags?status=draft', { method: 'POST', token, json: { data: { label: 'Tag draft' } } }, 201);
    await data(server, '/api/tags', { method: 'POST', token, json: { data: { label: 'Tag live' } } }, 201);
    const edited = await data(server, '/api/tags', { method: 'POST', token, json: { data: { label: 'Tag edited' } } }, 201);
    await data(server, `/api/tags/${String(edited.documentId)}?status=draft`, { method: 'PUT', token, json: { data: { label: 'Tag edited again' } } });
    await data(server, '/api/categories', { method: 'POST', token, json: { data: { name: 'Orchard' } } }, 201);

    await page.goto('/admin/content/api%3A%3Aarticle.article/new?locale=en');
    await content.field('Title').fill('Tagged pie');
    const box = page.getByRole('combobox', { name: 'Add to Tags' });
    await box.fill('Tag');
    const option = (name: string) => page.getByRole('option', { name, exact: true });
    await visible(option('Tag edited again'));
    expect(await option('Tag draft').getByTestId('relation-status').innerText()).toBe('Draft');
    expect(await option('Tag live').getByTestId('relation-status').innerText()).toBe('Published');
    expect(await option('Tag edited again').getByTestId('relation-status').innerText()).toBe('Modified');
    await option('Tag edited again').scrollIntoViewIfNeeded();
    await screenshot(page, 'content-relation-statuses');
    await option('Tag draft').click();
    await content.pickRelation('Tags', 'live', 'Tag live');
    // A type without Draft & publish has no status to show.
    await page.getByRole('combobox', { name: 'Add to Category' }).fill('Orch');
    await visible(option('Orchard'));
    expect(await option('Orchard').getByTestId('relation-status').count()).toBe(0);
    await option('Orchard').click();

    const chosen = () => page.getByRole('group', { name: 'Tags' }).getByTestId('relation-item');
    expect(await chosen().locator('.relation-label').allInnerTexts()).toEqual(['Tag draft', 'Tag live']);
    expect(await chosen().getByTestId('relation-status').allInnerTexts()).toEqual(['Draft', 'Published']);
    await content.act('Save draft', 'Saved');
    // Read back from the server after a reload: the statuses come with the entry.
    await page.reload();
    await eventually(() => chosen().getByTestId('relation-status').allInnerTexts()).toEqual(['Draft', 'Published']);
    expect(await page.getByRole('group', { name: 'Category' }).getByTestId('relation-status').count()).toBe(0);
  });

  it('a component is created from the field dialog (category, display name, icon) and chosen for the new field', async () => {
    const { page, server, schemasDir } = e2e;
    const builder = new BuilderPage(page);
    await builder.open();
    await page.getByRole('link', { name: 'Article', exact: true }).click();
    await visible(page.getByRole('button', { name: 'Add a field' }));
    await builder.addField('Component', 'hero', async (d) => {
      await d.getByRole('button', { name: 'Create a new component' }).click();
      const form = d.getByRole('group', { name: 'New component' });
      await form.getByLabel('Component category').fill('sections');
      await form.getByLabel('Component display name').fill('Hero banner');
      await form.getByLabel('Component icon').selectOption('star');
      await screenshot(page, 'builder-new-component-inline');
      await form.getByRole('button', { name: 'Create component' }).click();
      await eventually(() => d.getByLabel('Component', { exact: true }).inputValue()).toBe('sections.hero-banner');
      await eventually(() => d.getByLabel('Component', { exact: true }).locator('option:checked').innerText()).toBe('Hero banner (sections.hero-banner)');
      await d.getByLabel('Repeatable (a list of entries)').check();
    });
    await builder.save('Article saved');

    const component = await data(server, '/admin/api/components/sections.hero-banner', { token: session });
    expect(component).toMatchObject({ uid: 'sections.hero-banner', category: 'sections', schema: { info: { displayName: 'Hero banner', icon: 'star' } } });
    const file = JSON.parse(await readFile(join(schemasDir, 'src/components/sections/hero-banner.json'), 'utf8')) as unknown;
    expect(file).toMatchObject({ info: { displayName: 'Hero banner', icon: 'star' }, attributes: {} });
    const article = JSON.parse(await readFile(join(schemasDir, 'src/api/article/content-types/article/schema.json'), 'utf8')) as { attributes: Record<string, unknown> };
    expect(article.attributes.hero).toMatchObject({ type: 'component', component: 'sections.hero-banner', repeatable: true });
  });
});
