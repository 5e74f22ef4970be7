import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { dataOf } from '../helpers/project.js';

/** The bench's project: recipes (relations, components, a dynamic zone) and marketing pages (nested components, media). */
const BENCH_SCHEMA = resolve(import.meta.dirname, '../../bench/schema');

let server: TestServer;
let token: string;
let cuisine: string;
let tags: string[];

beforeAll(async () => {
  server = await startTestServer({ schemas: BENCH_SCHEMA });
  token = await server.token('full-access');
  const region = await dataOf(await req('/api/regions', { method: 'POST', json: { data: { name: 'Europe' } } }), 201);
  cuisine = String((await dataOf(await req('/api/cuisines', { method: 'POST', json: { data: { name: 'Italian', region: region.documentId } } }), 201)).documentId);
  tags = [];
  for (const label of ['a', 'b', 'c']) tags.push(String((await dataOf(await req('/api/tags', { method: 'POST', json: { data: { label } } }), 201)).documentId));
});
afterAll(() => server.close());

const req = (path: string, init: Parameters<TestServer['request']>[1] = {}) => server.request(path, { token, ...init });
const statements = () => server.server.services.database.queryCount();

const recipe = (items: number) => ({
  title: `Soup with ${items}`,
  cuisine,
  tags,
  nutrition: { calories: 100 },
  ingredients: Array.from({ length: items }, (_, i) => ({ name: `item ${i}`, quantity: i })),
  sections: Array.from({ length: items }, (_, i) => (i % 2 ? { __component: 'recipe.tip', text: `tip ${i}` } : { __component: 'recipe.step', instruction: `step ${i}` })),
});

/** Statements of one `PUT` that updates the draft and publishes it. */
async function updateStatements(items: number): Promise<number> {
  const created = await dataOf(await req('/api/recipes', { method: 'POST', json: { data: recipe(items) } }), 201);
  const before = statements();
  await dataOf(await req(`/api/recipes/${String(created.documentId)}`, { method: 'PUT', json: { data: { title: 'Renamed', prepMinutes: 10 } } }), 200);
  return statements() - before;
}

/** Statements of one `POST` (draft written, then published). */
async function createStatements(items: number): Promise<number> {
  const before = statements();
  await dataOf(await req('/api/recipes', { method: 'POST', json: { data: recipe(items) } }), 201);
  return statements() - before;
}

describe('statements per write', () => {
  it('a create costs the same for 2 and 12 components of each kind (scalar-only components are inserted a table at a time)', async () => {
    await createStatements(1);
    const few = await createStatements(2);
    expect(await createStatements(12)).toBe(few);
    // 40 on SQLite, 41 on PostgreSQL.
    expect(few).toBeLessThanOrEqual(41);
  });

  it('an update that publishes costs the same for 2 and 12 components of each kind (the copy is written a table at a time)', async () => {
    const few = await updateStatements(2);
    const many = await updateStatements(12);
    expect(many).toBe(few);
    // 39 on SQLite, 40 on PostgreSQL.
    expect(few).toBeLessThanOrEqual(40);
  });
});

/** Statements of publishing a recipe that `links` features of a page point to (each link re-pointed to the new version). */
async function linkedUpdateStatements(links: number): Promise<number> {
  const target = await dataOf(await req('/api/recipes', { method: 'POST', json: { data: recipe(1) } }), 201);
  const features = Array.from({ length: links }, (_, i) => ({ title: `f${i}`, recipe: target.documentId }));
  await dataOf(await req('/api/pages', { method: 'POST', json: { data: { title: `Linked ${links}`, blocks: [{ __component: 'sections.feature-grid', features }] } } }), 201);
  const before = statements();
  await dataOf(await req(`/api/recipes/${String(target.documentId)}`, { method: 'PUT', json: { data: { title: 'Renamed' } } }), 200);
  const count = statements() - before;
  const page = await dataOf(await req(`/api/pages?filters[title]=Linked ${links}&populate[blocks][on][sections.feature-grid][populate][features][populate]=recipe`), 200);
  const linked = JSON.stringify(page).match(/"title":"Renamed"/g) ?? [];
  expect(linked).toHaveLength(links);
  return count;
}

describe('statements per write, unique values', () => {
  it('a create looks a unique value up once, for the draft and the published version', async () => {
    const count = async (data: Record<string, unknown>) => {
      const before = statements();
      await dataOf(await req('/api/recipes', { method: 'POST', json: { data } }), 201);
      return statements() - before;
    };
    const without = await count({ title: 'No slug' });
    expect(await count({ title: 'With slug', slug: 'with-slug' })).toBe(without + 1);
  });
});

describe('statements per write, links from other documents', () => {
  it('publishing a recipe costs the same whether 1 or 6 page components link it (the links are restored in one statement)', async () => {
    expect(await linkedUpdateStatements(6)).toBe(await linkedUpdateStatements(1));
  });
});

describe('publishing copies nested components as before', () => {
  it('numbers the copied components of each table in reading order, as one-at-a-time inserts did', async () => {
    const link = (label: string) => ({ label, url: `/${label}` });
    const data = {
      title: 'Home',
      blocks: [
        { __component: 'sections.hero', title: 'Hi', buttons: [link('a'), link('b')] },
        { __component: 'sections.feature-grid', heading: 'F', features: [{ title: 'x', link: link('c') }, { title: 'y', link: link('d') }] },
        { __component: 'sections.call-to-action', text: 'Go', link: link('e') },
      ],
    };
    const populate = 'populate[blocks][on][sections.hero][populate]=buttons&populate[blocks][on][sections.feature-grid][populate][features][populate]=link&populate[blocks][on][sections.call-to-action][populate]=link';
    const created = await dataOf(await req(`/api/pages?${populate}`, { method: 'POST', json: { data } }), 201);
    const labelsAndIds = (page: Record<string, unknown>) => {
      const out: [string, number][] = [];
      const walk = (v: unknown): void => {
        if (Array.isArray(v)) v.forEach(walk);
        else if (typeof v === 'object' && v !== null) {
          const o = v as Record<string, unknown>;
          if (typeof o.label === 'string' && typeof o.url === 'string') out.push([o.label, Number(o.id)]);
          Object.values(o).forEach(walk);
        }
      };
      walk(page.blocks);
      return out;
    };
    const published = labelsAndIds(created);
    expect(published.map(([label]) => label)).toEqual(['a', 'b', 'c', 'd', 'e']);
    const ids = published.map(([, id]) => id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    const draft = await dataOf(await req(`/api/pages/${String(created.documentId)}?status=draft&${populate}`), 200);
    expect(labelsAndIds(draft).map(([label]) => label)).toEqual(['a', 'b', 'c', 'd', 'e']);
    const { id: _a, publishedAt: _b, ...publishedRest } = created;
    const { id: _c, publishedAt: _d, ...draftRest } = draft;
    const withoutIds = (v: unknown): unknown => JSON.parse(JSON.stringify(v, (k, x: unknown) => (k === 'id' ? undefined : x)));
    expect(withoutIds(publishedRest)).toEqual(withoutIds(draftRest));
  });
});
