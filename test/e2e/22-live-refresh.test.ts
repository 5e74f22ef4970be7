import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { data } from './support/api.js';
import { loginAsOwner } from './support/auth-pages.js';
import { ContentPage } from './support/content-page.js';
import { captureFailures, registerOwner, startE2E, type E2E } from './support/harness.js';
import { gradientPng, MediaPage } from './support/media-page.js';
import { eventually, visible } from './support/wait.js';

/**
 * The admin UI follows the change stream (GET /hearth/events) with its session: what another
 * client writes through the REST API shows in the open list, edit form and media library without
 * a reload, and unsaved edits are never overwritten.
 */
describe('22. the admin UI refreshes live from the change stream', () => {
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

  /** A mark on the page's window: gone if the page was reloaded. */
  const mark = () => e2e.page.evaluate('window.__notReloaded = true');
  const stillMarked = () => e2e.page.evaluate('window.__notReloaded === true');

  it('shows an entry another client creates in the open list, without a reload', async () => {
    const { page, server } = e2e;
    const content = new ContentPage(page);
    await content.openType('Article');
    await visible(page.getByText('No article entries yet'));
    await mark();

    await data(server, '/api/articles?locale=en', { method: 'POST', token: session, json: { data: { title: 'Rhubarb crumble' } } }, 201);
    await eventually(() => content.titles()).toEqual(['Rhubarb crumble']);
    await data(server, '/api/articles?locale=en', { method: 'POST', token: session, json: { data: { title: 'Quince jam' } } }, 201);
    await eventually(async () => (await content.titles()).sort()).toEqual(['Quince jam', 'Rhubarb crumble']);
    expect(await stillMarked()).toBe(true);
    expect(e2e.problems).toEqual([]);
  });

  it('reloads a clean edit form changed elsewhere, and keeps a dirty one with a notice until asked to reload', async () => {
    const { page, server } = e2e;
    const content = new ContentPage(page);
    await content.open('Rhubarb crumble');
    const title = await visible(content.field('Title'));
    await expect.poll(() => title.inputValue()).toBe('Rhubarb crumble');
    const documentId = content.documentId();
    const notice = page.getByRole('alert').filter({ hasText: 'This entry was changed elsewhere' });

    // Clean: the new value simply arrives.
    await data(server, `/api/articles/${documentId}?locale=en`, { method: 'PUT', token: session, json: { data: { title: 'Rhubarb crumble, less sugar' } } });
    await eventually(() => title.inputValue()).toBe('Rhubarb crumble, less sugar');
    expect(await notice.count()).toBe(0);

    // Dirty: the user's words stay, a notice offers the other version.
    await title.fill('Rhubarb crumble with oats');
    await visible(page.getByText('Unsaved changes'));
    await data(server, `/api/articles/${documentId}?locale=en`, { method: 'PUT', token: session, json: { data: { title: 'Rhubarb and ginger crumble' } } });
    await visible(notice);
    expect(await title.inputValue()).toBe('Rhubarb crumble with oats');

    await notice.getByRole('button', { name: 'reload' }).click();
    await eventually(() => title.inputValue()).toBe('Rhubarb and ginger crumble');
    await notice.waitFor({ state: 'detached' });
    expect(await page.getByText('Unsaved changes').count()).toBe(0);

    // This window's own save raises no notice.
    await title.fill('Rhubarb and ginger crumble, served warm');
    // The form reads the saved entry back after saving: typing starts once that answer is in.
    const readBack = page.waitForResponse((r) => r.request().method() === 'GET' && r.url().includes(`/documents/${documentId}`) && r.ok());
    await content.act('Save draft', 'Saved');
    await readBack;
    await eventually(() => title.inputValue()).toBe('Rhubarb and ginger crumble, served warm');
    await title.fill('Rhubarb and ginger crumble, served cold');
    // Time for the save's own events to arrive (the stream sends them within milliseconds).
    await page.waitForTimeout(1500);
    expect(await notice.count()).toBe(0);
    expect(await title.inputValue()).toBe('Rhubarb and ginger crumble, served cold');
    expect(await stillMarked()).toBe(true);
    expect(e2e.problems).toEqual([]);
  });

  it('shows files another client uploads in the open media library', async () => {
    const { page, server } = e2e;
    // Leaving the dirty form asks first.
    await page.getByRole('link', { name: '← Article' }).click();
    await page.getByRole('dialog', { name: 'Leave without saving?' }).getByRole('button', { name: 'Leave' }).click();
    const media = new MediaPage(page);
    await media.open();
    await visible(page.getByText('No files here yet'));
    const upload = async (name: string) => {
      const form = new FormData();
      form.append('files', new Blob([await gradientPng(8, 8, [200, 120, 80], [240, 200, 160])], { type: 'image/png' }), name);
      const res = await server.request('/api/upload', { method: 'POST', token: session, body: form });
      expect(res.status).toBe(201);
    };
    // The first REST upload creates the "API Uploads" folder beside the library's root.
    await upload('pear.png');
    await visible(page.getByRole('button', { name: /^API Uploads/ }));
    await media.openFolder('API Uploads');
    await eventually(() => media.names()).toEqual(['pear.png']);
    await upload('fig.png');
    await eventually(async () => (await media.names()).sort()).toEqual(['fig.png', 'pear.png']);
    expect(await stillMarked()).toBe(true);
    expect(e2e.problems).toEqual([]);
  });
});
