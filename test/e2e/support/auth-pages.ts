import type { Page } from 'playwright-core';
import { OWNER } from './harness.js';
import { visible } from './wait.js';

/** The first-run screen: creates the owner account. */
export class SetupPage {
  constructor(private readonly page: Page) {}

  /** Waits for the screen. */
  async ready(): Promise<void> {
    await visible(this.page.getByRole('heading', { name: 'Welcome to Hearth' }));
  }

  /** Fills the form and submits it. */
  async register(account: { email: string; password: string; confirm?: string; firstname?: string; lastname?: string } = OWNER): Promise<void> {
    if (account.firstname) await this.page.getByLabel('First name').fill(account.firstname);
    if (account.lastname) await this.page.getByLabel('Last name').fill(account.lastname);
    await this.page.getByLabel('Email').fill(account.email);
    await this.page.getByLabel('Password', { exact: true }).fill(account.password);
    await this.page.getByLabel('Confirm password').fill(account.confirm ?? account.password);
    await this.page.getByRole('button', { name: 'Create account' }).click();
  }
}

/** The login screen. */
export class LoginPage {
  constructor(private readonly page: Page) {}

  /** Opens /admin and waits for the login form. */
  async open(): Promise<void> {
    await this.page.goto('/admin');
    await this.ready();
  }

  /** Waits for the screen. */
  async ready(): Promise<void> {
    await visible(this.page.getByRole('heading', { name: 'Log in' }));
  }

  /** Submits the credentials. */
  async login(email: string = OWNER.email, password: string = OWNER.password): Promise<void> {
    await this.page.getByLabel('Email').fill(email);
    await this.page.getByLabel('Password').fill(password);
    await this.page.getByRole('button', { name: 'Log in' }).click();
  }
}

/** The app frame's main navigation. */
export class AppNav {
  constructor(private readonly page: Page) {}

  /** Waits until the app frame is shown (signed in). */
  async ready(): Promise<void> {
    await visible(this.page.getByRole('navigation', { name: 'Main' }));
  }

  /** Opens a section by its link in the main navigation. */
  async go(section: 'Content' | 'Media library' | 'Content-type builder' | 'API tokens' | 'Users & permissions' | 'Settings' | 'Profile'): Promise<void> {
    await this.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: section, exact: true }).click();
  }

  /** Logs out. */
  async logout(): Promise<void> {
    await this.page.getByRole('button', { name: 'Log out' }).click();
  }
}

/** Logs the owner in through the login screen (the owner must exist). */
export async function loginAsOwner(page: Page): Promise<AppNav> {
  const login = new LoginPage(page);
  await login.open();
  await login.login();
  const nav = new AppNav(page);
  await nav.ready();
  return nav;
}
