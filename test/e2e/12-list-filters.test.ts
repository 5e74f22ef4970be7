import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginAsOwner } from './support/auth-pages.js';
import { data } from './support/api.js';
import { ContentPage } from './support/content-page.js';
import { captureFailures, registerOwner, startE2E, type E2E } from './support/harness.js';
import { eventually, visible } from './support/wait.js';

/** The list's filter form, driven as an editor would. */
class FilterForm {
  constructor(private readonly page: Page) {}

  async open(field: string): Promise<void> {
    await this.page.getByRole('button', { name: 'Add filter' }).click();
    await this.page.getByLabel('Filter field').selectOption(field);
  }

  /** The conditions offered for the chosen field, as their words. */
  conditions(): Promise<string[]> {
    return this.page.getByLabel('Condition').locator('option').allInnerTexts();
  }

  /** The fields offered. */
  fields(): Promise<string[]> {
    return this.page.getByLabel('Filter field').locator('option').allInnerTexts();
  }

  async condition(words: string): Promise<void> {
    await this.page.getByLabel('Condition').selectOption({ label: words });
  }

  /** Searches the relation's entries by their main field and picks one. */
  async pick(search: string, option: string): Promise<void> {
    await this.page.getByRole('combobox', { name: 'Filter value' }).fill(search);
    await this.page.getByRole('option', { name: option, exact: true }).click();
    await visible(this.page.getByTestId('filter-picked').filter({ hasText: option }));
  }

  async apply(): Promise<void> {
    await this.page.getByRole('button', { name: 'Apply filter' }).click();
  }

  async remove(words: RegExp): Promise<void> {
    await this.page.getByRole('button', { name: words }).click();
  }
}

describe('12. list filters: relations by name, operators per type, refused filters', () => {
  let e2e: E2E;
  let travel = '';
  beforeAll(async () => {
    e2e = await startE2E();
    const session = await registerOwner(e2e.server);
    const { server } = e2e;
    const post = (path: string, body: Record<string, unknown>) => data(server, path, { method: 'POST', token: session, json: { data: body } }, 201);
    travel = String((await post('/api/categories', { name: 'Travel' })).documentId);
    const kitchen = String((await post('/api/categories', { name: 'Kitchen' })).documentId);
    const sweet = String((await post('/api/tags', { label: 'Sweet' })).documentId);
    const quick = String((await post('/api/tags', { label: 'Quick' })).documentId);
    await post('/api/articles', { title: 'Lisbon walk', category: travel, tags: [sweet] });
    await post('/api/articles', { title: 'Apple pie', category: kitchen, tags: [sweet, quick] });
    await post('/api/articles', { title: 'Plain note' });
    for (const [name, big] of [['one', '7'], ['two', '9']] as const) await post('/api/specimens', { s_required: name, s_bigint: big });
  });
  afterAll(async () => {
    await e2e?.close();
  });
  captureFailures(() => e2e);

  it('filters by a relation picked by name (its documentId goes to the server), with the conditions each type allows', async () => {
    const { page } = e2e;
    await loginAsOwner(page);
    const content = new ContentPage(page);
    await content.openType('Article');
    await eventually(() => content.titles()).toHaveLength(3);
    const filter = new FilterForm(page);

    await filter.open('category');
    // Blocks, components and dynamic zones are not offered (as in Strapi's admin); media only as empty or not.
    const fields = await filter.fields();
    expect(fields).toEqual(expect.arrayContaining(['title', 'views', 'featured', 'cover', 'category', 'tags']));
    for (const absent of ['body', 'seo', 'blocks']) expect(fields).not.toContain(absent);
    expect(await filter.conditions()).toEqual(['is', 'is not', 'is empty', 'is not empty']);
    const asked = page.waitForRequest((r) => r.url().includes('/documents?') && decodeURIComponent(r.url()).includes(`filters[$and][0][category][documentId][$eq]=${travel}`));
    await filter.pick('Trav', 'Travel');
    await filter.apply();
    await asked;
    await eventually(() => content.titles()).toEqual(['Lisbon walk']);
    await visible(page.getByRole('list', { name: 'Active filters' }).getByText('category is “Travel”'));
    expect(await page.getByRole('alert').count()).toBe(0);
    await filter.remove(/^Remove filter category is/);
    await eventually(() => content.titles()).toHaveLength(3);

    // "is not" keeps the entries without any category.
    await filter.open('category');
    await filter.condition('is not');
    await filter.pick('Trav', 'Travel');
    await filter.apply();
    await eventually(async () => (await content.titles()).sort()).toEqual(['Apple pie', 'Plain note']);
    await filter.remove(/^Remove filter category/);

    await filter.open('tags');
    expect(await filter.conditions()).toEqual(['includes', 'does not include', 'has none', 'has some']);
    await filter.pick('Qui', 'Quick');
    await filter.apply();
    await eventually(() => content.titles()).toEqual(['Apple pie']);
    await filter.remove(/^Remove filter tags/);
    await filter.open('tags');
    await filter.condition('has none');
    await filter.apply();
    await eventually(() => content.titles()).toEqual(['Plain note']);
    await filter.remove(/^Remove filter tags/);
    await eventually(() => content.titles()).toHaveLength(3);

    // No "greater than" on a boolean; text conditions on a string; emptiness only on media.
    await filter.open('featured');
    expect(await filter.conditions()).toEqual(['is', 'is not', 'is empty', 'is not empty']);
    await page.getByLabel('Filter field').selectOption('title');
    expect(await filter.conditions()).toEqual(['contains', 'does not contain', 'is', 'is not', 'starts with', 'ends with', 'is empty', 'is not empty']);
    await page.getByLabel('Filter field').selectOption('views');
    expect(await filter.conditions()).toContain('is greater than');
    await page.getByLabel('Filter field').selectOption('cover');
    expect(await filter.conditions()).toEqual(['is empty', 'is not empty']);
    await filter.condition('is not empty');
    await filter.apply();
    await visible(page.getByText('No entries match'));
    await filter.remove(/^Remove filter cover/);
    await eventually(() => content.titles()).toHaveLength(3);
    expect(e2e.problems).toEqual([]);
  });

  it('a refused filter clears the list and says why; removing it brings the list back', async () => {
    const { page } = e2e;
    const content = new ContentPage(page);
    await content.openType('Specimen');
    const filter = new FilterForm(page);
    await filter.open('s_bigint');
    await filter.condition('is at least');
    await page.getByLabel('Filter value').fill('8');
    await filter.apply();
    await eventually(() => content.titles()).toHaveLength(1);

    await filter.open('s_bigint');
    await filter.condition('is');
    await page.getByLabel('Filter value').fill('abc');
    await filter.apply();
    const notice = page.getByRole('alert').filter({ hasText: 'could not be listed with these filters' });
    await visible(notice);
    expect(await notice.innerText()).toContain('Invalid filter value for s_bigint');
    // The entries of the previous filters are gone, not left under the error as if they answered it.
    await eventually(() => content.table().count()).toBe(0);
    expect(await page.getByRole('heading', { level: 1, name: 'Specimen' }).isVisible()).toBe(true);

    await filter.remove(/^Remove filter s_bigint is “abc”/);
    await eventually(() => content.titles()).toHaveLength(1);
    expect(await page.getByRole('alert').count()).toBe(0);
    expect(e2e.problems).toEqual([]);
  });
});
