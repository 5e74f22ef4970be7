import type { Page } from 'playwright-core';
import { AppNav } from './auth-pages.js';
import { visible } from './wait.js';

/** The API tokens screens. */
export class TokensPage {
  constructor(private readonly page: Page) {}

  /** Opens the token list. */
  async open(): Promise<void> {
    await new AppNav(this.page).go('API tokens');
    await visible(this.page.getByRole('heading', { level: 1, name: 'API tokens' }));
  }

  /** Fills the new-token form (the caller picks permissions for custom tokens) up to the create button. */
  async fill(token: { name: string; description?: string; type: 'Read-only' | 'Full access' | 'Custom'; duration: '7 days' | '30 days' | '90 days' | 'Unlimited' }): Promise<void> {
    await this.page.getByRole('link', { name: 'Create new token' }).click();
    await this.page.getByLabel('Name').fill(token.name);
    if (token.description) await this.page.getByLabel('Description').fill(token.description);
    await this.page.getByLabel('Duration').selectOption({ label: token.duration });
    await this.page.getByRole('radio', { name: token.type }).check();
  }

  /** Creates the token and returns the plaintext shown once. */
  async create(): Promise<string> {
    await this.page.getByRole('button', { name: 'Create token' }).click();
    const field = this.page.getByTestId('token-plaintext');
    await visible(field);
    return field.inputValue();
  }
}
