import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppNav, loginAsOwner } from './support/auth-pages.js';
import { BuilderPage } from './support/builder-page.js';
import { captureFailures, registerOwner, screenshot, startE2E, type E2E } from './support/harness.js';
import { eventually, visible } from './support/wait.js';

async function readJson(path: string): Promise<unknown> {
  return JSON.parse(await readFile(path, 'utf8'));
}

describe('2. content-type builder', () => {
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

  it('builds a type with a relation, a component and a dynamic zone, applied live and written as Strapi files', async () => {
    const { page, server, schemasDir } = e2e;
    await loginAsOwner(page);
    const builder = new BuilderPage(page);
    await builder.open();
    await visible(page.getByRole('link', { name: 'Article' }));
    await screenshot(page, 'builder');

    // A component first: the type below uses it alone and in its dynamic zone.
    await builder.newComponent('Callout', 'blocks');
    await builder.addField('Short text', 'heading');
    await builder.addField('Long text', 'body');
    await builder.save('Callout created');
    await page.waitForURL(/\/admin\/builder\/components\/blocks\.callout$/);
    expect(await readJson(join(schemasDir, 'src/components/blocks/callout.json'))).toMatchObject({
      info: { displayName: 'Callout' },
      attributes: { heading: { type: 'string' }, body: { type: 'text' } },
    });

    await builder.open();
    await builder.newType('Recipe', { i18n: true });
    expect(await page.getByLabel('API ID (plural)').inputValue()).toBe('recipes');
    await builder.addField('Short text', 'title', async (d) => {
      await d.getByLabel('Required').check();
      await d.getByLabel('Maximum length').fill('80');
    });
    await builder.addField('Enumeration', 'difficulty', async (d) => {
      await d.getByLabel('Values').fill('easy\nmedium\nhard');
      await d.getByLabel('Default value').selectOption('easy');
    });
    await builder.addField('Integer', 'servings', async (d) => {
      await d.getByLabel('Minimum', { exact: true }).fill('1');
      await d.getByLabel('Maximum', { exact: true }).fill('12');
      await d.getByLabel('Different in each locale').uncheck();
    });
    await builder.addField('Boolean', 'vegetarian');
    await builder.addField('Media', 'photo', async (d) => {
      for (const kind of ['Videos', 'Audio', 'Other files']) await d.getByLabel(kind).uncheck();
    });
    await builder.addField('Relation', 'category', async (d) => {
      await d.getByLabel('Kind of relation').selectOption('manyToOne');
      await d.getByLabel('Related type').selectOption('api::category.category');
      await screenshot(page, 'builder-field-dialog');
    });
    await builder.addField('Component', 'intro', async (d) => {
      await d.getByLabel('Component', { exact: true }).selectOption('blocks.callout');
    });
    await builder.addField('Dynamic zone', 'sections', async (d) => {
      await d.getByLabel('Callout (blocks.callout)').check();
      await d.getByLabel('Quote (shared.quote)').check();
    });
    await screenshot(page, 'builder-type');
    await builder.save('Recipe created');
    await page.waitForURL(/\/admin\/builder\/types\/api%3A%3Arecipe\.recipe$/);

    const file = join(schemasDir, 'src/api/recipe/content-types/recipe/schema.json');
    expect(await readJson(file)).toMatchObject({
      kind: 'collectionType',
      info: { singularName: 'recipe', pluralName: 'recipes', displayName: 'Recipe' },
      options: { draftAndPublish: true },
      pluginOptions: { i18n: { localized: true } },
      attributes: {
        title: { type: 'string', required: true, maxLength: 80 },
        difficulty: { type: 'enumeration', enum: ['easy', 'medium', 'hard'], default: 'easy' },
        servings: { type: 'integer', min: 1, max: 12, pluginOptions: { i18n: { localized: false } } },
        vegetarian: { type: 'boolean' },
        photo: { type: 'media', multiple: false, allowedTypes: ['images'] },
        category: { type: 'relation', relation: 'manyToOne', target: 'api::category.category' },
        intro: { type: 'component', component: 'blocks.callout', repeatable: false },
        sections: { type: 'dynamiczone', components: ['blocks.callout', 'shared.quote'] },
      },
    });

    // Live: the content API serves the new type at once, and the content manager lists it.
    const created = await server.request('/api/recipes?status=draft', {
      method: 'POST',
      token: session,
      json: { data: { title: 'Soup', vegetarian: true, intro: { heading: 'Warm' }, sections: [{ __component: 'shared.quote', text: 'Good', author: 'Ada' }] } },
    });
    expect(created.status).toBe(201);
    await new AppNav(page).go('Content');
    await page.getByRole('navigation', { name: 'Content-types' }).getByRole('link', { name: 'Recipe' }).click();
    await visible(page.getByRole('link', { name: 'Soup' }));

    // Editing: add a field and remove one that holds data; the server asks before dropping it.
    await builder.open();
    await page.getByRole('link', { name: 'Recipe' }).click();
    await visible(page.getByTestId('field-row-vegetarian'));
    await builder.addField('Long text', 'notes');
    await builder.removeField('vegetarian');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete stored data?' });
    await visible(confirm.getByText('api::recipe.recipe.vegetarian'));
    await confirm.getByRole('button', { name: 'Delete data and save' }).click();
    await visible(page.getByTestId('toast').filter({ hasText: 'Recipe saved' }));
    await eventually(async () => JSON.stringify(await readJson(file))).toContain('"notes"');
    const schema = await readJson(file);
    expect(schema).toMatchObject({ attributes: { notes: { type: 'text' } } });
    expect(JSON.stringify(schema)).not.toContain('vegetarian');
    expect(e2e.problems).toEqual([]);
  });
});
