import fc from 'fast-check';
import qs from 'qs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { collection, dataOf, listOf, writeProject, type Doc } from '../helpers/project.js';
import { select, type RefModel, type Row } from './reference-filter.js';

/**
 * Random documents, random filter trees: Hearth's answer must be exactly the reference
 * evaluator's (itself checked against Strapi's transcripts in reference.test.ts).
 */
const RUNS = Number(process.env.HEARTH_PROPERTY_RUNS ?? 1000);

const TITLES = ['Åland', 'åland', 'ÅLAND', 'Apple', 'apple pie', 'APPLE', 'Banana', 'b%nana', 'b_nana', 'Ünïcode', 'ünïcode', '', null] as const;
const NUMBERS = [null, -1, 0, 3, 10, 50] as const;
const RATINGS = [null, 0.5, 2.25, 4.5] as const;
const FLAGS = [null, true, false] as const;
const NAMES = ['Tech', 'tech', 'Life'];
const LABELS = ['js', 'JS', 'node', 'Öl'];

const tagModel: RefModel = { scalars: { label: 'string' }, relations: {} };
const categoryModel: RefModel = { scalars: { name: 'string' }, relations: {} };
const entryModel: RefModel = {
  scalars: { title: 'string', views: 'integer', rating: 'float', featured: 'boolean' },
  relations: { category: categoryModel, tags: tagModel },
};

let server: TestServer;
let token: string;
const rows: Row[] = [];

beforeAll(async () => {
  const schemas = await writeProject({
    types: {
      entry: collection('entry', 'entries', {
        title: { type: 'string' },
        views: { type: 'integer' },
        rating: { type: 'float' },
        featured: { type: 'boolean' },
        category: { type: 'relation', relation: 'manyToOne', target: 'api::category.category' },
        tags: { type: 'relation', relation: 'manyToMany', target: 'api::tag.tag' },
      }),
      category: collection('category', 'categories', { name: { type: 'string' } }),
      tag: collection('tag', 'tags', { label: { type: 'string' } }),
    },
  });
  server = await startTestServer({ schemas });
  token = await server.token('full-access');
  const post = async (path: string, data: unknown) => dataOf(await server.request(path, { method: 'POST', token, json: { data } }), 201);
  const categories: Doc[] = [];
  for (const name of NAMES) categories.push(await post('/api/categories', { name }));
  const tags: Doc[] = [];
  for (const label of LABELS) tags.push(await post('/api/tags', { label }));
  const documents = fc.sample(
    fc.record({
      title: fc.constantFrom(...TITLES),
      views: fc.constantFrom(...NUMBERS),
      rating: fc.constantFrom(...RATINGS),
      featured: fc.constantFrom(...FLAGS),
      category: fc.option(fc.integer({ min: 0, max: categories.length - 1 }), { nil: null }),
      tags: fc.uniqueArray(fc.integer({ min: 0, max: tags.length - 1 }), { maxLength: 3 }),
    }),
    { numRuns: 40, seed: 42 },
  );
  for (const d of documents) {
    const category = d.category === null ? null : categories[d.category];
    const related = d.tags.map((i) => tags[i]);
    const created = await post('/api/entries', {
      title: d.title,
      views: d.views,
      rating: d.rating,
      featured: d.featured,
      category: category ? category.documentId : null,
      tags: related.map((t) => t?.documentId),
    });
    rows.push({ id: created.id, title: d.title, views: d.views, rating: d.rating, featured: d.featured, category: category ? { id: category.id, name: category.name } : null, tags: related.map((t) => ({ id: t?.id, label: t?.label })) });
  }
});
afterAll(() => server.close());

const str = fc.constantFrom('Åland', 'åland', 'ÅL', 'al', 'AL', 'apple', 'Apple', 'b%', '%', '_', 'n_na', 'ünï', 'ÜNÏ', '', 'zzz', 'a');
const num = fc.constantFrom('-1', '0', '3', '4', '10', '49', '50', '0.5', '2.25');
const bool = fc.constantFrom('true', 'false');

function opOn(values: fc.Arbitrary<string>, ops: readonly string[]): fc.Arbitrary<Record<string, unknown>> {
  return fc.oneof(
    fc.record({ op: fc.constantFrom(...ops), v: values }).map(({ op, v }) => ({ [op]: v })),
    fc.record({ op: fc.constantFrom('$in', '$notIn'), v: fc.array(values, { minLength: 1, maxLength: 3 }) }).map(({ op, v }) => ({ [op]: v })),
    fc.record({ op: fc.constantFrom('$null', '$notNull'), v: bool }).map(({ op, v }) => ({ [op]: v })),
    fc.array(values, { minLength: 2, maxLength: 3 }).map((v) => ({ $eq: v })),
  );
}

const STRING_OPS = ['$eq', '$ne', '$eqi', '$nei', '$lt', '$gt', '$contains', '$notContains', '$containsi', '$notContainsi', '$startsWith', '$startsWithi', '$endsWith', '$endsWithi'];
const NUMBER_OPS = ['$eq', '$ne', '$lt', '$lte', '$gt', '$gte'];

const leaf: fc.Arbitrary<Record<string, unknown>> = fc.oneof(
  opOn(str, STRING_OPS).map((c) => ({ title: c })),
  str.map((v) => ({ title: v })),
  opOn(num, NUMBER_OPS).map((c) => ({ views: c })),
  fc.tuple(num, num).map(([a, b]) => ({ views: { $between: [a, b] } })),
  fc.array(num, { minLength: 2, maxLength: 3 }).map((v) => ({ views: v })),
  opOn(num, NUMBER_OPS).map((c) => ({ rating: c })),
  opOn(bool, ['$eq', '$ne']).map((c) => ({ featured: c })),
  opOn(str, STRING_OPS).map((c) => ({ category: { name: c } })),
  bool.map((v) => ({ category: { $null: v } })),
  opOn(str, STRING_OPS).map((c) => ({ tags: { label: c } })),
  fc.tuple(opOn(str, STRING_OPS), opOn(str, STRING_OPS)).map(([a, b]) => ({ tags: { label: a, $or: [{ label: b }] } })),
  fc.integer({ min: 1, max: 45 }).map((n) => ({ id: { $lt: String(n) } })),
);

const { tree } = fc.letrec<{ tree: Record<string, unknown> }>((tie) => ({
  tree: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { arbitrary: leaf, weight: 6 },
    { arbitrary: fc.tuple(leaf, leaf).map(([a, b]) => ({ ...a, ...b })), weight: 2 },
    { arbitrary: fc.array(tie('tree'), { minLength: 1, maxLength: 3 }).map((c) => ({ $and: c })), weight: 1 },
    { arbitrary: fc.array(tie('tree'), { minLength: 1, maxLength: 3 }).map((c) => ({ $or: c })), weight: 1 },
    { arbitrary: tie('tree').map((c) => ({ $not: c })), weight: 1 },
  ),
}));

describe('filters: Hearth agrees with the reference evaluator on random trees', () => {
  it(`${RUNS} random filter trees over 40 random documents`, async () => {
    let proper = 0;
    await fc.assert(
      fc.asyncProperty(tree, async (filters) => {
        const query = qs.stringify({ filters, sort: 'id:asc', fields: ['id'], pagination: { pageSize: 100 } }, { encodeValuesOnly: true });
        const actual = (await listOf(await server.request(`/api/entries?${query}`, { token }))).map((d) => d.id);
        const expected = select(entryModel, rows, filters).map((r) => r.id as number);
        if (expected.length > 0 && expected.length < rows.length) proper++;
        expect(actual).toEqual(expected);
      }),
      { numRuns: RUNS, seed: Number(process.env.HEARTH_PROPERTY_SEED ?? Date.now() % 100000) },
    );
    // A property that mostly selects everything or nothing would judge nothing.
    expect(proper / RUNS).toBeGreaterThan(0.4);
  });

  it('follows SQLite LIKE: $contains folds ASCII case only, $containsi folds Unicode too', async () => {
    const titles = async (filters: unknown) =>
      (await listOf(await server.request(`/api/entries?${qs.stringify({ filters, pagination: { pageSize: 100 } })}`, { token }))).map((d) => d.title);
    const distinct = async (filters: unknown) => [...new Set(await titles(filters))].sort();
    expect(await distinct({ title: { $contains: 'apple' } })).toEqual(['APPLE', 'Apple', 'apple pie'].filter((t) => rows.some((r) => r.title === t)).sort());
    expect(await distinct({ title: { $contains: 'åland' } })).toEqual(['åland'].filter((t) => rows.some((r) => r.title === t)));
    expect(await distinct({ title: { $containsi: 'åland' } })).toEqual(['Åland', 'ÅLAND', 'åland'].filter((t) => rows.some((r) => r.title === t)).sort());
    expect(await distinct({ title: { $eqi: 'ÜNÏCODE' } })).toEqual(['Ünïcode', 'ünïcode'].filter((t) => rows.some((r) => r.title === t)).sort());
  });

  it('filtering through a to-many relation counts documents, not joined rows', async () => {
    const body = await server.request(`/api/entries?${qs.stringify({ filters: { tags: { label: { $notNull: true } } }, pagination: { pageSize: 1 } })}`, { token });
    const { meta } = (await body.json()) as { meta: { pagination: { total: number } } };
    const expected = select(entryModel, rows, { tags: { label: { $notNull: true } } }).length;
    expect(meta.pagination.total).toBe(expected);
    const withTwoTags = rows.filter((r) => (r.tags as unknown[]).length >= 2).length;
    expect(withTwoTags).toBeGreaterThan(0);
    expect(expected).toBeLessThan(rows.reduce((n, r) => n + (r.tags as unknown[]).length, 0));
  });
});
