import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_POPULATED_ROWS } from '../../server/limits.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { collection, dataOf, expectJson, writeProject } from '../helpers/project.js';

/**
 * REST populate fan-out: nested to-many relations are not paginated (as in Strapi), so books ->
 * author -> books -> author -> books prints B + B^2 + B^2 + B^3 entries for an author of B books
 * from a database of B + 1 rows. Past MAX_POPULATED_ROWS, counted across levels, a read answers
 * 400 before the entries are read, on the SQL-built path (SQLite) and on the JS path.
 */

const TOO_MANY = {
  data: null,
  error: {
    status: 400,
    name: 'ValidationError',
    message: 'populate would return more than 100,000 entries: populate fewer levels, filter the nested relations (populate[x][filters]) or ask for a smaller page (pagination[pageSize])',
    details: {},
  },
};

/** books?populate[author][populate][books]... `levels` relations deep, for the books of one author. */
const nested = (author: string, levels: number, last = ''): string => {
  const path = Array.from({ length: levels }, (_, i) => `[${i % 2 === 0 ? 'author' : 'books'}]`).join('[populate]');
  return `/api/books?filters[author][name][$eq]=${author}&pagination[pageSize]=100&populate${path}${last === '' ? '=true' : last}`;
};

/** Entries printed under the roots: objects with a documentId below `data`'s own. */
const populated = (value: unknown, depth = 0): number => {
  if (Array.isArray(value)) return value.reduce((n: number, v) => n + populated(v, depth), 0);
  if (typeof value !== 'object' || value === null) return 0;
  return (depth > 0 && 'documentId' in value ? 1 : 0) + Object.values(value).reduce((n: number, v) => n + populated(v, depth + 1), 0);
};

describe('populate fan-out (MAX_POPULATED_ROWS)', () => {
  let server: TestServer;
  let token: string;

  beforeAll(async () => {
    const schemas = await writeProject({
      types: {
        author: collection('author', 'authors', { name: { type: 'string' }, books: { type: 'relation', relation: 'oneToMany', target: 'api::book.book', mappedBy: 'author' } }),
        book: collection('book', 'books', { title: { type: 'string' }, author: { type: 'relation', relation: 'manyToOne', target: 'api::author.author', inversedBy: 'books' } }),
      },
    });
    server = await startTestServer({ schemas });
    token = await server.token('full-access');
    // 45 books: 4 levels print 45 + 2,025 + 2,025 + 91,125 = 95,220; 46: 101,614; 100 books, 5 levels: 2,020,200.
    for (const [name, count] of [['A45', 45], ['A46', 46], ['A100', 100]] as const) {
      const author = await dataOf(await server.request('/api/authors', { method: 'POST', token, json: { data: { name } } }), 201);
      for (let i = 0; i < count; i++) await server.request('/api/books', { method: 'POST', token, json: { data: { title: `${name}-${i}`, author: author.documentId } } });
    }
  }, 120_000);

  afterAll(async () => {
    await server.close();
  });

  it('answers the 100 books x an author of 100 books, five levels (2,020,200 entries before), with the 400 quickly and without the memory', async () => {
    const rss = process.memoryUsage().rss;
    const started = performance.now();
    const res = await server.request(nested('A100', 5), { token });
    expect(await expectJson(res, 400)).toEqual(TOO_MANY);
    expect(performance.now() - started).toBeLessThan(3000);
    expect(process.memoryUsage().rss - rss).toBeLessThan(150 * 1024 * 1024);
  });

  it('answers a populate one entry level past the cap (101,614 entries) with the 400, and findOne alike', async () => {
    expect(await expectJson(await server.request(nested('A46', 4), { token }), 400)).toEqual(TOO_MANY);
    // One author of 100 books: 100 + 100 + 10,000 + 10,000 + 1,000,000 over five levels.
    const author = (await expectJson<{ data: { documentId: string }[] }>(await server.request('/api/authors?filters[name][$eq]=A100', { token }), 200)).data[0];
    const path = 'populate[books][populate][author][populate][books][populate][author][populate][books]=true';
    expect(await expectJson(await server.request(`/api/authors/${author?.documentId ?? ''}?${path}`, { token }), 400)).toEqual(TOO_MANY);
  });

  it('answers a populate just under the cap (95,220 entries) in full', async () => {
    const body = await expectJson<{ data: unknown[] }>(await server.request(nested('A45', 4), { token }), 200);
    expect(body.data).toHaveLength(45);
    expect(populated(body.data)).toBe(95_220);
    expect(populated(body.data)).toBeLessThanOrEqual(MAX_POPULATED_ROWS);
  });

  it('counts by the page: a smaller root page, a filtered nested relation (40 + 1,840 + 1,840 + 84,640 = 88,360)', async () => {
    const smaller = await expectJson<{ data: unknown[] }>(await server.request(nested('A46', 4).replace('pagination[pageSize]=100', 'pagination[pageSize]=40'), { token }), 200);
    expect(populated(smaller.data)).toBe(88_360);
    // The last level filtered to 10 of 46 books: 46 + 2,116 + 2,116 + 2,116 x 10.
    const deep = 'populate[author][populate][books][populate][author][populate][books]';
    const titles = Array.from({ length: 10 }, (_, i) => `${deep}[filters][title][$in][${i}]=A46-${i}`).join('&');
    const filtered = await expectJson<{ data: unknown[] }>(await server.request(`/api/books?filters[author][name][$eq]=A46&pagination[pageSize]=100&${titles}`, { token }), 200);
    expect(populated(filtered.data)).toBe(25_438);
  });

  it('counts a GraphQL relation list by its page (its own cost limit lets 101,660 entries through)', async () => {
    const query = (limit: number) => `{ books(filters: { author: { name: { eq: "A46" } } }, pagination: { limit: 46 }) { author { books(pagination: { limit: 46 }) { author { books(pagination: { limit: ${limit} }) { title } } } } } }`;
    const paged = await expectJson<{ data: { books: unknown[] } }>(await server.request('/graphql', { method: 'POST', token, json: { query: query(10) } }), 200);
    expect(paged.data.books).toHaveLength(46);
    const full = await server.request('/graphql', { method: 'POST', token, json: { query: query(46) } });
    const body = (await full.json()) as { errors?: { message: string }[] };
    expect(body.errors?.[0]?.message).toBe(TOO_MANY.error.message);
  });

  it('leaves a populate one level deep uncounted: bounded by the links of the page', async () => {
    const body = await expectJson<{ data: unknown[] }>(await server.request('/api/authors?populate[books]=true', { token }), 200);
    expect(populated(body.data)).toBe(191);
  });
});
