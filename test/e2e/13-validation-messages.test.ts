import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginAsOwner } from './support/auth-pages.js';
import { data, dataList } from './support/api.js';
import { ContentPage } from './support/content-page.js';
import { captureFailures, registerOwner, startE2E, type E2E } from './support/harness.js';
import { eventually, isFocused, visible } from './support/wait.js';

/** The message shown next to a field (its `<id>-error` paragraph), by the field's path. */
const messageAt = (page: Page, path: string) => page.locator(`#field-${path.replace(/\./g, '-')}-error`);

/** Counts the writes the page sends to a content API path. */
function countWrites(page: Page, path: string): { readonly count: () => number } {
  let writes = 0;
  page.on('request', (r) => {
    if (r.url().includes(path) && (r.method() === 'POST' || r.method() === 'PUT')) writes += 1;
  });
  return { count: () => writes };
}

describe('13. validation messages: checked in the browser, in words, at the field', () => {
  let e2e: E2E;
  let session: string;
  beforeAll(async () => {
    e2e = await startE2E();
    session = await registerOwner(e2e.server);
    const { server } = e2e;
    await data(server, '/api/specimens', { method: 'POST', token: session, json: { data: { s_required: 'first', s_unique: 'taken' } } }, 201);
    // Rules inside a component (used in the Article's dynamic zone), set through the builder as an editor's admin would.
    const quote = {
      category: 'shared',
      collectionName: 'components_shared_quotes',
      info: { displayName: 'Quote', description: '' },
      options: {},
      attributes: { text: { type: 'text', maxLength: 5 }, author: { type: 'string' } },
    };
    await data(server, '/admin/api/components/shared.quote', { method: 'PUT', token: session, json: { component: quote } });
  });
  afterAll(async () => {
    await e2e?.close();
  });
  captureFailures(() => e2e);

  it('blocks the save with human messages next to each field and focuses the first one', async () => {
    const { page } = e2e;
    await loginAsOwner(page);
    await page.goto('/admin/content/api%3A%3Aspecimen.specimen/new');
    const content = new ContentPage(page);
    await visible(content.field('S string'));
    const writes = countWrites(page, '/api/specimens');
    await content.field('S string').fill('x');
    await content.field('S email').fill('nope');
    await content.field('S uid').fill('a b');
    await content.field('S int').fill('200');
    await content.field('S regex').fill('A1');
    await page.getByRole('button', { name: 'Save', exact: true }).click();

    await visible(messageAt(page, 's_string'));
    expect(await messageAt(page, 's_string').innerText()).toBe('At least 2 characters');
    expect(await messageAt(page, 's_email').innerText()).toBe('Must be a valid email');
    expect(await messageAt(page, 's_uid').innerText()).toBe('Only letters, digits and - _ . ~');
    expect(await messageAt(page, 's_int').innerText()).toBe('At most 100');
    expect(await messageAt(page, 's_regex').innerText()).toBe('Must match the pattern ^[a-z]+$');
    expect(await messageAt(page, 's_required').innerText()).toBe('S required is required');
    expect(await content.field('S email').getAttribute('aria-invalid')).toBe('true');
    expect((await content.field('S email').getAttribute('aria-describedby')) ?? '').toContain('field-s_email-error');
    await eventually(() => isFocused(content.field('S string'))).toBe(true);
    await visible(page.getByRole('alert').filter({ hasText: 'Some fields need attention.' }));
    expect(writes.count()).toBe(0);
    expect(await page.locator('.page-header').innerText()).not.toContain('must match the following');
    expect(e2e.problems).toEqual([]);
  });

  it('a refusal only the server can give (unique) is shown in words, the server text behind a toggle', async () => {
    const { page, server } = e2e;
    const content = new ContentPage(page);
    const writes = countWrites(page, '/api/specimens');
    await content.field('S string').fill('ok');
    await content.field('S email').fill('ada@example.com');
    await content.field('S uid').fill('a-b');
    await content.field('S int').fill('50');
    await content.field('S regex').fill('abc');
    await content.field('S required').fill('second');
    await content.field('S unique').fill('taken');
    await page.getByRole('button', { name: 'Save', exact: true }).click();

    await eventually(() => messageAt(page, 's_unique').innerText().catch(() => '')).toBe('Already used by another entry: must be unique');
    expect(writes.count()).toBe(1);
    for (const path of ['s_string', 's_email', 's_uid', 's_int', 's_regex', 's_required']) expect(await messageAt(page, path).count()).toBe(0);
    await eventually(() => isFocused(content.field('S unique'))).toBe(true);
    const problems = page.getByRole('list', { name: 'Problems to fix' });
    await problems.getByText('Server message').click();
    await visible(problems.getByText('This attribute must be unique'));

    await content.field('S unique').fill('free');
    await content.act('Save', 'Saved');
    expect((await dataList(server, '/api/specimens?filters[s_required][$eq]=second', { token: session })).length).toBe(1);
    expect(await page.getByRole('list', { name: 'Problems to fix' }).count()).toBe(0);
  });

  it('checks inside dynamic-zone entries; a draft may leave required fields empty, publishing may not', async () => {
    const { page, server } = e2e;
    await page.goto('/admin/content/api%3A%3Aarticle.article/new?locale=en');
    const content = new ContentPage(page);
    await visible(content.field('Title'));
    const writes = countWrites(page, '/api/articles');
    await page.getByRole('button', { name: 'Add a component to Blocks' }).click();
    await page.getByRole('dialog', { name: 'Add to Blocks' }).getByRole('button', { name: /^Quote/ }).click();
    // A textarea has no maxlength of its own to stop the typing: the check is the form's.
    await content.field('Text').fill('Longer text');
    await page.getByRole('button', { name: 'Save draft', exact: true }).click();
    await visible(messageAt(page, 'blocks.0.text'));
    expect(await messageAt(page, 'blocks.0.text').innerText()).toBe('At most 5 characters');
    // A draft may go without its title, as in Strapi: only the quote's text is in the way.
    expect(await messageAt(page, 'title').count()).toBe(0);
    await eventually(() => isFocused(content.field('Text'))).toBe(true);
    expect(writes.count()).toBe(0);

    await content.field('Text').fill('Short');
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    await visible(messageAt(page, 'title'));
    expect(await messageAt(page, 'title').innerText()).toBe('Title is required');
    await eventually(() => isFocused(content.field('Title'))).toBe(true);
    expect(writes.count()).toBe(0);

    await content.act('Save draft', 'Saved');
    const id = content.documentId();
    expect(await data(server, `/api/articles/${id}?status=draft&populate=blocks`, { token: session })).toMatchObject({ title: null, blocks: [{ __component: 'shared.quote', text: 'Short' }] });
    expect(e2e.problems).toEqual([]);
  });
});
