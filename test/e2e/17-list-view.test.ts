import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture } from '../uploads/helpers.js';
import { loginAsOwner } from './support/auth-pages.js';
import { call, data, dataList } from './support/api.js';
import { ContentPage } from './support/content-page.js';
import { captureFailures, registerOwner, screenshot, startE2E, type E2E } from './support/harness.js';
import { dismissToasts, eventually, visible } from './support/wait.js';

/** The header texts of the entries table (the selection column has none). */
async function headers(page: Page): Promise<string[]> {
  const texts = await page.getByRole('table').getByRole('columnheader').allTextContents();
  return texts.map((t) => t.replace(/[▲▼]/g, '').trim()).filter((t) => t !== '');
}

describe('17. list view: column settings, page size, bulk publish and delete', () => {
  let e2e: E2E;
  let session = '';
  beforeAll(async () => {
    e2e = await startE2E();
    session = await registerOwner(e2e.server);
    const { server } = e2e;
    const post = (path: string, body: Record<string, unknown>) => data(server, path, { method: 'POST', token: session, json: { data: body } }, 201);
    const form = new FormData();
    form.append('files', new Blob([fixture('red-400x300.png')], { type: 'image/png' }), 'red.png');
    const uploaded = await server.request('/api/upload', { method: 'POST', body: form, token: session });
    const [file] = (await uploaded.json()) as { id: number }[];
    const travel = String((await post('/api/categories', { name: 'Travel' })).documentId);
    await post('/api/articles?status=draft', { title: 'Lisbon walk', cover: file?.id, category: travel });
    for (let i = 1; i <= 24; i += 1) await post('/api/articles?status=draft', { title: `Note ${String(i).padStart(2, '0')}` });
    for (const letter of ['A', 'B', 'C', 'D', 'E']) await post('/api/articles?status=draft', { title: `Bulk ${letter}` });
    // A draft may leave its required title empty; publishing it is refused.
    await post('/api/articles?status=draft', { slug: 'bulk-untitled' });
  });
  afterAll(async () => {
    await e2e?.close();
  });
  captureFailures(() => e2e);

  it('chooses and orders columns, with a thumbnail and a relation main field, kept after reload', async () => {
    const { page } = e2e;
    await loginAsOwner(page);
    const content = new ContentPage(page);
    await content.openType('Article');
    expect(await headers(page)).toEqual(['Title', 'Slug', 'Views', 'Rating', 'Status', 'Locales', 'Last update']);

    await page.getByRole('button', { name: 'Columns' }).click();
    const dialog = page.getByRole('dialog', { name: 'Article list settings' });
    await visible(dialog);
    for (const off of ['Slug', 'Views', 'Rating', 'Last update']) await dialog.getByRole('checkbox', { name: off, exact: true }).uncheck();
    await dialog.getByRole('checkbox', { name: /^Cover/ }).check();
    await dialog.getByRole('checkbox', { name: /^Category/ }).check();
    const order = async () => (await dialog.getByTestId('column-order-item').allInnerTexts()).map((t) => t.replace('⋮⋮', '').trim());
    expect(await order()).toEqual(['Title', 'Status', 'Locales', 'Cover', 'Category']);
    // Cover moves to the front with the keyboard (Space, arrows, Space).
    // Each step waits on dnd-kit's live region, as a screen reader would hear it.
    const heard = async () => (await page.locator('[id^="DndLiveRegion"]').allTextContents()).join(' ');
    await dialog.getByRole('button', { name: 'Reorder Cover' }).focus();
    await page.keyboard.press('Space');
    // The sensor listens for arrows a moment after the pick-up: press until the move is heard.
    await eventually(async () => {
      if (!(await heard()).includes('Cover is over position 1 of 5.')) await page.keyboard.press('ArrowUp');
      return heard();
    }).toContain('Cover is over position 1 of 5.');
    await page.keyboard.press('Space');
    await eventually(heard).toContain('Cover dropped at position 1 of 5.');
    await eventually(order).toEqual(['Cover', 'Title', 'Status', 'Locales', 'Category']);
    await screenshot(page, 'content-list-settings');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await eventually(() => dialog.count()).toBe(0);

    await eventually(() => headers(page)).toEqual(['Cover', 'Title', 'Status', 'Locales', 'Category']);
    const lisbon = page.getByRole('row').filter({ hasText: 'Lisbon walk' });
    await visible(lisbon.getByRole('img', { name: 'red.png' }));
    expect(await lisbon.getByRole('img', { name: 'red.png' }).getAttribute('src')).toMatch(/^\/uploads\/thumbnail_/);
    await visible(lisbon.getByRole('cell', { name: 'Travel', exact: true }));
    await visible(lisbon.getByRole('cell', { name: 'en', exact: true }));

    await screenshot(page, 'content-list-columns');
    await page.reload();
    await eventually(() => headers(page)).toEqual(['Cover', 'Title', 'Status', 'Locales', 'Category']);
    await visible(page.getByRole('row').filter({ hasText: 'Lisbon walk' }).getByRole('img', { name: 'red.png' }));
    // Kept on the server for the type, not in this browser.
    expect((await data(e2e.server, '/admin/api/content-manager/api::article.article/list-view', { token: session })).listView).toEqual({
      columns: ['cover', 'title', 'status', 'locale', 'category'],
      pageSize: 20,
    });
  });

  it('shows 50 entries a page when asked, with the size in the URL', async () => {
    const { page } = e2e;
    const content = new ContentPage(page);
    await content.openType('Article');
    await eventually(() => content.titles()).toHaveLength(20);
    await page.getByLabel('Entries per page').selectOption('50');
    await eventually(() => content.titles()).toHaveLength(31);
    expect(new URL(page.url()).searchParams.get('pageSize')).toBe('50');
    await page.reload();
    await eventually(() => content.titles()).toHaveLength(31);
    expect(await page.getByLabel('Entries per page').inputValue()).toBe('50');
  });

  it('publishes 3 selected entries, reports the one that failed, deletes 2 and unpublishes 2', async () => {
    const { page, server } = e2e;
    const content = new ContentPage(page);
    await content.openType('Article');
    await page.getByLabel('Search').fill('Bulk');
    await eventually(async () => (await content.titles()).length).toBe(6);

    // Select all on the page, then clear.
    await page.getByRole('checkbox', { name: 'Select all entries on this page' }).check();
    await visible(page.getByRole('region', { name: 'Selected entries' }).getByText('6 entries selected'));
    await page.getByRole('button', { name: 'Clear selection' }).click();
    await eventually(() => page.getByRole('region', { name: 'Selected entries' }).count()).toBe(0);

    for (const title of ['Bulk A', 'Bulk B', 'Bulk C']) await page.getByRole('checkbox', { name: `Select ${title}` }).check();
    const bar = page.getByRole('region', { name: 'Selected entries' });
    await visible(bar.getByText('3 entries selected'));
    await screenshot(page, 'content-list-bulk');
    await dismissToasts(page);
    await bar.getByRole('button', { name: 'Publish', exact: true }).click();
    const ask = page.getByRole('dialog', { name: 'Publish 3 entries?' });
    await ask.getByRole('button', { name: 'Publish 3 entries' }).click();
    await visible(page.getByTestId('toast').filter({ hasText: 'Published 3 entries' }));
    for (const title of ['Bulk A', 'Bulk B', 'Bulk C']) await visible(page.getByRole('row').filter({ hasText: title }).getByTestId('status-badge').filter({ hasText: /published/i }));
    const published = await dataList(server, '/api/articles?filters[title][$startsWith]=Bulk&sort=title', { token: session });
    expect(published.map((a) => a.title)).toEqual(['Bulk A', 'Bulk B', 'Bulk C']);

    // The untitled draft cannot be published: the others are, and it is named with the reason.
    const untitled = page.getByRole('row').filter({ hasText: '(untitled)' });
    await untitled.getByRole('checkbox').check();
    await page.getByRole('checkbox', { name: 'Select Bulk D' }).check();
    await bar.getByRole('button', { name: 'Publish', exact: true }).click();
    await page.getByRole('dialog', { name: 'Publish 2 entries?' }).getByRole('button', { name: 'Publish 2 entries' }).click();
    const report = page.getByRole('alert').filter({ hasText: 'Published 1 of 2 entries' });
    await visible(report);
    expect(await report.getByRole('listitem').allInnerTexts()).toEqual([expect.stringMatching(/title/i)]);
    await report.getByRole('button', { name: 'Dismiss' }).click();

    await page.getByRole('checkbox', { name: 'Select Bulk D' }).check();
    await page.getByRole('checkbox', { name: 'Select Bulk E' }).check();
    await bar.getByRole('button', { name: 'Delete', exact: true }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete 2 entries?' });
    await visible(confirm.getByText('The 2 entries selected will be deleted'));
    await confirm.getByRole('button', { name: 'Delete 2 entries' }).click();
    await visible(page.getByTestId('toast').filter({ hasText: 'Deleted 2 entries' }));
    await eventually(async () => (await content.titles()).sort()).toEqual(['(untitled)', 'Bulk A', 'Bulk B', 'Bulk C']);
    const left = await call(server, '/admin/api/content-manager/api::article.article/documents?_q=Bulk', { token: session });
    expect(left.body).toMatchObject({ meta: { pagination: { total: 4 } } });

    // Unpublish keeps the drafts: the content API no longer finds them, the list still shows them.
    await page.getByRole('checkbox', { name: 'Select Bulk A' }).check();
    await page.getByRole('checkbox', { name: 'Select Bulk B' }).check();
    await bar.getByRole('button', { name: 'Unpublish', exact: true }).click();
    const unpublish = page.getByRole('dialog', { name: 'Unpublish 2 entries?' });
    await visible(unpublish.getByText('their drafts are kept'));
    await unpublish.getByRole('button', { name: 'Unpublish 2 entries' }).click();
    await visible(page.getByTestId('toast').filter({ hasText: 'Unpublished 2 entries' }));
    const stillPublished = await dataList(server, '/api/articles?filters[title][$startsWith]=Bulk&sort=title', { token: session });
    expect(stillPublished.map((a) => a.title)).toEqual(['Bulk C']);
    expect((await content.titles()).sort()).toEqual(['(untitled)', 'Bulk A', 'Bulk B', 'Bulk C']);
    expect(e2e.problems).toEqual([]);
  });
});
