import type { Locator, Page } from 'playwright-core';
import { AppNav } from './auth-pages.js';
import { dismissToasts, visible } from './wait.js';

/** The content manager: the list of a type and the edit form. */
export class ContentPage {
  constructor(private readonly page: Page) {}

  /** Opens a type's list from the navigation. */
  async openType(displayName: string): Promise<void> {
    await new AppNav(this.page).go('Content');
    await this.page.getByRole('navigation', { name: 'Content-types' }).getByRole('link', { name: displayName, exact: true }).click();
    await visible(this.page.getByRole('heading', { level: 1, name: displayName }));
  }

  /** The entries table. */
  table(): Locator {
    return this.page.getByRole('table');
  }

  /** The texts of the list's main column (the one linking to the entry), in order. */
  async titles(): Promise<string[]> {
    return this.table().locator('tbody tr td.entry-main').allInnerTexts();
  }

  /** Sorts by a column's header button. */
  async sortBy(column: string): Promise<void> {
    await this.table().getByRole('button', { name: column }).click();
  }

  /** Opens an entry from the list. */
  async open(title: string): Promise<void> {
    await this.table().getByRole('link', { name: title }).click();
  }

  /** Starts a new entry from the list. */
  async create(): Promise<void> {
    await this.page.getByRole('link', { name: 'Create new entry' }).click();
  }

  /** A form control by its exact label. */
  field(label: string): Locator {
    return this.page.getByLabel(label, { exact: true });
  }

  /** The editable area of a blocks field. */
  blocks(label: string): Locator {
    return this.page.getByRole('textbox', { name: label, exact: true });
  }

  /** Searches a relation field and picks an entry. */
  async pickRelation(field: string, search: string, option: string): Promise<void> {
    const box = this.page.getByRole('combobox', { name: new RegExp(`^(Add to|Replace) ${field}$`) });
    await box.fill(search);
    await this.page.getByRole('option', { name: option, exact: true }).click();
  }

  /** The related entries shown by a relation field, in order. */
  async relations(field: string): Promise<string[]> {
    return this.page.getByRole('group', { name: field }).getByTestId('relation-item').locator('.relation-label').allInnerTexts();
  }

  /** The publication status badge of the open entry. */
  status(): Locator {
    return this.page.locator('.page-header').getByTestId('status-badge');
  }

  /** Clicks an action button of the edit screen and waits for its notification. */
  async act(button: 'Save draft' | 'Save' | 'Publish' | 'Unpublish', toast: string): Promise<void> {
    await dismissToasts(this.page);
    await this.page.getByRole('button', { name: button, exact: true }).click();
    await visible(this.page.getByTestId('toast').filter({ hasText: toast }));
  }

  /** The documentId of the open entry, from the URL. */
  documentId(): string {
    const match = /\/content\/[^/]+\/([a-z0-9]+)/.exec(new URL(this.page.url()).pathname);
    if (!match?.[1]) throw new Error(`No documentId in ${this.page.url()}`);
    return match[1];
  }

  /** Drags one reorder handle onto another with the mouse. */
  async drag(from: Locator, to: Locator): Promise<void> {
    const a = await from.boundingBox();
    const b = await to.boundingBox();
    if (!a || !b) throw new Error('Drag handles are not visible');
    await this.page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
    await this.page.mouse.down();
    await this.page.mouse.move(a.x + a.width / 2, a.y + a.height / 2 + 8, { steps: 4 });
    await this.page.mouse.move(b.x + b.width / 2, b.y + b.height / 2 + (b.y > a.y ? 8 : -8), { steps: 12 });
    await this.page.mouse.up();
  }
}
