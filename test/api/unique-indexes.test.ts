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
 * Every unique scalar attribute of a content type has a plain index `<table>_u_<column>`
 * (schema/storage.ts uniqueIndexes): a write's uniqueness check finds the rows holding a value
 * through it instead of reading the whole table. It follows the attribute through the builder's
 * changes (rename, retype, removal, no longer unique) and the collection's renames.
 */

type Json = Record<string, unknown>;

let data: string;
let root: string;
let server: TestServer;
let token: string;
let admin: ReturnType<typeof adminRequest>;

const cook = collection('cook', 'cooks', { name: { type: 'string' } });
const ATTRIBUTES: Json = {
  name: { type: 'string' },
  code: { type: 'string', unique: true },
  sku: { type: 'integer', unique: true },
  slug: { type: 'uid', targetField: 'name' },
  plain: { type: 'string' },
};
const dish = (attributes: Json = ATTRIBUTES, collectionName = 'dishes'): Json => ({ ...collection('dish', 'dishes', attributes, { draftAndPublish: true, localized: true }), collectionName });
const schemaFile = () => join(root, 'src', 'api', 'dish', 'content-types', 'dish', 'schema.json');


/** The names of the unique attributes' indexes on `table`. */
async function uniqueIndexesOn(s: TestServer, table: string): Promise<string[]> {
  const { db, kind } = s.server.services.database;
  const { rows } =
    kind === 'postgres'
      ? await sql<{ name: string }>`SELECT indexname AS "name" FROM pg_indexes WHERE schemaname = current_schema() AND tablename = ${table}`.execute(db)
      : await sql<{ name: string }>`SELECT name FROM pragma_index_list(${table})`.execute(db);
  return rows.map((r) => r.name).filter((n) => n.includes('_u_')).sort();
}

const create = async (body: Json, query = '') => dataOf(await server.request(`/api/dishes${query}`, { method: 'POST', token, json: { data: body } }), 201);

beforeAll(async () => {
  data = await mkdtemp(join(tmpdir(), 'hearth-unique-idx-'));
  root = await writeProject({ types: { dish: dish(), cook } });
  server = await startTestServer({ schemas: root, dataDir: data });
  token = await server.token('full-access');
  admin = adminRequest(server, await registerOwner(server));
  for (let i = 0; i < 8; i++) await create({ name: `Dish ${i}`, code: `c${i}`, sku: i, plain: `p${i}` }, i % 2 === 0 ? '' : '?status=draft');
});
afterAll(async () => {
  await server.close();
  await rm(data, { recursive: true, force: true });
  await rm(root, { recursive: true, force: true });
  await dropDatabaseFor(data);
});

describe('unique attributes', () => {
  it('each have a plain index on their column; other attributes and components have none', async () => {
    expect(await indexColumns(server, 'dishes_u_code')).toEqual(['code']);
    expect(await indexColumns(server, 'dishes_u_sku')).toEqual(['sku']);
    expect(await indexColumns(server, 'dishes_u_slug')).toEqual(['slug']);
    expect(await uniqueIndexesOn(server, 'dishes')).toEqual(['dishes_u_code', 'dishes_u_sku', 'dishes_u_slug']);
    expect(await uniqueIndexesOn(server, 'cooks')).toEqual([]);
  });

  it('are still checked by the write (the index is not UNIQUE: a draft and its published version share the value)', async () => {
    const doc = await create({ name: 'Twin', code: 'twin', sku: 100 });
    await dataOf(await server.request(`/api/dishes/${doc.documentId}`, { method: 'PUT', token, json: { data: { name: 'Twin 2' } } }));
    const refused = await expectJson<{ error: { status: number; name: string } }>(await server.request('/api/dishes', { method: 'POST', token, json: { data: { name: 'Other', code: 'twin' } } }), 400);
    expect(refused.error).toMatchObject({ status: 400, name: 'ValidationError' });
  });

  it("give SQLite's plan of every uniqueness check the index", async () => {
    if (server.server.services.database.kind !== 'sqlite') return;
    const { db } = server.server.services.database;
    // The statements of documents/write-validation.ts isUnique: by value, maybe by locale, one status or both, maybe another row than the one written.
    for (const byLocale of [false, true]) {
      for (const status of ['published', 'draft', 'both'] as const) {
        for (const excluding of [false, true]) {
          let q = db.selectFrom('dishes').select(['id', 'publishedAt']).where('code', '=', 'c1');
          if (byLocale) q = q.where('locale', '=', 'en');
          if (status !== 'both') q = q.where('publishedAt', status === 'draft' ? 'is' : 'is not', null);
          if (excluding) q = q.where('id', '<>', 3);
          const compiled = q.compile();
          const { rows } = await db.executeQuery<{ detail: string }>({ ...compiled, sql: `EXPLAIN QUERY PLAN ${compiled.sql}`, query: compiled.query });
          expect(rows.map((r) => r.detail).join(' | '), `${byLocale} ${status} ${excluding}`).toMatch(/USING INDEX dishes_u_code \(code=\?\)/);
        }
      }
    }
  });
});

describe('unique attributes across schema changes', () => {
  const put = (contentType: Json, extra: Json = {}) => admin('/admin/api/content-types/api::dish.dish', { method: 'PUT', json: { contentType, ...extra } });
  const codes = async (table: string, column: string) => (await server.server.services.database.db.selectFrom(table).select(column).where(column, 'is not', null).execute()).length;

  it('the builder renames one (its index follows) and retypes another to a new storage class (its index is rebuilt)', async () => {
    const { code, sku, ...rest } = ATTRIBUTES;
    void sku;
    await expectJson(await put(dish({ ...rest, ref: code, sku: { type: 'float', unique: true } }), { renames: { code: 'ref' } }), 200);
    expect(await uniqueIndexesOn(server, 'dishes')).toEqual(['dishes_u_ref', 'dishes_u_sku', 'dishes_u_slug']);
    expect(await indexColumns(server, 'dishes_u_ref')).toEqual(['ref']);
    expect(await indexColumns(server, 'dishes_u_sku')).toEqual(['sku']);
    expect(await codes('dishes', 'ref')).toBeGreaterThanOrEqual(8);
    const list = await expectJson<{ data: { sku: number }[] }>(await server.request('/api/dishes?status=draft&sort=sku:asc&fields[0]=sku', { token }), 200);
    expect(list.data.map((d) => d.sku)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 100]);
  });

  it('the builder drops the index of an attribute no longer unique (its column stays) and of a removed one (its column goes)', async () => {
    const { code, sku, ...rest } = ATTRIBUTES;
    void sku;
    const next = dish({ ...rest, ref: { ...(code as Json), unique: false } });
    const refused = await put(next);
    expect(refused.status).toBe(400);
    await expectJson(await put(next, { confirmDataLoss: true }), 200);
    expect(await uniqueIndexesOn(server, 'dishes')).toEqual(['dishes_u_slug']);
    expect(await codes('dishes', 'ref')).toBeGreaterThanOrEqual(8);
    const columns = (await server.server.services.database.db.introspection.getTables()).find((t) => t.name === 'dishes')?.columns.map((c) => c.name);
    expect(columns).not.toContain('sku');
    // The value is no longer checked.
    await create({ name: 'Again', ref: 'c1' });
  });

  it("follows the collection's renames, by the builder and on disk, and comes back for an attribute unique again", async () => {
    const current = JSON.parse(await readFile(schemaFile(), 'utf8')) as Json;
    await expectJson(await put({ ...current, collectionName: 'meals' }), 200);
    expect(await uniqueIndexesOn(server, 'meals')).toEqual(['meals_u_slug']);
    expect(await indexColumns(server, 'dishes_u_slug')).toBeNull();
    await server.close();
    const attributes = { ...(current.attributes as Json), plain: { type: 'string', unique: true } };
    await writeProject({ types: { dish: { ...current, collectionName: 'plates', attributes }, cook } }, root);
    server = await startTestServer({ schemas: root, dataDir: data });
    token = await server.token('full-access');
    expect(await uniqueIndexesOn(server, 'plates')).toEqual(['plates_u_plain', 'plates_u_slug']);
    expect(await indexColumns(server, 'meals_u_slug')).toBeNull();
    const refused = await expectJson<{ error: { name: string } }>(await server.request('/api/dishes', { method: 'POST', token, json: { data: { name: 'P', plain: 'p0' } } }), 400);
    expect(refused.error.name).toBe('ValidationError');
  });

  it('a restart drops the index of an attribute removed from the schema file, keeping its column', async () => {
    await server.close();
    const current = JSON.parse(await readFile(schemaFile(), 'utf8')) as Json;
    const { plain, ...attributes } = current.attributes as Json;
    void plain;
    await writeProject({ types: { dish: { ...current, attributes }, cook } }, root);
    server = await startTestServer({ schemas: root, dataDir: data });
    expect(await uniqueIndexesOn(server, 'plates')).toEqual(['plates_u_slug']);
    expect(await codes('plates', 'plain')).toBeGreaterThanOrEqual(8);
  });
});

describe('unique attributes and the names of tables', () => {
  it("a type whose table would take a unique attribute's index name is refused, naming both", async () => {
    const film = { ...collection('film', 'films', { title: { type: 'string' } }), collectionName: 'dishes_u_code' };
    const project = await writeProject({ types: { dish: dish(), film, cook } });
    await expect(startTestServer({ schemas: project })).rejects.toThrow('api::film.film and api::dish.dish would both use the name "dishes_u_code" (for api::film.film\'s table and api::dish.dish\'s index)');
    await rm(project, { recursive: true, force: true });
  });
});
