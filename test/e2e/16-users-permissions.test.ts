import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppNav, LoginPage, loginAsOwner } from './support/auth-pages.js';
import { call, data, type Json } from './support/api.js';
import { captureFailures, OWNER, registerOwner, screenshot, startE2E, type E2E } from './support/harness.js';
import { unlabelledControls } from './support/a11y.js';
import { eventually, isFocused, visible } from './support/wait.js';

/** True when the page's computed background is dark (the dark palette is in use). */
const DARK_BACKGROUND = "(() => { const [r, g, b] = getComputedStyle(document.body).backgroundColor.match(/\\d+/g).map(Number); return r + g + b < 150; })()";

const PASSWORD = 'Visitor-pass-1';

describe('16. users & permissions, and the admin profile', () => {
  let e2e: E2E;
  let session: string;
  /** The id of a role by its type, read through the admin API. */
  const roleId = async (type: string): Promise<number> => {
    const res = await call(e2e.server, '/admin/api/roles', { token: session });
    const roles = (res.body as { data: Json[] }).data;
    return Number(roles.find((r) => r.type === type)?.id);
  };
  /** An end user as the content API shows it to the admin, with its role. */
  const user = async (username: string): Promise<Json & { role: Json }> => {
    const res = await call(e2e.server, `/api/users?filters[username][$eq]=${username}&populate=role`, { token: session });
    const [found] = res.body as (Json & { role: Json })[];
    if (!found) throw new Error(`no user ${username}`);
    return found;
  };
  /** The status of an end user's login, and its access token when it worked. */
  const login = async (identifier: string): Promise<{ status: number; jwt: string }> => {
    const res = await call(e2e.server, '/api/auth/local', { method: 'POST', json: { identifier, password: PASSWORD } });
    const body = res.body as Json;
    return { status: res.status, jwt: typeof body.jwt === 'string' ? body.jwt : '' };
  };

  beforeAll(async () => {
    e2e = await startE2E();
    session = await registerOwner(e2e.server);
    await data(e2e.server, '/api/articles', { method: 'POST', token: session, json: { data: { title: 'Members news' } } }, 201);
  });
  afterAll(async () => {
    await e2e?.close();
  });
  captureFailures(() => e2e);

  it('lists, searches, blocks and confirms end users and changes their role', async () => {
    const { page, server } = e2e;
    await (await loginAsOwner(page)).go('Users & permissions');
    await visible(page.getByRole('heading', { level: 1, name: 'Users & permissions' }));
    await visible(page.getByText('No end users yet'));

    const authenticated = await roleId('authenticated');
    for (const name of ['alice', 'bob', 'carol']) {
      await call(server, '/api/users', { method: 'POST', token: session, json: { username: name, email: `${name}@example.com`, password: PASSWORD, role: authenticated, confirmed: name !== 'carol' } });
    }
    await page.reload();
    await visible(page.getByTestId('user-row-carol').getByText('Unconfirmed'));
    expect(await page.getByRole('table', { name: 'End users' }).locator('tbody tr').count()).toBe(3);

    await page.getByLabel('Search users').fill('ALI');
    await eventually(() => page.getByRole('table', { name: 'End users' }).locator('tbody tr').count()).toBe(1);
    await visible(page.getByTestId('user-row-alice'));
    await page.getByLabel('Search users').fill('nobody-here');
    await visible(page.getByText('No users match'));
    await page.getByLabel('Search users').fill('');
    await eventually(() => page.getByRole('table', { name: 'End users' }).locator('tbody tr').count()).toBe(3);

    // Blocking by keyboard: focus the button, press Enter.
    expect((await login('alice')).status).toBe(200);
    const block = page.getByRole('button', { name: 'Block alice' });
    await block.focus();
    expect(await isFocused(block)).toBe(true);
    await page.keyboard.press('Enter');
    await visible(page.getByTestId('user-row-alice').getByText('Blocked'));
    expect((await login('alice')).status).toBe(400);
    expect((await user('alice')).blocked).toBe(true);
    await page.getByRole('button', { name: 'Unblock alice' }).click();
    await visible(page.getByTestId('user-row-alice').getByText('Active'));
    expect((await login('alice')).status).toBe(200);

    await page.getByRole('button', { name: 'Confirm carol' }).click();
    await visible(page.getByTestId('user-row-carol').getByText('Active'));
    expect((await user('carol')).confirmed).toBe(true);

    await page.getByLabel('Role of bob').selectOption({ label: 'Public' });
    await visible(page.getByTestId('toast').filter({ hasText: 'bob is now Public' }));
    expect((await user('bob')).role.type).toBe('public');

    await page.getByRole('button', { name: 'Delete carol' }).click();
    await page.getByRole('dialog', { name: 'Delete “carol”?' }).getByRole('button', { name: 'Delete user' }).click();
    await eventually(() => page.getByTestId('user-row-carol').count()).toBe(0);
    expect((await call(server, '/api/users/count', { token: session })).body).toBe(2);
    await screenshot(page, 'users');
    expect(e2e.problems).toEqual([]);
  });

  it('creates a role with permissions that the content API enforces, renames and deletes it', async () => {
    const { page, server } = e2e;
    await page.getByRole('navigation', { name: 'Users & permissions' }).getByRole('link', { name: 'Roles' }).click();
    await visible(page.getByTestId('role-row-public'));
    await visible(page.getByTestId('role-row-authenticated'));
    await page.getByRole('link', { name: 'Create new role' }).click();
    await visible(page.getByRole('heading', { level: 1, name: 'New role' }));
    await page.getByLabel('Name').fill('Reporters');
    await page.getByLabel('Description').fill('Read the news');
    await page.getByRole('checkbox', { name: 'Article find', exact: true }).check();
    await page.getByRole('checkbox', { name: 'Article findOne', exact: true }).check();
    await screenshot(page, 'role-editor');
    await page.getByRole('button', { name: 'Create role' }).click();
    await visible(page.getByRole('heading', { level: 1, name: 'Reporters' }));

    // Give alice the new role on the users screen, then use the content API as alice.
    await page.getByRole('navigation', { name: 'Users & permissions' }).getByRole('link', { name: 'End users' }).click();
    await page.getByLabel('Role of alice').selectOption({ label: 'Reporters' });
    await visible(page.getByTestId('toast').filter({ hasText: 'alice is now Reporters' }));
    const { jwt } = await login('alice');
    expect((await server.request('/api/articles', { token: jwt })).status).toBe(200);
    expect((await server.request('/api/categories', { token: jwt })).status).toBe(403);
    expect((await server.request('/api/articles', { method: 'POST', token: jwt, json: { data: { title: 'No' } } })).status).toBe(403);

    // Rename it and take find away: the content API follows at once.
    await page.getByRole('navigation', { name: 'Users & permissions' }).getByRole('link', { name: 'Roles' }).click();
    await visible(page.getByTestId('role-row-reporters').getByText('1 user'));
    await page.getByRole('link', { name: 'Reporters' }).click();
    await page.getByLabel('Name').fill('Newsroom');
    await page.getByRole('checkbox', { name: 'Article find', exact: true }).uncheck();
    await page.getByRole('button', { name: 'Save role' }).click();
    await visible(page.getByTestId('toast').filter({ hasText: 'Role saved' }));
    await eventually(async () => (await server.request('/api/articles', { token: jwt })).status).toBe(403);
    expect((await user('alice')).role.name).toBe('Newsroom');

    await page.getByRole('link', { name: '← Roles' }).click();
    await page.getByRole('button', { name: 'Delete Newsroom' }).click();
    await page.getByRole('dialog', { name: 'Delete “Newsroom”?' }).getByRole('button', { name: 'Delete role' }).click();
    await eventually(() => page.getByTestId('role-row-reporters').count()).toBe(0);
    expect((await user('alice')).role.type).toBe('public');
    expect(await page.getByRole('button', { name: 'Delete Public' }).count()).toBe(0);
    await screenshot(page, 'roles');
    expect(e2e.problems).toEqual([]);
  });

  it('closes registration and picks the default role of new users', async () => {
    const { page, server } = e2e;
    const register = (name: string) => call(server, '/api/auth/local/register', { method: 'POST', json: { username: name, email: `${name}@example.com`, password: PASSWORD } });
    await data(server, '/admin/api/roles', { method: 'POST', token: session, json: { name: 'Members' } }, 201);
    await page.getByRole('navigation', { name: 'Users & permissions' }).getByRole('link', { name: 'Registration' }).click();
    const allow = page.getByRole('checkbox', { name: /Anyone may register/ });
    await visible(allow);
    expect(await allow.isChecked()).toBe(true);
    await allow.uncheck();
    await page.getByLabel('Default role of new users').selectOption({ label: 'Members' });
    await page.getByRole('button', { name: 'Save settings' }).click();
    await visible(page.getByTestId('toast').filter({ hasText: 'Settings saved' }));
    expect((await register('dave')).status).toBe(400);

    await allow.check();
    await page.getByRole('button', { name: 'Save settings' }).click();
    await eventually(async () => (await register('erin')).status).toBe(200);
    expect((await user('erin')).role.type).toBe('members');
    await screenshot(page, 'users-registration');
    expect(e2e.problems).toEqual([]);
  });

  it("changes the admin's name and password, then logs in again with the new password", async () => {
    const { page, server } = e2e;
    const nav = new AppNav(page);
    await nav.go('Profile');
    await visible(page.getByRole('heading', { level: 1, name: 'Profile' }));
    expect(await page.getByLabel('First name').inputValue()).toBe(OWNER.firstname);
    await page.getByLabel('First name').fill('Grace');
    await page.getByLabel('Last name').fill('Hopper');
    await page.getByRole('button', { name: 'Save profile' }).click();
    await visible(page.locator('.sidebar').getByText('Grace Hopper'));

    // A wrong current password is refused at its field; mismatched confirmations never leave the browser.
    const newPassword = 'Hearth-new-2';
    await page.getByLabel('Current password').fill('wrong-Password-1');
    await page.getByLabel('New password', { exact: true }).fill(newPassword);
    await page.getByLabel('Confirm new password').fill(newPassword);
    await page.getByRole('button', { name: 'Change password' }).click();
    await visible(page.locator('.field').filter({ has: page.getByLabel('Current password') }).getByRole('alert'));
    await page.getByLabel('Current password').fill(OWNER.password);
    await page.getByLabel('Confirm new password').fill('Something-else-3');
    await page.getByRole('button', { name: 'Change password' }).click();
    await visible(page.getByText('The two passwords differ'));
    await page.getByLabel('Confirm new password').fill(newPassword);
    await page.getByRole('button', { name: 'Change password' }).click();
    await visible(page.getByTestId('toast').filter({ hasText: 'Password changed' }));
    await screenshot(page, 'profile');

    // The session used to arrange data was another session of this admin: a new password ended it.
    expect((await call(server, '/admin/api/users/me', { token: session })).status).toBe(401);
    await nav.logout();
    const loginPage = new LoginPage(page);
    await loginPage.ready();
    await loginPage.login(OWNER.email, OWNER.password);
    await visible(page.getByRole('alert').filter({ hasText: 'That email and password do not match an account.' }));
    await loginPage.login(OWNER.email, newPassword);
    await nav.ready();
    await visible(page.locator('.sidebar').getByText('Grace Hopper'));
    const me = await call(server, '/admin/api/login', { method: 'POST', json: { email: OWNER.email, password: newPassword } });
    expect((me.body as { data: { user: Json } }).data.user).toMatchObject({ firstname: 'Grace', lastname: 'Hopper' });
    expect(e2e.problems).toEqual([]);
  });

  it('labels every control of the new screens and follows the dark scheme', async () => {
    const { page } = e2e;
    await page.emulateMedia({ colorScheme: 'dark' });
    for (const [path, heading] of [['/admin/users', 'Users & permissions'], ['/admin/users/roles', 'Users & permissions'], ['/admin/users/roles/new', 'New role'], ['/admin/users/settings', 'Users & permissions'], ['/admin/profile', 'Profile']] as const) {
      await page.goto(path);
      await visible(page.getByRole('heading', { level: 1, name: heading }));
      await eventually(() => page.locator('.loading').count()).toBe(0);
      expect(await unlabelledControls(page), path).toEqual([]);
      expect(await page.evaluate(DARK_BACKGROUND), path).toBe(true);
    }
    await page.goto('/admin/users');
    await visible(page.getByTestId('user-row-alice'));
    await screenshot(page, 'dark-users');
    await page.emulateMedia({ colorScheme: 'light' });
    expect(e2e.problems).toEqual([]);
  });
});
