import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginAsOwner } from './support/auth-pages.js';
import { data, pluck } from './support/api.js';
import { ContentPage } from './support/content-page.js';
import { captureFailures, registerOwner, startE2E, type E2E } from './support/harness.js';
import { eventually, isFocused, tabTo, visible } from './support/wait.js';

describe('keyboard-only pass through the edit form', () => {
  let e2e: E2E;
  let session: string;
  beforeAll(async () => {
    e2e = await startE2E();
    session = await registerOwner(e2e.server);
    await data(e2e.server, '/api/categories', { method: 'POST', token: session, json: { data: { name: 'Kitchen' } } }, 201);
    for (const label of ['Sweet', 'Quick']) await data(e2e.server, '/api/tags', { method: 'POST', token: session, json: { data: { label } } }, 201);
  });
  afterAll(async () => {
    await e2e?.close();
  });
  captureFailures(() => e2e);

  it('fills every kind of field, reorders, adds components, saves and publishes without the mouse', async () => {
    const { page, server } = e2e;
    await loginAsOwner(page);
    await page.goto('/admin/content/api%3A%3Aarticle.article/new?locale=en');
    const content = new ContentPage(page);
    const key = page.keyboard;
    await visible(content.field('Title'));

    // The form opens with its first field focused.
    await eventually(() => isFocused(content.field('Title'))).toBe(true);
    await key.type('Keyboard cake');
    await tabTo(page, page.getByRole('button', { name: 'Generate Slug from Title' }));
    await key.press('Enter');
    expect(await content.field('Slug').inputValue()).toBe('keyboard-cake');

    await tabTo(page, content.blocks('Body'));
    await key.type('Typed without a mouse, ');
    await key.press('Control+b');
    await key.type('bold');
    await key.press('Control+b');
    await key.press('Enter');
    await key.type('Second paragraph.');
    // A link on the last word: select it, go back to the toolbar's Link button, type the address.
    for (let i = 0; i < 'paragraph.'.length; i++) await key.press('Shift+ArrowLeft');
    await tabTo(page, page.getByRole('button', { name: 'Link', exact: true }), { back: true });
    await key.press('Enter');
    const linkDialog = page.getByRole('dialog', { name: 'Add a link' });
    expect(await isFocused(linkDialog.getByLabel('Link address'))).toBe(true);
    await key.type('https://example.com/plums');
    await key.press('Enter');
    await linkDialog.waitFor({ state: 'hidden' });

    await tabTo(page, content.field('Views'));
    await key.type('7');
    await tabTo(page, content.field('Featured'));
    await key.press('Space');
    expect(await content.field('Featured').isChecked()).toBe(true);

    const category = page.getByRole('combobox', { name: 'Add to Category' });
    await tabTo(page, category);
    await key.type('Kit');
    await visible(page.getByRole('option', { name: 'Kitchen' }));
    await key.press('Enter');
    expect(await content.relations('Category')).toEqual(['Kitchen']);

    const tags = page.getByRole('combobox', { name: 'Add to Tags' });
    await tabTo(page, tags);
    for (const [search, label] of [['Swe', 'Sweet'], ['Qui', 'Quick']] as const) {
      await key.type(search);
      await visible(page.getByRole('option', { name: label }));
      await key.press('Enter');
    }
    expect(await content.relations('Tags')).toEqual(['Sweet', 'Quick']);
    // dnd-kit's keyboard sensor: pick up with Space, move with the arrows, drop with Space.
    const handle = page.getByRole('group', { name: 'Tags' }).getByRole('button', { name: 'Reorder Quick' });
    await tabTo(page, handle, { back: true });
    // Each step waits on what a screen reader hears from dnd-kit's live region. The sensor starts
    // listening for arrows a moment after the pick-up, so the arrow is pressed until the move is heard.
    const liveRegion = page.locator('[id^="DndLiveRegion"]');
    const heard = async () => (await liveRegion.allTextContents()).join(' ');
    await key.press('Space');
    await eventually(heard).toContain('Quick is over position 2 of 2.');
    await eventually(async () => {
      if (!(await heard()).includes('position 1 of 2')) await key.press('ArrowUp');
      return heard();
    }).toContain('Quick is over position 1 of 2.');
    await key.press('Space');
    await eventually(heard).toContain('Quick dropped at position 1 of 2.');
    await eventually(() => content.relations('Tags')).toEqual(['Quick', 'Sweet']);

    await tabTo(page, page.getByRole('button', { name: 'Add Seo' }));
    await key.press('Enter');
    await tabTo(page, content.field('Meta title'));
    await key.type('Made with keys');

    const addBlock = page.getByRole('button', { name: 'Add a component to Blocks' });
    await tabTo(page, addBlock);
    await key.press('Enter');
    const chooser = page.getByRole('dialog', { name: 'Add to Blocks' });
    await visible(chooser);
    expect(await isFocused(chooser.getByRole('button', { name: /^Quote/ }))).toBe(true);
    await key.press('Enter');
    await chooser.waitFor({ state: 'hidden' });
    expect(await isFocused(addBlock)).toBe(true);
    await tabTo(page, content.field('Text'), { back: true });
    await key.type('Keys are enough.');
    await tabTo(page, content.field('Author'));
    await key.type('Ada');

    await tabTo(page, addBlock);
    await key.press('Enter');
    await visible(chooser);
    await tabTo(page, chooser.getByRole('button', { name: /^Rich text/ }));
    await key.press('Enter');
    await chooser.waitFor({ state: 'hidden' });
    const moveUp = page.getByRole('button', { name: 'Move Rich text: #2 up' });
    await tabTo(page, moveUp, { back: true });
    await key.press('Enter');
    await eventually(() => page.getByTestId('component-row').locator('.row-toggle').allInnerTexts()).toEqual(['▾ Rich text: #1', '▾ Quote: Keys are enough.']);

    // Enter in a text field submits the form: saves the draft.
    await tabTo(page, content.field('Author'));
    await key.press('Enter');
    await visible(page.getByTestId('toast').filter({ hasText: 'Saved' }));
    await page.waitForURL(/\/content\/api%3A%3Aarticle\.article\/[a-z0-9]+\?locale=en$/);
    const id = content.documentId();
    const draft = await data(server, `/api/articles/${id}?status=draft&populate=*`, { token: session });
    expect(draft).toMatchObject({
      title: 'Keyboard cake',
      slug: 'keyboard-cake',
      views: 7,
      featured: true,
      category: { name: 'Kitchen' },
      seo: { metaTitle: 'Made with keys' },
      body: [
        { type: 'paragraph', children: [{ type: 'text', text: 'Typed without a mouse, ' }, { type: 'text', text: 'bold', bold: true }] },
        { type: 'paragraph', children: [{ type: 'text', text: 'Second ' }, { type: 'link', url: 'https://example.com/plums', children: [{ type: 'text', text: 'paragraph.' }] }, { type: 'text', text: '' }] },
      ],
      blocks: [{ __component: 'shared.rich-text' }, { __component: 'shared.quote', text: 'Keys are enough.', author: 'Ada' }],
    });
    expect(pluck(draft.tags, 'label')).toEqual(['Quick', 'Sweet']);

    // Publish, reached from the form by keyboard (the saved entry's page opened with Title focused).
    await eventually(() => isFocused(content.field('Title'))).toBe(true);
    await tabTo(page, page.getByRole('button', { name: 'Publish' }), { back: true });
    await key.press('Enter');
    await visible(page.getByTestId('toast').filter({ hasText: 'Published' }));
    await eventually(() => content.status().innerText()).toBe('Published');
    expect(e2e.problems).toEqual([]);
  });
});
