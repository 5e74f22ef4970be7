import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppNav, loginAsOwner } from './support/auth-pages.js';
import { call, data, pluck } from './support/api.js';
import { ContentPage } from './support/content-page.js';
import { captureFailures, registerOwner, screenshot, startE2E, type E2E } from './support/harness.js';
import { clickUntil, eventually, visible } from './support/wait.js';

describe('3. content manager', () => {
  let e2e: E2E;
  let session: string;
  beforeAll(async () => {
    e2e = await startE2E();
    session = await registerOwner(e2e.server);
    const { server } = e2e;
    // Arrange through the content API, as any client would.
    for (const name of ['Kitchen', 'Garden']) await data(server, '/api/categories', { method: 'POST', token: session, json: { data: { name } } }, 201);
    for (const label of ['Sweet', 'Quick']) await data(server, '/api/tags', { method: 'POST', token: session, json: { data: { label } } }, 201);
    await data(server, '/api/articles', { method: 'POST', token: session, json: { data: { title: 'Apple pie', views: 10 } } }, 201);
    await data(server, '/api/articles?status=draft', { method: 'POST', token: session, json: { data: { title: 'Banana bread', views: 30 } } }, 201);
    const cherry = await data(server, '/api/articles', { method: 'POST', token: session, json: { data: { title: 'Cherry tart', views: 20 } } }, 201);
    await data(server, `/api/articles/${String(cherry.documentId)}?status=draft`, { method: 'PUT', token: session, json: { data: { summary: 'Now with cream' } } });
    await data(server, '/admin/api/i18n/locales', { method: 'POST', token: session, json: { code: 'fr', name: 'French (fr)' } }, 201);
  });
  afterAll(async () => {
    await e2e?.close();
  });
  captureFailures(() => e2e);

  it('lists entries with status badges, column sort, search, filters and a locale switch', async () => {
    const { page } = e2e;
    await loginAsOwner(page);
    const content = new ContentPage(page);
    await content.openType('Article');
    await visible(content.table().getByRole('link', { name: 'Cherry tart' }));
    const row = (title: string) => content.table().getByRole('row').filter({ hasText: title }).getByTestId('status-badge');
    expect(await row('Apple pie').innerText()).toBe('Published');
    expect(await row('Banana bread').innerText()).toBe('Draft');
    expect(await row('Cherry tart').innerText()).toBe('Modified');
    await screenshot(page, 'content-list');

    await content.sortBy('Title');
    await eventually(() => content.titles()).toEqual(['Apple pie', 'Banana bread', 'Cherry tart']);
    expect(await content.table().getByRole('columnheader', { name: /Title/ }).getAttribute('aria-sort')).toBe('ascending');
    await content.sortBy('Title');
    await eventually(() => content.titles()).toEqual(['Cherry tart', 'Banana bread', 'Apple pie']);
    await content.sortBy('Views');
    await eventually(() => content.titles()).toEqual(['Apple pie', 'Cherry tart', 'Banana bread']);

    await page.getByLabel('Search').fill('banana');
    await eventually(() => content.titles()).toEqual(['Banana bread']);
    await page.getByLabel('Search').fill('');
    await eventually(() => content.titles()).toHaveLength(3);

    await page.getByRole('button', { name: 'Add filter' }).click();
    await page.getByLabel('Filter field').selectOption('views');
    await page.getByLabel('Condition').selectOption('$gt');
    await page.getByLabel('Filter value').fill('15');
    await page.getByRole('button', { name: 'Apply filter' }).click();
    await eventually(() => content.titles()).toEqual(['Cherry tart', 'Banana bread']);
    await page.getByRole('button', { name: /^Remove filter views/ }).click();
    await eventually(() => content.titles()).toHaveLength(3);

    await page.getByLabel('Locale').selectOption('fr');
    await visible(page.getByText('No article entries yet'));
    await page.getByLabel('Locale').selectOption('en');
    await eventually(() => content.titles()).toHaveLength(3);
    expect(e2e.problems).toEqual([]);
  });

  it('creates, publishes, edits as draft, discards, translates and deletes a document', async () => {
    const { page, server } = e2e;
    const content = new ContentPage(page);
    await content.openType('Article');
    await content.create();
    await content.field('Title').fill('Plum cake');
    await page.getByRole('button', { name: 'Generate Slug from Title' }).click();
    expect(await content.field('Slug').inputValue()).toBe('plum-cake');

    const body = content.blocks('Body');
    await body.click();
    await page.keyboard.type('A cake for late summer. ');
    await page.keyboard.press('Control+b');
    await page.keyboard.type('Easy');
    await page.keyboard.press('Control+b');
    await page.keyboard.press('Enter');
    await page.getByLabel('Block style').selectOption('heading-2');
    await page.keyboard.type('Steps');
    await page.keyboard.press('Enter');
    await page.getByLabel('Block style').selectOption('paragraph');
    await page.getByRole('button', { name: 'Bulleted list' }).click();
    await page.keyboard.type('Mix');
    await page.keyboard.press('Enter');
    await page.keyboard.type('Bake');

    await content.field('Views').fill('5');
    await content.field('Featured').check();
    await content.pickRelation('Category', 'Kit', 'Kitchen');
    await content.pickRelation('Tags', 'Swe', 'Sweet');
    await content.pickRelation('Tags', 'Qui', 'Quick');
    expect(await content.relations('Tags')).toEqual(['Sweet', 'Quick']);
    const tags = page.getByRole('group', { name: 'Tags' });
    await content.drag(tags.getByRole('button', { name: 'Reorder Quick' }), tags.getByRole('button', { name: 'Reorder Sweet' }));
    await eventually(() => content.relations('Tags')).toEqual(['Quick', 'Sweet']);

    // The first click after a mouse drag may be swallowed by dnd-kit: click until the component is there.
    await clickUntil(page.getByRole('button', { name: 'Add Seo' }), async () => (await content.field('Meta title').count()) === 1);
    await content.field('Meta title').fill('Plum cake recipe');
    await page.getByRole('button', { name: 'Add a component to Blocks' }).click();
    await page.getByRole('dialog', { name: 'Add to Blocks' }).getByRole('button', { name: /^Quote/ }).click();
    await content.field('Text').fill('Best with cream.');
    await content.field('Author').fill('Ada');
    await page.evaluate('window.scrollTo(0, 0)');
    await screenshot(page, 'content-edit');

    await content.act('Save draft', 'Saved');
    await page.waitForURL(/\/content\/api%3A%3Aarticle\.article\/[a-z0-9]+\?locale=en$/);
    await eventually(() => content.status().innerText()).toBe('Draft');
    const id = content.documentId();
    const draft = await data(server, `/api/articles/${id}?status=draft&populate=*`, { token: session });
    expect(draft).toMatchObject({
      title: 'Plum cake',
      slug: 'plum-cake',
      views: 5,
      featured: true,
      category: { name: 'Kitchen' },
      seo: { metaTitle: 'Plum cake recipe' },
      blocks: [{ __component: 'shared.quote', text: 'Best with cream.', author: 'Ada' }],
      body: [
        { type: 'paragraph', children: [{ type: 'text', text: 'A cake for late summer. ' }, { type: 'text', text: 'Easy', bold: true }] },
        { type: 'heading', level: 2, children: [{ type: 'text', text: 'Steps' }] },
        { type: 'list', format: 'unordered', children: [{ type: 'list-item', children: [{ type: 'text', text: 'Mix' }] }, { type: 'list-item', children: [{ type: 'text', text: 'Bake' }] }] },
      ],
    });
    expect(pluck(draft.tags, 'label')).toEqual(['Quick', 'Sweet']);
    expect((await call(server, `/api/articles/${id}`, { token: session })).status).toBe(404);

    await content.act('Publish', 'Published');
    await eventually(() => content.status().innerText()).toBe('Published');
    expect(await data(server, `/api/articles/${id}`, { token: session })).toMatchObject({ title: 'Plum cake' });

    await content.field('Title').fill('Plum cake, improved');
    await content.act('Save draft', 'Saved');
    await eventually(() => content.status().innerText()).toBe('Modified');
    expect(await data(server, `/api/articles/${id}`, { token: session })).toMatchObject({ title: 'Plum cake' });
    expect(await data(server, `/api/articles/${id}?status=draft`, { token: session })).toMatchObject({ title: 'Plum cake, improved' });

    await page.getByRole('button', { name: 'Discard changes' }).click();
    await page.getByRole('dialog', { name: 'Discard the draft?' }).getByRole('button', { name: 'Discard changes' }).click();
    await eventually(() => content.status().innerText()).toBe('Published');
    await eventually(() => content.field('Title').inputValue()).toBe('Plum cake');

    await content.act('Unpublish', 'Unpublished');
    await eventually(() => content.status().innerText()).toBe('Draft');
    expect((await call(server, `/api/articles/${id}`, { token: session })).status).toBe(404);

    // A French version, started from the English one.
    await page.getByLabel('Locale').selectOption('fr');
    await page.getByRole('button', { name: 'Create the fr version from en' }).click();
    expect(await content.field('Title').inputValue()).toBe('Plum cake');
    await content.field('Title').fill('Gâteau aux prunes');
    await content.act('Save draft', 'Saved');
    await eventually(() => content.status().innerText()).toBe('Draft');
    expect(await data(server, `/api/articles/${id}?status=draft&locale=fr`, { token: session })).toMatchObject({ title: 'Gâteau aux prunes', locale: 'fr' });

    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.getByRole('dialog', { name: 'Delete this entry?' }).getByRole('button', { name: 'Delete', exact: true }).click();
    await page.waitForURL(/\/content\/api%3A%3Aarticle\.article\?locale=fr$/);
    expect((await call(server, `/api/articles/${id}?status=draft&locale=fr`, { token: session })).status).toBe(404);
    expect(await data(server, `/api/articles/${id}?status=draft&locale=en`, { token: session })).toMatchObject({ title: 'Plum cake' });
    expect(e2e.problems).toEqual([]);
  });

  it('shows validation errors at the field they concern', async () => {
    const { page } = e2e;
    const content = new ContentPage(page);
    await content.openType('Specimen');
    await content.create();
    await content.field('S string').fill('x');
    await content.field('S int').fill('500');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const sString = page.locator('.field').filter({ has: page.getByLabel('S string', { exact: true }) });
    await visible(sString.getByRole('alert'));
    expect(await content.field('S string').getAttribute('aria-invalid')).toBe('true');
    await visible(page.locator('.field').filter({ has: page.getByLabel('S int', { exact: true }) }).getByRole('alert'));
    await visible(page.locator('.field').filter({ has: page.getByLabel('S required', { exact: true }) }).getByRole('alert'));
    await screenshot(page, 'content-validation');

    await content.field('S string').fill('fine');
    await content.field('S int').fill('50');
    await content.field('S required').fill('here');
    await content.act('Save', 'Saved');
    await visible(page.getByRole('heading', { level: 1, name: 'fine' }));
    expect(await page.getByRole('alert').count()).toBe(0);
    expect(e2e.problems).toEqual([]);
  });

  it('edits the one document of a single type', async () => {
    const { page, server } = e2e;
    const content = new ContentPage(page);
    await new AppNav(page).go('Content');
    await page.getByRole('navigation', { name: 'Content-types' }).getByRole('link', { name: 'Homepage' }).click();
    await visible(content.field('Headline'));
    await content.field('Headline').fill('Welcome to the bakery');
    await content.act('Publish', 'Published');
    await eventually(() => content.status().innerText()).toBe('Published');
    expect(await data(server, '/api/homepage', { token: session })).toMatchObject({ headline: 'Welcome to the bakery' });
    // Opening the type again finds the same document.
    await new AppNav(page).go('Content');
    await page.getByRole('navigation', { name: 'Content-types' }).getByRole('link', { name: 'Homepage' }).click();
    await eventually(() => content.field('Headline').inputValue()).toBe('Welcome to the bakery');
    expect(e2e.problems).toEqual([]);
  });
});
