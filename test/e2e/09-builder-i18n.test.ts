import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, data } from './support/api.js';
import { loginAsOwner } from './support/auth-pages.js';
import { BuilderPage } from './support/builder-page.js';
import { captureFailures, registerOwner, startE2E, type E2E } from './support/harness.js';
import { eventually, visible } from './support/wait.js';

const readJson = async (file: string): Promise<unknown> => JSON.parse(await readFile(file, 'utf8'));

/** The field dialog's "Different in each locale" box. */
const localizedBox = (builder: BuilderPage) => builder.dialog().getByLabel('Different in each locale');

describe('9. builder: per-field localization is written as shown', () => {
  let e2e: E2E;
  let session: string;
  beforeAll(async () => {
    e2e = await startE2E();
    session = await registerOwner(e2e.server);
    await data(e2e.server, '/admin/api/i18n/locales', { method: 'POST', token: session, json: { code: 'fr', name: 'French (fr)' } }, 201);
  });
  afterAll(async () => {
    await e2e?.close();
  });
  captureFailures(() => e2e);

  it('a localized type built in the UI keeps a title per locale: publishing fr leaves the en title alone', async () => {
    const { page, server, schemasDir } = e2e;
    await loginAsOwner(page);
    const builder = new BuilderPage(page);
    await builder.open();
    await builder.newType('Poem', { i18n: true });
    await builder.addField('Short text', 'title', async () => {
      expect(await localizedBox(builder).isChecked()).toBe(true);
    });
    await builder.addField('Integer', 'lines', async () => {
      await localizedBox(builder).uncheck();
    });
    await builder.save('Poem created');
    await page.waitForURL(/\/admin\/builder\/types\/api%3A%3Apoem\.poem$/);

    // The file says what the dialog showed.
    const file = join(schemasDir, 'src/api/poem/content-types/poem/schema.json');
    expect(JSON.parse(await readFile(file, 'utf8'))).toMatchObject({
      pluginOptions: { i18n: { localized: true } },
      attributes: {
        title: { type: 'string', pluginOptions: { i18n: { localized: true } } },
        lines: { type: 'integer', pluginOptions: { i18n: { localized: false } } },
      },
    });

    // Read back, the dialog shows the same state.
    for (const [field, localized] of [['title', true], ['lines', false]] as const) {
      await page.getByRole('button', { name: `Edit ${field}` }).click();
      expect(await localizedBox(builder).isChecked()).toBe(localized);
      await builder.dialog().getByRole('button', { name: 'Cancel' }).click();
    }

    // en is published; fr is a draft then published through the admin, as in the content manager.
    const en = await data(server, '/api/poems', { method: 'POST', token: session, json: { data: { title: 'Hello', lines: 4 } } }, 201);
    const id = String(en.documentId);
    await data(server, `/api/poems/${id}?locale=fr&status=draft`, { method: 'PUT', token: session, json: { data: { title: 'Bonjour' } } });
    await data(server, `/admin/api/content-manager/api::poem.poem/documents/${id}/actions/publish?locale=fr`, { method: 'POST', token: session });

    expect(await data(server, `/api/poems/${id}?locale=en`, { token: session })).toMatchObject({ title: 'Hello', lines: 4, locale: 'en' });
    expect(await data(server, `/api/poems/${id}?locale=fr`, { token: session })).toMatchObject({ title: 'Bonjour', lines: 4, locale: 'fr' });
    await visible(page.getByTestId('field-row-title'));
    expect(e2e.problems).toEqual([]);
  });

  it('a field read without the option is shown and saved as not localized; switching a type to i18n localizes its fields', async () => {
    const { page, schemasDir } = e2e;
    // A hand-written localized type whose title has no i18n option: the server shares it between locales.
    const folder = join(schemasDir, 'src/api/ballad/content-types/ballad');
    await mkdir(folder, { recursive: true });
    const ballad = {
      kind: 'collectionType',
      collectionName: 'ballads',
      info: { singularName: 'ballad', pluralName: 'ballads', displayName: 'Ballad' },
      options: { draftAndPublish: true },
      pluginOptions: { i18n: { localized: true } },
      attributes: { title: { type: 'string' }, verse: { type: 'text', pluginOptions: { i18n: { localized: true } } } },
    };
    await writeFile(join(folder, 'schema.json'), JSON.stringify(ballad, null, 2));
    const builder = new BuilderPage(page);
    await eventually(async () => (await call(e2e.server, '/admin/api/content-types/api::ballad.ballad', { token: session })).status).toBe(200);
    // The admin UI reads the schemas when it loads.
    await page.reload();
    await builder.open();
    await page.getByRole('link', { name: 'Ballad' }).click();
    for (const [field, localized] of [['title', false], ['verse', true]] as const) {
      await page.getByRole('button', { name: `Edit ${field}` }).click();
      expect(await localizedBox(builder).isChecked()).toBe(localized);
      await builder.dialog().getByRole('button', { name: 'Cancel' }).click();
    }
    await builder.save('Ballad saved');
    expect(await readJson(join(folder, 'schema.json'))).toMatchObject({
      attributes: { title: { type: 'string', pluginOptions: { i18n: { localized: false } } }, verse: { type: 'text', pluginOptions: { i18n: { localized: true } } } },
    });

    // Switching Internationalization on for a type makes its fields localized (Strapi's builder does the same).
    await builder.open();
    await page.getByRole('link', { name: 'Tag', exact: true }).click();
    await page.getByLabel('Internationalization').check();
    await page.getByRole('button', { name: 'Edit label' }).click();
    expect(await localizedBox(builder).isChecked()).toBe(true);
    await builder.dialog().getByRole('button', { name: 'Cancel' }).click();
    await builder.save('Tag saved');
    expect(await readJson(join(schemasDir, 'src/api/tag/content-types/tag/schema.json'))).toMatchObject({
      pluginOptions: { i18n: { localized: true } },
      attributes: { label: { type: 'string', pluginOptions: { i18n: { localized: true } } } },
    });
    expect(e2e.problems).toEqual([]);
  });
});
