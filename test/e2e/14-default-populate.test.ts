import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginAsOwner } from './support/auth-pages.js';
import { BuilderPage } from './support/builder-page.js';
import { captureFailures, registerOwner, startE2E, type E2E } from './support/harness.js';
import { visible } from './support/wait.js';

describe('14. a default populate set in the type editor', () => {
  let e2e: E2E;
  beforeAll(async () => {
    e2e = await startE2E();
    await registerOwner(e2e.server);
  });
  afterAll(async () => {
    await e2e?.close();
  });
  captureFailures(() => e2e);

  it('is written to schema.json under pluginOptions.hearth and used by find when a request sends no populate', async () => {
    const { page, server, schemasDir } = e2e;
    await loginAsOwner(page);
    const builder = new BuilderPage(page);
    await builder.open();
    await page.getByRole('link', { name: 'Article', exact: true }).click();
    const field = page.getByLabel('Default populate');
    await visible(field);
    expect(await field.inputValue()).toBe('');
    await field.fill('category');
    await builder.save('Article saved');

    const schema = JSON.parse(await readFile(join(schemasDir, 'src/api/article/content-types/article/schema.json'), 'utf8')) as { pluginOptions: unknown };
    expect(schema.pluginOptions).toMatchObject({ hearth: { defaultPopulate: 'category' } });
    const token = await server.token('full-access');
    const category = (await (await server.request('/api/categories', { method: 'POST', token, json: { data: { name: 'News' } } })).json()) as { data: { documentId: string } };
    await server.request('/api/articles', { method: 'POST', token, json: { data: { title: 'Hello', category: category.data.documentId } } });
    const list = (await (await server.request('/api/articles?status=draft', { token })).json()) as { data: { title: string; category?: { name: string } }[] };
    expect(list.data.find((a) => a.title === 'Hello')?.category).toMatchObject({ name: 'News' });

    // Read back by the editor after a reload.
    await page.reload();
    await visible(page.getByLabel('Default populate'));
    expect(await page.getByLabel('Default populate').inputValue()).toBe('category');
  });
});
