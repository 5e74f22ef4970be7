import type { Locator, Page } from 'playwright-core';
import { AppNav } from './auth-pages.js';
import { dismissToasts, visible } from './wait.js';

/** The content-type builder screens. */
export class BuilderPage {
  constructor(private readonly page: Page) {}

  /** Opens the builder home from the main navigation. */
  async open(): Promise<void> {
    await new AppNav(this.page).go('Content-type builder');
    await visible(this.page.getByRole('heading', { name: 'Content-type builder' }));
  }

  /** Starts a new component with a display name and category. */
  async newComponent(displayName: string, category: string): Promise<void> {
    await this.page.getByRole('link', { name: 'New component' }).click();
    await this.page.getByLabel('Display name').fill(displayName);
    await this.page.getByLabel('Category').fill(category);
  }

  /** Starts a new content-type; singular and plural API ids follow the display name. */
  async newType(displayName: string, options: { i18n?: boolean; draftAndPublish?: boolean } = {}): Promise<void> {
    await this.page.getByRole('link', { name: 'New content-type' }).click();
    await this.page.getByLabel('Display name').fill(displayName);
    if (options.i18n) await this.page.getByLabel('Internationalization').check();
    if (options.draftAndPublish === false) await this.page.getByLabel('Draft & publish').uncheck();
  }

  /** The open dialog. */
  dialog(): Locator {
    return this.page.getByRole('dialog');
  }

  /** Adds a field: picks its kind, names it, lets `configure` set its options, and adds it. */
  async addField(kind: string, name: string, configure?: (dialog: Locator) => Promise<void>): Promise<void> {
    await this.page.getByRole('button', { name: 'Add a field' }).click();
    const dialog = this.dialog();
    await dialog.getByRole('button', { name: new RegExp(`^${kind}\\b`) }).click();
    await dialog.getByLabel('Field name').fill(name);
    if (configure) await configure(dialog);
    await dialog.getByRole('button', { name: 'Add field' }).click();
    await visible(this.page.getByTestId(`field-row-${name}`));
  }

  /** Removes a field from the list. */
  async removeField(name: string): Promise<void> {
    await this.page.getByRole('button', { name: `Remove ${name}` }).click();
  }

  /** Saves and waits for the confirmation. */
  async save(expected: string): Promise<void> {
    await dismissToasts(this.page);
    await this.page.getByRole('button', { name: 'Save', exact: true }).click();
    await visible(this.page.getByTestId('toast').filter({ hasText: expected }));
  }
}
