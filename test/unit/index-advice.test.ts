import { describe, expect, it } from 'vitest';
import { createIndexAdvisor, indexAdvice } from '../../server/documents/index-advice.js';
import type { DocumentQuery, FilterNode } from '../../server/query/ast.js';
import { parseContentType } from '../../server/schema/parse.js';

const schema = (indexes?: unknown) => ({
  kind: 'collectionType',
  collectionName: 'recipes',
  info: { singularName: 'recipe', pluralName: 'recipes', displayName: 'Recipe' },
  options: { draftAndPublish: true },
  attributes: { title: { type: 'string' }, prepMinutes: { type: 'integer' }, rating: { type: 'decimal' }, vegetarian: { type: 'boolean' } },
  ...(indexes === undefined ? {} : { indexes }),
});
const model = parseContentType(schema(), 'recipe', 'recipe', 'recipe.json');

const compare = (name: string, operator: string, value: unknown): FilterNode => ({ kind: 'compare', field: { name, type: 'integer' }, operator, value } as FilterNode);
const query = (filters: FilterNode | null, sort: string[] = []): DocumentQuery => ({
  fields: null,
  filters,
  sort: sort.map((s) => ({ path: s.split('.'), direction: 'desc' })),
  populate: new Map(),
  status: 'published',
  locale: null,
  publicationFilter: null,
  search: null,
});

describe('index advice for slow lists', () => {
  it('names equality columns, then sort columns, then ranges, as a Strapi `indexes` entry', () => {
    const filters: FilterNode = { kind: 'and', children: [compare('prepMinutes', '$lte', 45), compare('vegetarian', '$eq', true)] };
    expect(indexAdvice(model, query(filters, ['rating']), 208.4)).toEqual({
      key: 'api::recipe.recipe\u0000vegetarian\u0000rating\u0000prepMinutes',
      message:
        'api::recipe.recipe: a list filtered on vegetarian, prepMinutes and sorted on rating took 208 ms. An index declared in its schema.json can answer it: "indexes": [{"name":"recipes_vegetarian_rating_prep_minutes","columns":["vegetarian","rating","prep_minutes"]}] (README, "Indexes")',
    });
  });

  it('gives none when nothing could use an index or a declared index already starts there', () => {
    const unindexable: FilterNode = { kind: 'or', children: [compare('title', '$containsi', 'soup'), compare('rating', '$eq', 4)] };
    expect(indexAdvice(model, query(unindexable), 300)).toBeNull();
    expect(indexAdvice(model, query(null, ['cuisine.name']), 300)).toBeNull();
    const declared = parseContentType(schema([{ name: 'veg', columns: ['vegetarian', 'rating'] }]), 'recipe', 'recipe', 'recipe.json');
    expect(indexAdvice(declared, query(compare('vegetarian', '$eq', true), ['rating']), 300)).toBeNull();
    expect(indexAdvice(declared, query(null, ['rating']), 300)?.message).toContain('"columns":["rating"]');
  });

  it('logs each piece of advice once', () => {
    const lines: string[] = [];
    const advise = createIndexAdvisor((m) => lines.push(m));
    advise(model, query(null, ['rating']), 150);
    advise(model, query(null, ['rating']), 170);
    // The same index answers a filter on rating: no second line for it.
    advise(model, query(compare('rating', '$gt', 3)), 170);
    advise(model, query(compare('prepMinutes', '$gt', 3)), 180);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toContain('sorted on rating took 150 ms');
    expect(lines[1]).toContain('filtered on prepMinutes took 180 ms');
  });
});
