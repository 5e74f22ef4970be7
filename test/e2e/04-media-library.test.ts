import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginAsOwner } from './support/auth-pages.js';
import { call, data, dataList, pluck } from './support/api.js';
import { ContentPage } from './support/content-page.js';
import { captureFailures, registerOwner, screenshot, startE2E, type E2E } from './support/harness.js';
import { gradientPng, MediaPage, progressSeen, RECORD_PROGRESS } from './support/media-page.js';
import { eventually, visible } from './support/wait.js';

/** Upload speed while throttled: two ~230 KB images take a few seconds, so the bars move visibly. */
const UPLOAD_BYTES_PER_SECOND = 96 * 1024;

describe('4. media library', () => {
  let e2e: E2E;
  let session: string;
  beforeAll(async () => {
    e2e = await startE2E();
    session = await registerOwner(e2e.server);
  });
  afterAll(async () => {
    await e2e?.close();
  });
  captureFailures(() => e2e);

  it('uploads two images with per-file progress on a throttled network', async () => {
    const { page, context } = e2e;
    await loginAsOwner(page);
    const media = new MediaPage(page);
    await media.open();
    await visible(page.getByText('No files here yet'));

    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 20, downloadThroughput: -1, uploadThroughput: UPLOAD_BYTES_PER_SECOND });
    await page.evaluate(RECORD_PROGRESS);
    const [a, b] = await Promise.all([gradientPng(280, 280, [120, 170, 90], [235, 215, 130]), gradientPng(280, 280, [40, 90, 150], [170, 200, 225])]);
    await media.choose([
      { name: 'meadow.png', mimeType: 'image/png', buffer: a },
      { name: 'harbour.png', mimeType: 'image/png', buffer: b },
    ]);
    // Caught mid-way: a bar between 0 and 100.
    await eventually(async () => Object.values(await progressSeen(page)).some((values) => values.some((v) => v > 0 && v < 100))).toBe(true);
    await screenshot(page, 'media-upload');
    await eventually(() => page.getByTestId('upload-item').filter({ hasText: 'Done' }).count()).toBe(2);
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });

    const seen = await progressSeen(page);
    for (const name of ['meadow.png', 'harbour.png']) {
      const values = seen[`Upload of ${name}`] ?? [];
      const intermediate = new Set(values.filter((v) => v > 0 && v < 100));
      expect(intermediate.size, `${name} went through ${JSON.stringify(values)}`).toBeGreaterThanOrEqual(2);
      expect(values[values.length - 1]).toBe(100);
    }
    await eventually(() => media.names()).toHaveLength(2);
    expect(e2e.problems).toEqual([]);
  });

  it('drops a file, filters by type, sorts, switches to the list view, and keeps API uploads in their folder', async () => {
    const { page, server } = e2e;
    const media = new MediaPage(page);
    await media.drop('notes.txt', 'text/plain', 'Shopping list: plums, flour, butter.');
    await eventually(() => media.names()).toHaveLength(3);

    await page.getByLabel('File type').selectOption('image');
    await eventually(() => media.names()).toHaveLength(2);
    await page.getByLabel('File type').selectOption('file');
    await eventually(() => media.names()).toEqual(['notes.txt']);
    await page.getByLabel('File type').selectOption('');
    await page.getByLabel('Sort by').selectOption('name:asc');
    await eventually(() => media.names()).toEqual(['harbour.png', 'meadow.png', 'notes.txt']);
    await page.getByLabel('Sort by').selectOption('name:desc');
    await eventually(() => media.names()).toEqual(['notes.txt', 'meadow.png', 'harbour.png']);
    await page.getByRole('radio', { name: 'List' }).check();
    await visible(page.getByRole('table').getByRole('button', { name: 'notes.txt' }));
    await page.getByRole('radio', { name: 'Grid' }).check();

    // Files uploaded through the REST API land in the automatic "API Uploads" folder, 26 of them: two pages.
    const form = new FormData();
    for (let i = 0; i < 26; i++) form.append('files', new Blob([await gradientPng(8, 8, [200, 120, 80], [240, 200, 160])], { type: 'image/png' }), `tiny-${String(i).padStart(2, '0')}.png`);
    const uploaded = await server.request('/api/upload', { method: 'POST', token: session, body: form });
    expect(uploaded.status).toBe(201);
    await page.reload();
    await media.openFolder('API Uploads');
    await visible(page.getByText('Page 1 of 2'));
    await eventually(() => media.names()).toHaveLength(24);
    await page.getByRole('button', { name: 'Next' }).click();
    await eventually(() => media.names()).toHaveLength(2);
    await page.getByRole('navigation', { name: 'Folder path' }).getByRole('button', { name: 'Media library' }).click();

    await page.getByRole('button', { name: 'New folder' }).click();
    await page.getByRole('dialog', { name: 'New folder' }).getByLabel('Folder name').fill('Photos');
    await page.getByRole('button', { name: 'Create folder' }).click();
    await media.openFolder('Photos');
    await visible(page.getByText('No files here yet'));
    await page.getByRole('navigation', { name: 'Folder path' }).getByRole('button', { name: 'Media library' }).click();
    await visible(page.getByRole('button', { name: /^API Uploads/ }));
    await screenshot(page, 'media-library');
    expect(e2e.problems).toEqual([]);
  });

  it('edits, replaces and copies a file, picks it as a field’s media, and warns where it is used before deleting', async () => {
    const { page, server } = e2e;
    const media = new MediaPage(page);
    let dialog = await media.openFile('meadow.png');
    await dialog.getByLabel('File name').fill('sunrise.png');
    await dialog.getByLabel('Alternative text').fill('A sunrise over the meadow');
    await dialog.getByLabel('Caption').fill('Early morning');
    await dialog.getByRole('button', { name: 'Save details' }).click();
    await visible(page.getByTestId('toast').filter({ hasText: 'File details saved' }));
    dialog = page.getByRole('dialog', { name: 'sunrise.png' });
    const found = await call(server, '/api/upload/files?filters[name][$eq]=sunrise.png', { token: session });
    expect(found.body).toMatchObject([{ alternativeText: 'A sunrise over the meadow', caption: 'Early morning' }]);
    const [id, url] = [pluck(found.body, 'id')[0], pluck(found.body, 'url')[0]];
    if (typeof id !== 'number' || typeof url !== 'string') throw new Error('sunrise.png not found');
    const file = { id, url };

    await dialog.getByRole('button', { name: 'Copy URL' }).click();
    await visible(dialog.getByRole('button', { name: 'Copied' }));
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(new URL(file.url, server.url).toString());

    await dialog.getByLabel('Replacement file').setInputFiles({ name: 'sunrise-v2.png', mimeType: 'image/png', buffer: await gradientPng(64, 48, [230, 140, 60], [250, 220, 150]) });
    await visible(page.getByTestId('toast').filter({ hasText: 'File replaced' }));
    // The upload API answers with the bare file object.
    expect((await call(server, `/api/upload/files/${file.id}`, { token: session })).body).toMatchObject({ width: 64, height: 48 });
    await screenshot(page, 'media-file');
    await dialog.getByRole('button', { name: 'Close dialog' }).click();

    // Pick it as an article's cover.
    const content = new ContentPage(page);
    await content.openType('Article');
    await content.create();
    await content.field('Title').fill('Morning light');
    await page.getByRole('button', { name: 'Choose Cover' }).click();
    const picker = page.getByRole('dialog', { name: 'Choose a file' });
    await picker.getByRole('button', { name: 'Select sunrise.png' }).click();
    await screenshot(page, 'media-picker');
    await picker.getByRole('button', { name: 'Use this file' }).click();
    await visible(page.getByRole('group', { name: 'Cover' }).getByTestId('media-item').filter({ hasText: 'sunrise.png' }));
    // And an image block in the rich text, from the same library.
    await content.blocks('Body').click();
    await page.keyboard.type('Above the harbour:');
    await page.getByRole('button', { name: 'Image', exact: true }).click();
    await picker.getByRole('button', { name: 'Select harbour.png' }).click();
    await picker.getByRole('button', { name: 'Use this file' }).click();
    await visible(content.blocks('Body').getByRole('img', { name: 'harbour.png' }));
    await content.act('Save draft', 'Saved');
    await page.waitForURL(/\/content\/api%3A%3Aarticle\.article\/[a-z0-9]+/);
    const article = await data(server, `/api/articles/${content.documentId()}?status=draft&populate=cover`, { token: session });
    expect(article).toMatchObject({
      cover: { id: file.id, name: 'sunrise.png' },
      body: [{ type: 'paragraph', children: [{ type: 'text', text: 'Above the harbour:' }] }, { type: 'image', image: { name: 'harbour.png' } }, { type: 'paragraph' }],
    });

    await media.open();
    dialog = await media.openFile('sunrise.png');
    await dialog.getByRole('button', { name: 'Delete file' }).click();
    const warning = dialog.getByRole('alert').filter({ hasText: 'This file is used in 1 place' });
    await visible(warning.getByText('Morning light'));
    expect(await warning.innerText()).toContain('cover');
    await dialog.getByRole('button', { name: 'Delete permanently' }).click();
    await visible(page.getByTestId('toast').filter({ hasText: 'sunrise.png deleted' }));
    expect((await call(server, `/api/upload/files/${file.id}`, { token: session })).status).toBe(404);
    await eventually(() => media.names()).not.toContain('sunrise.png');
    // A file shown only as an image block of a rich-text body is in use too.
    dialog = await media.openFile('harbour.png');
    await dialog.getByRole('button', { name: 'Delete file' }).click();
    const inBody = dialog.getByRole('alert').filter({ hasText: 'This file is used in 1 place' });
    await visible(inBody.getByText('Morning light'));
    expect(await inBody.innerText()).toContain('field body');
    await dialog.getByRole('button', { name: 'Keep the file' }).click();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    expect(e2e.problems).toEqual([]);
  });

  it('moves a file into a folder, renames the folder and moves it into another', async () => {
    const { page, server } = e2e;
    const media = new MediaPage(page);
    await media.open();
    const dialog = await media.openFile('notes.txt');
    await eventually(() => dialog.getByLabel('Folder').locator('option').allInnerTexts()).toEqual(['Media library (no folder)', 'API Uploads', 'Photos']);
    await dialog.getByLabel('Folder').selectOption({ label: 'Photos' });
    await dialog.getByRole('button', { name: 'Move file' }).click();
    await visible(page.getByTestId('toast').filter({ hasText: 'notes.txt moved to Photos' }));
    await eventually(() => media.names()).not.toContain('notes.txt');
    await media.openFolder('Photos');
    await eventually(() => media.names()).toEqual(['notes.txt']);
    await page.getByRole('navigation', { name: 'Folder path' }).getByRole('button', { name: 'Media library' }).click();

    await page.getByRole('button', { name: 'Rename folder Photos' }).click();
    const rename = page.getByRole('dialog', { name: 'Rename folder “Photos”' });
    await rename.getByLabel('Folder name').fill('Pictures');
    await rename.getByRole('button', { name: 'Rename folder' }).click();
    await visible(page.getByTestId('toast').filter({ hasText: 'Folder renamed to Pictures' }));
    await media.openFolder('Pictures');
    await eventually(() => media.names()).toEqual(['notes.txt']);
    const folders = (await dataList(server, '/admin/api/upload/folders', { token: session })).map((f) => f.name);
    expect(folders).toContain('Pictures');
    expect(folders).not.toContain('Photos');

    // A folder moves with its files into another one; it cannot go into itself.
    await page.getByRole('navigation', { name: 'Folder path' }).getByRole('button', { name: 'Media library' }).click();
    await page.getByRole('button', { name: 'New folder' }).click();
    await page.getByRole('dialog', { name: 'New folder' }).getByLabel('Folder name').fill('Archive');
    await page.getByRole('button', { name: 'Create folder' }).click();
    await page.getByRole('button', { name: 'Move folder Pictures' }).click();
    const move = page.getByRole('dialog', { name: 'Move folder “Pictures”' });
    await eventually(() => move.getByLabel('Move into').locator('option').allInnerTexts()).toEqual(['Choose a folder…', 'Media library (top level)', 'API Uploads', 'Archive']);
    await move.getByLabel('Move into').selectOption({ label: 'Archive' });
    await move.getByRole('button', { name: 'Move folder' }).click();
    await visible(page.getByTestId('toast').filter({ hasText: 'Folder Pictures moved to Archive' }));
    await eventually(() => page.getByRole('list', { name: 'Folders' }).getByRole('button', { name: /^Pictures/ }).count()).toBe(0);
    await media.openFolder('Archive');
    await media.openFolder('Pictures');
    await eventually(() => media.names()).toEqual(['notes.txt']);
    expect(e2e.problems).toEqual([]);
  });
});
