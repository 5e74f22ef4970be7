import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { collection, dataOf, expectJson, writeProject, type Doc } from '../helpers/project.js';

let server: TestServer;
let token: string;

beforeAll(async () => {
  const schemas = await writeProject({
    types: {
      recipe: collection('recipe', 'recipes', {
        name: { type: 'string' },
        ingredients: { type: 'component', repeatable: true, component: 'food.ingredient', min: 1, max: 3 },
        nutrition: { type: 'component', component: 'food.nutrition', required: true },
        steps: { type: 'dynamiczone', components: ['food.step', 'food.tip'] },
      }),
    },
    components: {
      'food.ingredient': { attributes: { name: { type: 'string', required: true }, grams: { type: 'integer', min: 0 } } },
      'food.nutrition': { attributes: { kcal: { type: 'integer' }, facts: { type: 'component', repeatable: true, component: 'food.fact' } } },
      'food.fact': { attributes: { label: { type: 'string' } } },
      'food.step': { attributes: { text: { type: 'text' } } },
      'food.tip': { attributes: { hint: { type: 'string' } } },
      'food.unused': { attributes: { x: { type: 'string' } } },
    },
  });
  server = await startTestServer({ schemas });
  token = await server.token('full-access');
});
afterAll(() => server.close());

const req = (path: string, init: Parameters<TestServer['request']>[1] = {}) => server.request(path, { token, ...init });
const valid = () => ({
  name: 'Soup',
  ingredients: [{ name: 'water', grams: 500 }, { name: 'salt', grams: 5 }],
  nutrition: { kcal: 40, facts: [{ label: 'vegan' }] },
  steps: [{ __component: 'food.step', text: 'Boil' }, { __component: 'food.tip', hint: 'Stir' }],
});

describe('components and dynamic zones', () => {
  it('stores and populates repeatable, nested and dynamic-zone components', async () => {
    const created = await dataOf(await req('/api/recipes?populate[ingredients]=true&populate[nutrition][populate][facts]=true&populate[steps]=true', { method: 'POST', json: { data: valid() } }), 201);
    expect(created).toMatchObject({
      ingredients: [{ name: 'water', grams: 500 }, { name: 'salt', grams: 5 }],
      nutrition: { kcal: 40, facts: [{ label: 'vegan' }] },
      steps: [
        { text: 'Boil', __component: 'food.step' },
        { hint: 'Stir', __component: 'food.tip' },
      ],
    });
    expect(Object.keys((created.steps as Doc[])[0] ?? {})).toEqual(['id', 'text', '__component']);
    const plain = await dataOf(await req(`/api/recipes/${created.documentId}`));
    expect(plain).not.toHaveProperty('ingredients');
    expect(plain).not.toHaveProperty('steps');
  });

  it('validates inner fields with Strapi paths', async () => {
    const data = { ...valid(), ingredients: [{ name: 'ok' }, { grams: -1 }] };
    const body = await expectJson<{ error: { message: string; details: { errors: { path: string[]; message: string }[] } } }>(
      await req('/api/recipes', { method: 'POST', json: { data } }),
      400,
    );
    expect(body.error.message).toBe('2 errors occurred');
    expect(body.error.details.errors.map((e) => [e.path.join('.'), e.message])).toEqual([
      ['ingredients.1.name', 'ingredients[1].name must be defined.'],
      ['ingredients.1.grams', 'ingredients[1].grams must be greater than or equal to 0'],
    ]);
  });

  it('requires __component and a known component in dynamic zones', async () => {
    const missing = await expectJson<{ error: { details: { errors: { path: string[]; message: string }[] } } }>(
      await req('/api/recipes', { method: 'POST', json: { data: { ...valid(), steps: [{ text: 'x' }] } } }),
      400,
    );
    expect(missing.error.details.errors[0]).toMatchObject({ path: ['steps', '0', '__component'], message: 'steps[0].__component is a required field' });
    const unknown = await expectJson<{ error: { details: { errors: { message: string }[] } } }>(
      await req('/api/recipes', { method: 'POST', json: { data: { ...valid(), steps: [{ __component: 'food.nope' }] } } }),
      400,
    );
    expect(unknown.error.details.errors[0]?.message).toBe(
      'steps[0].__component must be one of the following values: food.unused, food.tip, food.step, food.nutrition, food.ingredient, food.fact',
    );
  });

  it('refuses a component that exists but is not allowed in the dynamic zone', async () => {
    const body = await expectJson<{ error: { name: string; message: string } }>(
      await req('/api/recipes', { method: 'POST', json: { data: { ...valid(), steps: [{ __component: 'food.unused', x: 'y' }] } } }),
      400,
    );
    expect(body.error).toMatchObject({ name: 'ValidationError', message: 'steps[0].__component must be one of the following values: food.step, food.tip' });
  });

  it('enforces repeatable min/max and a required single component on create', async () => {
    const tooMany = await expectJson<{ error: { message: string } }>(
      await req('/api/recipes', { method: 'POST', json: { data: { ...valid(), ingredients: [{ name: 'a' }, { name: 'b' }, { name: 'c' }, { name: 'd' }] } } }),
      400,
    );
    expect(tooMany.error.message).toBe('ingredients field must have less than or equal to 3 items');
    const { nutrition: _n, ...rest } = valid();
    const noNutrition = await expectJson<{ error: { message: string } }>(await req('/api/recipes', { method: 'POST', json: { data: rest } }), 400);
    expect(noNutrition.error.message).toBe('nutrition must be defined.');
  });

  it('replaces components on update, keeping an item whose id is given', async () => {
    const created = await dataOf(await req('/api/recipes?populate=ingredients', { method: 'POST', json: { data: valid() } }), 201);
    const [water] = created.ingredients as Doc[];
    const updated = await dataOf(
      await req(`/api/recipes/${created.documentId}?populate=ingredients`, {
        method: 'PUT',
        json: { data: { ingredients: [{ name: 'pepper' }, { id: water?.id, name: 'water', grams: 250 }] } },
      }),
    );
    const items = updated.ingredients as Doc[];
    expect(items.map((i) => i.name)).toEqual(['pepper', 'water']);
    expect(items[1]?.id).toBe(water?.id);
    expect(items[1]?.grams).toBe(250);
    const untouched = await dataOf(await req(`/api/recipes/${created.documentId}?populate=steps`, { method: 'PUT', json: { data: { name: 'Renamed' } } }));
    expect((untouched.steps as Doc[]).length).toBe(2);
  });

  it('a null repeatable component is refused; an empty list clears it', async () => {
    const created = await dataOf(await req('/api/recipes', { method: 'POST', json: { data: valid() } }), 201);
    const refused = await expectJson<{ error: { message: string } }>(
      await req(`/api/recipes/${created.documentId}`, { method: 'PUT', json: { data: { steps: null } } }),
      400,
    );
    expect(refused.error.message).toBe('steps must be a `array` type, but the final value was: `null`.');
    const cleared = await dataOf(await req(`/api/recipes/${created.documentId}?populate=steps`, { method: 'PUT', json: { data: { steps: [] } } }));
    expect(cleared.steps).toEqual([]);
  });

  it('an unknown key inside a component is Strapi 400 with its path', async () => {
    const body = await expectJson(await req('/api/recipes', { method: 'POST', json: { data: { ...valid(), nutrition: { kcal: 1, nope: 2 } } } }), 400);
    expect(body).toEqual({
      data: null,
      error: { status: 400, name: 'ValidationError', message: 'Invalid key nope at nutrition', details: { key: 'nope', path: 'nutrition', source: 'body' } },
    });
  });
});

describe('filters through components', () => {
  it('count documents once, however many component rows match, and a nested component the same', async () => {
    const names = ['Stew A', 'Stew B', 'Stew C'];
    for (const [i, name] of names.entries()) {
      // Stews A and B have two carrot rows each; only A is "stewy".
      const ingredients = i < 2 ? [{ name: 'carrot', grams: 10 + i }, { name: 'carrot', grams: 20 }] : [{ name: 'leek', grams: 30 }];
      const body = { ...valid(), name, ingredients, nutrition: { kcal: 100 + i, facts: [{ label: i === 0 ? 'stewy' : 'plain' }] } };
      await dataOf(await req('/api/recipes', { method: 'POST', json: { data: body } }), 201);
    }
    const list = async (query: string) => {
      const page = await expectJson<{ data: { name: string }[]; meta: { pagination: { total: number } } }>(await req(`/api/recipes?${query}&fields[0]=name&sort=name:asc&pagination[pageSize]=100`), 200);
      return { names: page.data.map((d) => d.name), total: page.meta.pagination.total };
    };
    expect(await list('filters[ingredients][name][$eq]=carrot')).toEqual({ names: ['Stew A', 'Stew B'], total: 2 });
    expect(await list('filters[nutrition][facts][label][$eq]=stewy')).toEqual({ names: ['Stew A'], total: 1 });
    expect(await list('filters[name][$startsWith]=Stew&filters[$not][nutrition][facts][label][$eq]=stewy')).toEqual({ names: ['Stew B', 'Stew C'], total: 2 });
  });
});
