import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginAsOwner } from './support/auth-pages.js';
import { data } from './support/api.js';
import { ContentPage } from './support/content-page.js';
import { captureFailures, registerOwner, startE2E, type E2E } from './support/harness.js';
import { visible } from './support/wait.js';

const text = (t: string, marks: Record<string, boolean> = {}) => ({ type: 'text', text: t, ...marks });
const paragraph = (...children: unknown[]) => ({ type: 'paragraph', children });

describe('blocks editor keys, as Strapi handles them (checked on the saved JSON)', () => {
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

  /** Opens a new article, titles it and puts the cursor in its body. */
  async function newArticle(page: Page, title: string): Promise<ContentPage> {
    await page.goto('/admin/content/api%3A%3Aarticle.article/new?locale=en');
    const content = new ContentPage(page);
    await visible(content.field('Title'));
    await content.field('Title').fill(title);
    await content.blocks('Body').click();
    return content;
  }
  /** Saves the draft and answers its body as the API serves it. */
  async function savedBody(content: ContentPage, page: Page): Promise<unknown> {
    await content.act('Save draft', 'Saved');
    await page.waitForURL(/\/content\/api%3A%3Aarticle\.article\/[a-z0-9]+\?/);
    const article = await data(e2e.server, `/api/articles/${content.documentId()}?status=draft`, { token: session });
    return article.body;
  }
  const style = (page: Page, label: string) => page.getByLabel('Block style').selectOption({ label });

  it('Enter after a heading starts a paragraph; in a quote or code block it adds a line, twice leaves it; on an empty item it leaves the list', async () => {
    const { page } = e2e;
    const content = await newArticle(page, 'Keys');
    const key = page.keyboard;
    await style(page, 'Heading 2');
    await key.type('Title');
    await key.press('Enter');
    await key.type('Split here');
    for (let i = 0; i < ' here'.length; i++) await key.press('ArrowLeft');
    await style(page, 'Heading 3');
    await key.press('Enter');
    await key.press('End');
    await key.press('Enter');
    await style(page, 'Quote');
    await key.type('Said once');
    await key.press('Enter');
    await key.type('twice');
    await key.press('Enter');
    await key.press('Enter');
    await key.type('After the quote');
    await key.press('Enter');
    await style(page, 'Code block');
    await key.type('let a = 1;');
    await key.press('Enter');
    await key.press('Enter');
    await key.type('After the code');
    await key.press('Enter');
    await page.getByRole('button', { name: 'Bulleted list' }).click();
    await key.type('one');
    await key.press('Enter');
    await key.type('two');
    await key.press('Enter');
    await key.press('Enter');
    await key.type('After the list');
    await key.press('Enter');
    await key.press('Shift+Enter');
    await key.type('soft break');

    expect(await savedBody(content, page)).toEqual([
      { type: 'heading', level: 2, children: [text('Title')] },
      { type: 'heading', level: 3, children: [text('Split')] },
      paragraph(text(' here')),
      { type: 'quote', children: [text('Said once\ntwice')] },
      paragraph(text('After the quote')),
      { type: 'code', language: 'plaintext', children: [text('let a = 1;')] },
      paragraph(text('After the code')),
      { type: 'list', format: 'unordered', children: [{ type: 'list-item', children: [text('one')] }, { type: 'list-item', children: [text('two')] }] },
      paragraph(text('After the list')),
      paragraph(text('\nsoft break')),
    ]);
  });

  it('Enter on the only, empty item of a list turns it into a paragraph; Backspace at the start of the first item too; Enter in a middle empty item splits the list', async () => {
    const { page } = e2e;
    const content = await newArticle(page, 'Lists');
    const key = page.keyboard;
    await key.type('Intro');
    await key.press('Enter');
    await page.getByRole('button', { name: 'Numbered list' }).click();
    await key.press('Enter');
    await key.type('No longer a list');
    await key.press('Enter');
    await page.getByRole('button', { name: 'Bulleted list' }).click();
    await key.type('first');
    await key.press('Enter');
    await key.type('second');
    await key.press('Home');
    await key.press('Enter');
    await key.press('ArrowUp');
    await key.press('Enter');
    await key.press('ArrowDown');
    await key.press('End');
    await key.press('Enter');
    await key.type('third');
    await key.press('ArrowUp');
    await key.press('ArrowUp');
    await key.press('ArrowUp');
    await key.press('Home');
    await key.press('Backspace');

    expect(await savedBody(content, page)).toEqual([
      paragraph(text('Intro')),
      paragraph(text('No longer a list')),
      paragraph(text('first')),
      paragraph(text('')),
      { type: 'list', format: 'unordered', children: [{ type: 'list-item', children: [text('second')] }, { type: 'list-item', children: [text('third')] }] },
    ]);
  });

  it('deleting the text of a link removes the link while editing; a stored empty link is dropped on save', async () => {
    const { page, server } = e2e;
    const content = await newArticle(page, 'Links');
    const key = page.keyboard;
    await key.type('Visit site');
    for (let i = 0; i < 'site'.length; i++) await key.press('Shift+ArrowLeft');
    await page.getByRole('button', { name: 'Link', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Add a link' });
    await dialog.getByLabel('Link address').fill('https://example.com/');
    await key.press('Enter');
    await dialog.waitFor({ state: 'hidden' });
    await visible(content.blocks('Body').getByRole('link', { name: 'site' }));
    await content.blocks('Body').getByRole('link', { name: 'site' }).click();
    await key.press('End');
    for (let i = 0; i < 'site'.length; i++) await key.press('Backspace');
    await key.type('home');
    expect(await content.blocks('Body').getByRole('link').count()).toBe(0);
    expect(await savedBody(content, page)).toEqual([paragraph(text('Visit home'))]);

    const stored = await data(
      server,
      '/api/articles?status=draft',
      { method: 'POST', token: session, json: { data: { title: 'Stored', body: [paragraph(text('Gone: '), { type: 'link', url: 'https://example.com/', children: [text('')] }, text(''))] } } },
      201,
    );
    await page.goto(`/admin/content/api%3A%3Aarticle.article/${String(stored.documentId)}?locale=en`);
    await visible(content.field('Title'));
    await content.field('Title').fill('Stored again');
    expect(await savedBody(content, page)).toEqual([paragraph(text('Gone: '), text(''))]);
    expect(e2e.problems).toEqual([]);
  });
});
