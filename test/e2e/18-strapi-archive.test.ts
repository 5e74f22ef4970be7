import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppNav, loginAsOwner } from './support/auth-pages.js';
import { ContentPage } from './support/content-page.js';
import { data } from './support/api.js';
import { captureFailures, registerOwner, screenshot, startE2E, type E2E } from './support/harness.js';
import { visible } from './support/wait.js';

const STRAPI_EXPORT = resolve(import.meta.dirname, '../fixtures/strapi/export/export-example.tar.gz');

/** Entity lines per type of the unpacked copy of the same archive, counted here. */
async function archiveCounts(): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  const text = await readFile(resolve(import.meta.dirname, '../fixtures/strapi/export/archive/entities/entities_00001.jsonl'), 'utf8');
  for (const line of text.split('\n').filter(Boolean)) {
    const { type } = JSON.parse(line) as { type: string };
    counts.set(type, (counts.get(type) ?? 0) + 1);
  }
  return counts;
}

describe('18. Strapi archives in settings', () => {
  let e2e: E2E;
  let session: string;
  beforeAll(async () => {
    e2e = await startE2E();
    session = await registerOwner(e2e.server);
    await data(e2e.server, '/api/articles', { method: 'POST', token: session, json: { data: { title: 'Kept here' } } }, 201);
  });
  afterAll(async () => {
    await e2e?.close();
  });
  captureFailures(() => e2e);

  it('inspects a Strapi export and lists its types and counts, changing nothing', async () => {
    const { page, server } = e2e;
    await loginAsOwner(page);
    await new AppNav(page).go('Settings');
    await visible(page.getByRole('heading', { level: 2, name: 'Strapi' }));
    await page.getByLabel('Archive', { exact: true }).setInputFiles(STRAPI_EXPORT);
    await page.getByRole('button', { name: 'Inspect' }).click();
    await visible(page.getByTestId('strapi-inspection'));

    const counts = await archiveCounts();
    const total = [...counts.values()].reduce((a, b) => a + b, 0);
    expect(await page.getByTestId('strapi-totals').innerText()).toContain(`${total} entities`);
    const articles = page.getByTestId('strapi-type-api::article.article');
    expect(await articles.getByRole('cell').allInnerTexts()).toEqual(['Collection type', String(counts.get('api::article.article'))]);
    expect(await page.getByTestId('strapi-type-api::homepage.homepage').getByRole('cell').first().innerText()).toBe('Single type');
    expect(await page.getByTestId('strapi-type-shared.seo').getByRole('cell').first().innerText()).toBe('Component');

    expect(await page.getByTestId('strapi-conflicts').count()).toBe(0);
    // Nothing was imported: the server keeps its own article.
    const list = (await (await server.request('/api/articles?status=draft', { token: session })).json()) as { data: { title: string }[] };
    expect(list.data.map((a) => a.title)).toEqual(['Kept here']);
    await screenshot(page, 'settings-strapi-import');
    expect(e2e.problems).toEqual([]);
  });

  it('refuses a wrong key with the archive reason, and downloads an encrypted export for Strapi', async () => {
    const { page } = e2e;
    await page.getByLabel('Encryption key (optional)').fill('s3cret');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export for Strapi' }).click()]);
    expect(download.suggestedFilename()).toBe('hearth-strapi-export.tar.gz.enc');
    const bytes = await readFile(await download.path());
    expect(bytes.length).toBeGreaterThan(0);

    // The downloaded archive inspects back through the same screen with its key; a wrong key is refused.
    await page.getByLabel('Archive', { exact: true }).setInputFiles({ name: 'hearth-strapi-export.tar.gz.enc', mimeType: 'application/octet-stream', buffer: bytes });
    await page.getByLabel('Encryption key', { exact: true }).fill('wrong');
    await page.getByRole('button', { name: 'Inspect' }).click();
    await visible(page.getByRole('alert').filter({ hasText: 'wrong key' }));
    await page.getByLabel('Encryption key', { exact: true }).fill('s3cret');
    await page.getByRole('button', { name: 'Inspect' }).click();
    await visible(page.getByTestId('strapi-inspection'));
    // One article, created published: its draft and published rows are two entities, as Strapi exports them.
    expect(await page.getByTestId('strapi-type-api::article.article').getByRole('cell').allInnerTexts()).toEqual(['Collection type', '2']);
    expect(e2e.problems).toEqual([]);
  });

  it('imports the archive into the running app: confirm, progress, result, and the content screens show it without a reload', async () => {
    const { page, server } = e2e;
    const content = new ContentPage(page);
    await content.openType('Article');
    expect(await content.titles()).toEqual(['Kept here']);

    await new AppNav(page).go('Settings');
    await page.getByLabel('Encryption key', { exact: true }).fill('');
    await page.getByLabel('Archive', { exact: true }).setInputFiles(STRAPI_EXPORT);
    await page.getByRole('button', { name: 'Inspect' }).click();
    await visible(page.getByTestId('strapi-inspection'));
    await page.getByRole('button', { name: 'Import…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import from Strapi?' });
    await visible(dialog);
    await dialog.getByRole('button', { name: 'Import', exact: true }).click();
    await visible(page.getByTestId('strapi-import-progress'));
    const result = page.getByTestId('strapi-import-result');
    await visible(result);
    const lines = (await readFile(resolve(import.meta.dirname, '../fixtures/strapi/export/archive/entities/entities_00001.jsonl'), 'utf8')).split('\n').filter(Boolean).map((l) => JSON.parse(l) as { type: string; data: { documentId: string } });
    const documents = new Set(lines.filter((l) => l.type.startsWith('api::')).map((l) => `${l.type} ${l.data.documentId}`)).size;
    const files = lines.filter((l) => l.type === 'plugin::upload.file').length;
    expect(await result.innerText()).toContain(`${documents} documents and ${files} media files (${lines.length} entities`);
    await screenshot(page, 'settings-strapi-imported');

    // Without reloading the page, the content screens list the archive's articles; the server's own is gone.
    await content.openType('Article');
    await visible(page.getByRole('link', { name: 'Hello World' }));
    const titles = await content.titles();
    expect(titles).toContain('Hello World');
    expect(titles).not.toContain('Kept here');
    const api = (await (await server.request('/api/articles?status=draft', { token: session })).json()) as { data: { title: string }[] };
    expect(api.data.map((a) => a.title)).toEqual(expect.arrayContaining(['Hello World']));
    expect(e2e.problems).toEqual([]);
  });
});
