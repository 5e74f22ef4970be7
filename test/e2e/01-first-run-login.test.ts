import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppNav, LoginPage, SetupPage } from './support/auth-pages.js';
import { captureFailures, OWNER, screenshot, startE2E, type E2E } from './support/harness.js';
import { visible } from './support/wait.js';

describe('1. first run and login', () => {
  let e2e: E2E;
  beforeAll(async () => {
    e2e = await startE2E();
  });
  afterAll(async () => {
    await e2e?.close();
  });
  captureFailures(() => e2e);

  it('creates the owner account on first run, then logs out and in again', async () => {
    const { page } = e2e;
    await page.goto('/admin');
    const setup = new SetupPage(page);
    await setup.ready();
    await screenshot(page, 'first-run');

    // A weak password is refused at the field before anything is sent.
    await setup.register({ email: OWNER.email, password: 'short' });
    await visible(page.getByText('The password needs at least 8 characters.'));
    expect(await page.getByLabel('Password', { exact: true }).getAttribute('aria-invalid')).toBe('true');

    await setup.register(OWNER);
    const nav = new AppNav(page);
    await nav.ready();
    await visible(page.getByText(`${OWNER.firstname} ${OWNER.lastname}`));
    const init = await (await e2e.server.request('/admin/api/init')).json();
    expect(init).toEqual({ data: { hasAdmin: true, desktop: false } });

    await nav.logout();
    const login = new LoginPage(page);
    await login.ready();
    await visible(page.getByText('You have logged out.'));

    await login.login(OWNER.email, 'Wrong-password-1');
    await visible(page.getByRole('alert').filter({ hasText: 'That email and password do not match an account.' }));
    await screenshot(page, 'login');

    await login.login();
    await nav.ready();
    // The session survives a reload (kept for this tab only).
    await page.reload();
    await nav.ready();
    expect(e2e.problems).toEqual([]);
  });

  it('skips the login screen in the desktop app by trading the launch secret for a session', async () => {
    const secret = 'e2e-launch-secret-0123456789abcdef';
    const desktop = await startE2E({
      desktopSecret: secret,
      // Stands in for main/preload.ts: one named function per IPC message.
      initScript: `window.hearthDesktop = { getLaunchSecret: () => Promise.resolve(${JSON.stringify(secret)}), openDataFolder: () => Promise.resolve() };`,
    });
    try {
      const { page } = desktop;
      const sessions: number[] = [];
      page.on('response', (res) => {
        if (res.url().endsWith('/admin/api/desktop-session')) sessions.push(res.status());
      });
      await page.goto('/admin');
      await new AppNav(page).ready();
      expect(sessions).toEqual([200]);
      expect(await page.getByRole('heading', { name: 'Log in' }).count()).toBe(0);
      // The local owner the desktop session creates; no log-out button in the desktop window.
      await visible(page.getByText('Local'));
      expect(await page.getByRole('button', { name: 'Log out' }).count()).toBe(0);
      await new AppNav(page).go('Settings');
      await visible(page.getByRole('button', { name: 'Open data folder' }));
      expect(desktop.problems).toEqual([]);
    } finally {
      await desktop.close();
    }
  });
});
