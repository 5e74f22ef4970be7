import qs from 'qs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collection, dataOf, listOf, writeProject } from '../helpers/project.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

/**
 * Text comparison, case folding and sorting, with non-ASCII data. Both projects run this file, so
 * SQLite and PostgreSQL must give these exact answers: `...i` operators lower-case as
 * JavaScript's `toLowerCase` (final sigma, dotted İ, ß), `$contains` folds ASCII letters only
 * (SQLite's LIKE), and text sorts by code point with NULLs first ascending (SQLite's BINARY).
 */

const TITLES = ['ÉCOLE', 'école', 'Ecole', 'STRASSE', 'Straße', 'ΟΔΟΣ', 'οδός', 'Σ', 'МОСКВА', 'москва', 'İstanbul', 'apple', 'Apple', 'Zebra', 'zebra', 'a_b', 'a%b', 'ǅ'];

let server: TestServer;
let token: string;

beforeAll(async () => {
  const schemas = await writeProject({ types: { word: collection('word', 'words', { title: { type: 'string' }, n: { type: 'integer' } }) } });
  server = await startTestServer({ schemas });
  token = await server.token('full-access');
  for (const [i, title] of [...TITLES, null].entries()) {
    await dataOf(await server.request('/api/words', { method: 'POST', token, json: { data: { title, n: i } } }), 201);
  }
});
afterAll(() => server.close());

async function titles(query: Record<string, unknown>): Promise<(string | null)[]> {
  const docs = await listOf(await server.request(`/api/words?${qs.stringify({ pagination: { pageSize: 100 }, ...query })}`, { token }));
  return docs.map((d) => d.title as string | null);
}

const byId = (filters: Record<string, unknown>) => titles({ filters, sort: 'id' });
const lower = (s: string) => s.toLowerCase();
const asciiLower = (s: string) => s.replace(/[A-Z]/g, (c) => c.toLowerCase());
/** The stored titles a predicate keeps, in id order (NULL never matches a comparison). */
const where = (keep: (title: string) => boolean) => TITLES.filter(keep);

describe('case-insensitive operators fold Unicode as JavaScript does', () => {
  const cases: [string, Record<string, unknown>, (title: string) => boolean][] = [
    ['$eqi ÉCOLE', { title: { $eqi: 'ÉCOLE' } }, (t) => lower(t) === 'école'],
    ['$eqi strasse (ß is not folded to ss)', { title: { $eqi: 'strasse' } }, (t) => lower(t) === 'strasse'],
    ['$eqi final sigma', { title: { $eqi: 'ΟΔΟΣ' } }, (t) => lower(t) === 'οδος'],
    ['$containsi σ (a final Σ lower-cases to ς)', { title: { $containsi: 'Σ' } }, (t) => lower(t).includes('σ')],
    ['$containsi Cyrillic', { title: { $containsi: 'МОСК' } }, (t) => lower(t).includes('моск')],
    ['$startsWithi dotted İ', { title: { $startsWithi: 'İST' } }, (t) => lower(t).startsWith(lower('İST'))],
    ['$endsWithi ÉCOLE', { title: { $endsWithi: 'COLE' } }, (t) => lower(t).endsWith('cole')],
    ['$nei école', { title: { $nei: 'école' } }, (t) => lower(t) !== 'école'],
    ['$notContainsi Apple', { title: { $notContainsi: 'APPLE' } }, (t) => !lower(t).includes('apple')],
    ['$containsi titlecase ǅ', { title: { $containsi: 'ǆ' } }, (t) => lower(t).includes('ǆ')],
  ];
  for (const [name, filters, keep] of cases) {
    it(name, async () => {
      const expected = where(keep);
      expect(expected.length).toBeGreaterThan(0);
      expect(await byId(filters)).toEqual(expected);
    });
  }
});

describe('case-sensitive operators follow SQLite LIKE: ASCII letters fold, others do not', () => {
  const cases: [string, Record<string, unknown>, (title: string) => boolean][] = [
    ['$contains apple', { title: { $contains: 'apple' } }, (t) => asciiLower(t).includes('apple')],
    ['$contains école (É is not ASCII)', { title: { $contains: 'école' } }, (t) => asciiLower(t).includes('école')],
    ['$startsWith ecole', { title: { $startsWith: 'ecole' } }, (t) => asciiLower(t).startsWith('ecole')],
    ['$endsWith Σ (Greek, not folded)', { title: { $endsWith: 'Σ' } }, (t) => t.endsWith('Σ')],
    ['$contains _ and % match literally', { title: { $contains: '_' } }, (t) => t.includes('_')],
    ['$notContains Z', { title: { $notContains: 'Z' } }, (t) => !asciiLower(t).includes('z')],
    ['$eq is exact', { title: { $eq: 'apple' } }, (t) => t === 'apple'],
  ];
  for (const [name, filters, keep] of cases) {
    it(name, async () => {
      const expected = where(keep);
      expect(expected.length).toBeGreaterThan(0);
      expect(await byId(filters)).toEqual(expected);
    });
  }

  it('_q searches case-insensitively with Unicode folding', async () => {
    expect(await titles({ _q: 'ÉCOLE', sort: 'id' })).toEqual(where((t) => lower(t).includes('école')));
  });
});

describe('text sorts by code point, NULLs first ascending and last descending', () => {
  const utf8 = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

  it('sort=title:asc', async () => {
    expect(await titles({ sort: 'title:asc' })).toEqual([null, ...[...TITLES].sort(utf8)]);
  });

  it('sort=title:desc', async () => {
    expect(await titles({ sort: 'title:desc' })).toEqual([...[...TITLES].sort(utf8).reverse(), null]);
  });

  it('range comparisons on text compare bytes', async () => {
    expect(await byId({ title: { $gt: 'Z' } })).toEqual(where((t) => utf8(t, 'Z') > 0));
    expect(await byId({ title: { $lte: 'a' } })).toEqual(where((t) => utf8(t, 'a') <= 0));
  });

  it('pages cut the same rows (ties broken by id)', async () => {
    const page = await titles({ sort: 'title:asc', pagination: { start: 3, limit: 4 } });
    expect(page).toEqual([null, ...[...TITLES].sort(utf8)].slice(3, 7));
  });
});
