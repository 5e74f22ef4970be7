import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropDatabaseFor } from '../helpers/database.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { indexColumns } from '../helpers/indexes.js';
import { collection, dataOf, expectJson, writeProject } from '../helpers/project.js';
import { adminRequest, registerOwner } from '../admin/helpers.js';

/**
 * Strapi's experimental `indexes` in schema.json: `[{ name, columns, type }]`, columns named as
 * Strapi's database names them (snake_case) or by attribute. Hearth builds them (with `locale`
 * and `publishedAt` appended on content types), drops those no longer declared, and its
 * content-type builder keeps them on saves that do not send them.
 */

type Json = Record<string, unknown>;

const attributes = {
  name: { type: 'string' },
  prepMinutes: { type: 'integer' },
  rating: { type: 'decimal' },
  vegan: { type: 'boolean' },
  notes: { type: 'blocks' },
  cook: { type: 'relation', relation: 'manyToOne', target: 'api::cook.cook' },
};
const cook = collection('cook', 'cooks', { name: { type: 'string' } });
const INDEXES = [
  { name: 'dishes_vegan_rating', columns: ['vegan', 'rating', 'prep_minutes'], type: null },
  { name: 'dishes_vegan_prep', columns: ['vegan', 'prepMinutes'] },
];
const dish = (indexes: unknown, attrs: Json = attributes): Json => ({ ...collection('dish', 'dishes', attrs, { draftAndPublish: true }), ...(indexes === undefined ? {} : { indexes }) });


let data: string;
let root: string;
let server: TestServer;
let token: string;
const seeded: { documentId: string; name: string; prepMinutes: number; rating: number | null; vegan: boolean; published: boolean }[] = [];

beforeAll(async () => {
  data = await mkdtemp(join(tmpdir(), 'hearth-indexes-'));
  root = await writeProject({ types: { dish: dish(INDEXES), cook } });
  server = await startTestServer({ schemas: root, dataDir: data });
  token = await server.token('full-access');
  for (let i = 0; i < 60; i++) {
    const row = { name: `Dish ${i}`, prepMinutes: (i * 7) % 50, rating: i % 9 === 0 ? null : ((i * 13) % 50) / 10, vegan: i % 3 !== 0 };
    const published = i % 4 !== 0;
    const doc = await dataOf(await server.request(`/api/dishes${published ? '' : '?status=draft'}`, { method: 'POST', token, json: { data: row } }), 201);
    seeded.push({ ...row, documentId: doc.documentId, published });
  }
});
afterAll(async () => {
  await server.close();
  await rm(data, { recursive: true, force: true });
  await rm(root, { recursive: true, force: true });
  await dropDatabaseFor(data);
});

/** The seeded documents a filtered, sorted (rating desc, nulls last, then creation order) list must answer. */
function expected(where: (d: (typeof seeded)[number]) => boolean) {
  const order = seeded.map((d, i) => ({ d, i }));
  return order
    .filter(({ d }) => where(d))
    .sort((a, b) => (a.d.rating === b.d.rating ? a.i - b.i : a.d.rating === null ? 1 : b.d.rating === null ? -1 : b.d.rating - a.d.rating))
    .map(({ d }) => d.name);
}

describe('indexes declared in schema.json', () => {
  it('are built on the named columns, Strapi column names mapped, with locale and publishedAt appended', async () => {
    expect(await indexColumns(server, 'dishes_x_dishes_vegan_rating')).toEqual(['vegan', 'rating', 'prepMinutes', 'locale', 'publishedAt']);
    expect(await indexColumns(server, 'dishes_x_dishes_vegan_prep')).toEqual(['vegan', 'prepMinutes', 'locale', 'publishedAt']);
  });

  it('answer filtered, sorted pages exactly as the rows say, in both publication states', async () => {
    const q = 'filters[vegan][$eq]=true&filters[prepMinutes][$lte]=30&sort=rating:desc&fields[0]=name';
    const published = expected((d) => d.published && d.vegan && d.prepMinutes <= 30);
    const drafts = expected((d) => d.vegan && d.prepMinutes <= 30);
    for (const [status, want] of [['published', published], ['draft', drafts]] as const) {
      const pages: string[] = [];
      for (let page = 1; page <= Math.ceil(want.length / 7); page++) {
        const body = await expectJson<{ data: { name: string }[]; meta: { pagination: Json } }>(
          await server.request(`/api/dishes?${q}&status=${status}&pagination[page]=${page}&pagination[pageSize]=7`, { token }),
          200,
        );
        expect(body.meta.pagination).toEqual({ page, pageSize: 7, pageCount: Math.ceil(want.length / 7), total: want.length });
        pages.push(...body.data.map((d) => d.name));
      }
      expect(pages).toEqual(want);
    }
    // start/limit pagination and an offset past the end go through the same two-step read.
    const sliced = await expectJson<{ data: { name: string }[] }>(await server.request(`/api/dishes?${q}&pagination[start]=3&pagination[limit]=4`, { token }), 200);
    expect(sliced.data.map((d) => d.name)).toEqual(published.slice(3, 7));
    const past = await expectJson<{ data: unknown[] }>(await server.request(`/api/dishes?${q}&pagination[page]=99`, { token }), 200);
    expect(past.data).toEqual([]);
  });

  it('refuse to start on an index naming an unknown column or a relation', async () => {
    for (const [columns, message] of [
      [['vegan', 'spicy'], /indexes\[0\]\.columns\[1\]: no scalar attribute or system column is named "spicy"/],
      [['cook'], /indexes\[0\]\.columns\[0\]: attribute "cook" is a relation, which has no column of its own/],
    ] as const) {
      const bad = await writeProject({ types: { dish: dish([{ name: 'bad', columns }]), cook } });
      await expect(startTestServer({ schemas: bad })).rejects.toThrow(message);
      await rm(bad, { recursive: true, force: true });
    }
  });
});

describe('declared indexes across schema changes', () => {
  it('the builder keeps them on a save that does not send them, following a rename', async () => {
    const session = await registerOwner(server);
    const admin = adminRequest(server, session);
    const renamed = { ...attributes, minutes: attributes.prepMinutes } as Json;
    delete renamed.prepMinutes;
    const saved = await admin('/admin/api/content-types/api::dish.dish', { method: 'PUT', json: { contentType: dish(undefined, renamed), renames: { prepMinutes: 'minutes' } } });
    await expectJson(saved, 200);
    const file = JSON.parse(await readFile(join(root, 'src', 'api', 'dish', 'content-types', 'dish', 'schema.json'), 'utf8')) as Json;
    expect(file.indexes).toEqual([
      { name: 'dishes_vegan_rating', columns: ['vegan', 'rating', 'minutes'], type: null },
      { name: 'dishes_vegan_prep', columns: ['vegan', 'minutes'] },
    ]);
    expect(await indexColumns(server, 'dishes_x_dishes_vegan_prep')).toEqual(['vegan', 'minutes', 'locale', 'publishedAt']);
    const first = await expectJson<{ data: { name: string; minutes: number }[] }>(await server.request('/api/dishes?sort=minutes:desc&pagination[pageSize]=1', { token }), 200);
    expect(first.data[0]?.minutes).toBe(Math.max(...seeded.filter((d) => d.published).map((d) => d.prepMinutes)));
  });

  it('a restart drops the index no longer declared and rebuilds the one whose columns changed, keeping every row', async () => {
    await server.close();
    const file = join(root, 'src', 'api', 'dish', 'content-types', 'dish', 'schema.json');
    const current = JSON.parse(await readFile(file, 'utf8')) as Json;
    await writeProject({ types: { dish: { ...current, indexes: [{ name: 'dishes_vegan_rating', columns: ['rating'] }] } } }, root);
    server = await startTestServer({ schemas: root, dataDir: data });
    expect(await indexColumns(server, 'dishes_x_dishes_vegan_prep')).toBeNull();
    expect(await indexColumns(server, 'dishes_x_dishes_vegan_rating')).toEqual(['rating', 'locale', 'publishedAt']);
    expect(server.logs.join('\n')).toMatch(/index "dishes_x_dishes_vegan_prep" dropped \(no longer declared\)/);
    const all = await expectJson<{ meta: { pagination: { total: number } } }>(await server.request('/api/dishes?status=draft', { token }), 200);
    expect(all.meta.pagination.total).toBe(seeded.length);
    // The lookup index every content table has is not a declared one: it stays.
    expect(await indexColumns(server, 'dishes_lookup_idx')).toEqual(['documentId', 'locale', 'publishedAt']);
    if (server.server.services.database.kind === 'sqlite') {
      // Statistics were taken at start (PRAGMA optimize), so the planner can weigh the new index.
      const { rows } = await sql<{ idx: string }>`SELECT idx FROM sqlite_stat1 WHERE tbl = 'dishes'`.execute(server.server.services.database.db);
      expect(rows.map((r) => r.idx)).toContain('dishes_x_dishes_vegan_rating');
    }
  });
});

describe('pages of any size', () => {
  it('a sorted page longer than one statement can name by ids is still read whole (API_REST_MAX_LIMIT=0)', async () => {
    const project = await writeProject({ types: { note: collection('note', 'notes', { title: { type: 'string' }, rank: { type: 'integer' } }) } });
    const s = await startTestServer({ schemas: project, env: { API_REST_MAX_LIMIT: '0' } });
    try {
      const rows = 33_000; // beyond SQLite's 32,766 bound parameters
      const now = new Date().toISOString();
      const { db } = s.server.services.database;
      for (let start = 0; start < rows; start += 2_000) {
        const chunk = Array.from({ length: Math.min(2_000, rows - start) }, (_, k) => {
          const i = start + k;
          return { documentId: `note${String(i).padStart(20, '0')}`, title: `n${i}`, rank: (i * 7919) % rows, createdAt: now, updatedAt: now, publishedAt: now, locale: null };
        });
        await db.insertInto('notes').values(chunk).execute();
      }
      const token = await s.token('read-only');
      const body = await expectJson<{ data: { rank: number }[]; meta: { pagination: { total: number } } }>(
        await s.request(`/api/notes?sort=rank:desc&fields[0]=rank&pagination[pageSize]=${rows}`, { token }),
        200,
      );
      expect(body.meta.pagination.total).toBe(rows);
      expect(body.data).toHaveLength(rows);
      expect(body.data[0]?.rank).toBe(rows - 1);
      expect(body.data.every((d, i) => i === 0 || (body.data[i - 1]?.rank ?? 0) > d.rank)).toBe(true);
    } finally {
      await s.close();
      await rm(project, { recursive: true, force: true });
    }
  });
});
