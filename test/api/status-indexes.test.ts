import { mkdtemp } from 'node:fs/promises';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { collection, expectJson, writeProject } from '../helpers/project.js';

/**
 * Every content table has two partial indexes by locale, one over its published rows and one over
 * its drafts (schema/storage.ts statusIndexNames): a read names one status and one locale, so its
 * rows come out of one of them in id order, and its count reads the index alone. An older data dir
 * gets them at its next start.
 */

type Page = { data: { documentId: string; locale?: string }[]; meta: { pagination: { total: number } } };

let data: string;
let root: string;
let server: TestServer;
let token: string;

const dish = collection('dish', 'dishes', { name: { type: 'string' } }, { draftAndPublish: true, localized: true });
const cook = collection('cook', 'cooks', { name: { type: 'string' } });

beforeAll(async () => {
  data = await mkdtemp(join(tmpdir(), 'hearth-status-idx-'));
  root = await writeProject({ types: { dish, cook } });
  server = await startTestServer({ schemas: root, dataDir: data });
  await server.server.services.locales.add({ code: 'fr' });
  token = await server.token('full-access');
  for (let i = 0; i < 12; i++) {
    const status = i % 3 === 0 ? '?status=draft' : '';
    const locale = i % 2 === 0 ? 'en' : 'fr';
    const sep = status === '' ? '?' : '&';
    await expectJson(await server.request(`/api/dishes${status}${sep}locale=${locale}`, { method: 'POST', token, json: { data: { name: `dish ${i}` } } }), 201);
    await expectJson(await server.request('/api/cooks', { method: 'POST', token, json: { data: { name: `cook ${i}` } } }), 201);
  }
});

afterAll(async () => {
  await server.close();
});

/** The index's definition as the database prints it, or null when there is none. */
async function indexDefinition(s: TestServer, name: string): Promise<string | null> {
  const { db, kind } = s.server.services.database;
  const { rows } =
    kind === 'postgres'
      ? await sql<{ def: string }>`SELECT indexdef AS def FROM pg_indexes WHERE indexname = ${name}`.execute(db)
      : await sql<{ def: string }>`SELECT sql AS def FROM sqlite_master WHERE type = 'index' AND name = ${name}`.execute(db);
  return rows[0]?.def ?? null;
}

/** The rows of `table` a status and locale select, counted by the database directly. */
async function directCount(s: TestServer, table: string, published: boolean, locale: string | null): Promise<number> {
  const { db } = s.server.services.database;
  let q = db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).where('publishedAt', published ? 'is not' : 'is', null);
  q = locale === null ? q.where('locale', 'is', null) : q.where('locale', '=', locale);
  return Number((await q.executeTakeFirstOrThrow()).n);
}

async function totals(s: TestServer): Promise<Record<string, number>> {
  const total = async (path: string) => (await expectJson<Page>(await s.request(path, { token }), 200)).meta.pagination.total;
  return {
    'dishes en published': await total('/api/dishes?locale=en'),
    'dishes fr published': await total('/api/dishes?locale=fr'),
    'dishes en draft': await total('/api/dishes?locale=en&status=draft'),
    'dishes fr draft': await total('/api/dishes?locale=fr&status=draft'),
    cooks: await total('/api/cooks'),
    'cooks draft': await total('/api/cooks?status=draft'),
  };
}

describe('status indexes', () => {
  it('exist on every content table, partial on the publication state, by locale', async () => {
    for (const table of ['dishes', 'cooks']) {
      const published = await indexDefinition(server, `${table}_published_idx`);
      const draft = await indexDefinition(server, `${table}_draft_idx`);
      expect(published).toMatch(/\("?locale"?\)\s+WHERE\s+\(?"publishedAt" IS NOT NULL\)?/i);
      expect(draft).toMatch(/\("?locale"?\)\s+WHERE\s+\(?"publishedAt" IS NULL\)?/i);
    }
  });

  it('give totals equal to the rows the database counts, for each status and locale', async () => {
    const got = await totals(server);
    expect(got['dishes en published']).toBe(await directCount(server, 'dishes', true, 'en'));
    expect(got['dishes fr published']).toBe(await directCount(server, 'dishes', true, 'fr'));
    expect(got['dishes en draft']).toBe(await directCount(server, 'dishes', false, 'en'));
    expect(got['dishes fr draft']).toBe(await directCount(server, 'dishes', false, 'fr'));
    expect(got.cooks).toBe(12);
    // A type without draft & publish reads the same rows in either status.
    expect(got['cooks draft']).toBe(12);
    expect(got['dishes en published']).toBeGreaterThan(0);
    expect(got['dishes en draft']).toBeGreaterThan(got['dishes en published'] ?? Infinity);
  });

  it('let SQLite read a first page in id order from the index, without sorting', async () => {
    if (server.server.services.database.kind !== 'sqlite') return;
    const { db } = server.server.services.database;
    const plan = await sql<{ detail: string }>`EXPLAIN QUERY PLAN SELECT "t0"."id" FROM "dishes" AS "t0" WHERE ("t0"."publishedAt" IS NOT NULL AND "t0"."locale" = ${'en'}) ORDER BY "t0"."id" ASC LIMIT 25`.execute(db);
    const steps = plan.rows.map((r) => r.detail).join(' | ');
    expect(steps).not.toMatch(/TEMP B-TREE/);
    // The count of a plain scope names the index: SQLite accepts it for every status's condition.
    for (const [index, condition] of [['dishes_published_idx', sql`"t0"."publishedAt" IS NOT NULL`], ['dishes_draft_idx', sql`"t0"."publishedAt" IS NULL`]] as const) {
      const counted = await sql<{ detail: string }>`EXPLAIN QUERY PLAN SELECT count(*) FROM "dishes" AS "t0" INDEXED BY ${sql.id(index)} WHERE (${condition} AND "t0"."locale" = ${'fr'})`.execute(db);
      expect(counted.rows.map((r) => r.detail).join(' | ')).toContain(index);
    }
  });

  it('come back at the next start of a data dir that lacks them, with the same answers', async () => {
    const before = await totals(server);
    const firstPage = await expectJson<Page>(await server.request('/api/dishes?locale=fr&status=draft', { token }), 200);
    const { db } = server.server.services.database;
    for (const name of ['dishes_published_idx', 'dishes_draft_idx', 'cooks_published_idx', 'cooks_draft_idx']) await db.schema.dropIndex(name).execute();
    // Without them, counts still answer (SQLite picks its own index), never a 500.
    expect(await totals(server)).toEqual(before);
    await server.close();
    server = await startTestServer({ schemas: root, dataDir: data });
    expect(await indexDefinition(server, 'dishes_published_idx')).not.toBeNull();
    expect(await indexDefinition(server, 'cooks_draft_idx')).not.toBeNull();
    expect(await totals(server)).toEqual(before);
    expect(await expectJson<Page>(await server.request('/api/dishes?locale=fr&status=draft', { token }), 200)).toEqual(firstPage);
  });
});
