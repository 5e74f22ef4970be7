import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { SCHEMA_VERSION, setMeta } from '../../server/db/migrations.js';
import { openTestDataDir } from '../helpers/database.js';
import { startTestServer } from '../helpers/server.js';
import { collection, dataOf, listOf, writeProject } from '../helpers/project.js';

/** Starts a server on `data` with a one-type project, runs `fn`, and stops it. */
async function withSchema<T>(data: string, attributes: Record<string, unknown>, fn: (s: Awaited<ReturnType<typeof startTestServer>>, token: string) => Promise<T>, options: Record<string, unknown> = {}): Promise<T> {
  const schemas = await writeProject({ types: { item: { ...collection('item', 'items', attributes), ...options } } });
  const server = await startTestServer({ schemas, dataDir: data });
  try {
    return await fn(server, await server.token('full-access'));
  } finally {
    await server.close();
  }
}

describe('schema evolution across restarts', () => {
  it('adding, removing and restoring attributes never loses data', async () => {
    const data = await mkdtemp(join(tmpdir(), 'hearth-evolve-'));
    const documentId = await withSchema(data, { title: { type: 'string' } }, async (s, token) => {
      const doc = await dataOf(await s.request('/api/items', { method: 'POST', token, json: { data: { title: 'kept' } } }), 201);
      return doc.documentId;
    });
    await withSchema(data, { title: { type: 'string' }, views: { type: 'integer' } }, async (s, token) => {
      expect(await dataOf(await s.request(`/api/items/${documentId}`, { token }))).toMatchObject({ title: 'kept', views: null });
      await dataOf(await s.request(`/api/items/${documentId}`, { method: 'PUT', token, json: { data: { views: 7 } } }));
    });
    await withSchema(data, { views: { type: 'integer' } }, async (s, token) => {
      const doc = await dataOf(await s.request(`/api/items/${documentId}`, { token }));
      expect(doc).not.toHaveProperty('title');
      expect(doc.views).toBe(7);
    });
    await withSchema(data, { title: { type: 'string' }, views: { type: 'biginteger' } }, async (s, token) => {
      expect(await dataOf(await s.request(`/api/items/${documentId}`, { token }))).toMatchObject({ title: 'kept', views: '7' });
    });
    await rm(data, { recursive: true, force: true });
  });

  it('answers text or numbers kept through a change to json as JSON.stringify prints them, in lists and single reads', async () => {
    const data = await mkdtemp(join(tmpdir(), 'hearth-evolve-'));
    const texts = ['{ "a": 1.0, "b": "\\u00e9\\/", "c": 1E21, "10": [2.50, -0] }', '[1e-7, 0.1000]', null];
    const ids = await withSchema(data, { note: { type: 'text' }, n: { type: 'float' } }, async (s, token) => {
      const out: string[] = [];
      for (const [i, note] of texts.entries()) out.push((await dataOf(await s.request('/api/items', { method: 'POST', token, json: { data: { note, n: [1e21, 2.5, null][i] } } }), 201)).documentId);
      return out;
    });
    await withSchema(data, { note: { type: 'json' }, n: { type: 'json' } }, async (s, token) => {
      const [first = '', second = ''] = ids;
      const expected = [{ note: { 10: [2.5, 0], a: 1, b: 'é/', c: 1e21 }, n: 1e21 }, { note: [1e-7, 0.1], n: 2.5 }, { note: null, n: null }];
      const list = await listOf(await s.request('/api/items?fields[0]=note&fields[1]=n', { token }));
      expect(list.map((d) => ({ note: d.note, n: d.n }))).toEqual(expected);
      expect(await dataOf(await s.request(`/api/items/${first}?fields[0]=note`, { token }))).toMatchObject({ note: expected[0]?.note });
      expect(await dataOf(await s.request(`/api/items/${second}?fields[0]=n`, { token }))).toMatchObject({ n: 2.5 });
    });
    await rm(data, { recursive: true, force: true });
  });

  it('refuses to start when a retyped attribute holds data that cannot be read as the new type, unless told to keep it aside', async () => {
    const data = await mkdtemp(join(tmpdir(), 'hearth-retype-'));
    await withSchema(data, { title: { type: 'string' } }, async (s, token) => {
      await dataOf(await s.request('/api/items', { method: 'POST', token, json: { data: { title: 'words' } } }), 201);
    });
    const schemas = await writeProject({ types: { item: collection('item', 'items', { title: { type: 'integer' } }) } });
    await expect(startTestServer({ schemas, dataDir: data })).rejects.toThrow(
      'api::item.item: attribute "title" changed from string to integer and its column holds data that cannot be read as integer; restore the type, or start with --accept-schema-changes to keep the old values in a retired column',
    );
    const server = await startTestServer({ schemas, dataDir: data, env: {} }).catch(() => null);
    expect(server).toBeNull();
    const accepted = await startTestServer({ schemas, dataDir: data, env: {}, acceptSchemaChanges: true });
    const token = await accepted.token('full-access');
    const [doc] = await listOf(await accepted.request('/api/items', { token }));
    expect(doc?.title).toBeNull();
    const columns = await accepted.server.services.database.db.introspection.getTables();
    const items = columns.find((t) => t.name === 'items');
    const retired = items?.columns.find((c) => c.name.startsWith('title__retired_'));
    expect(retired).toBeDefined();
    const kept = await accepted.server.services.database.db.selectFrom('items').select(retired?.name ?? '').executeTakeFirst();
    expect(Object.values(kept ?? {})).toEqual(['words']);
    await accepted.close();
    await rm(data, { recursive: true, force: true });
  });

  it('renames the table when collectionName changes, keeping rows', async () => {
    const data = await mkdtemp(join(tmpdir(), 'hearth-rename-'));
    await withSchema(data, { title: { type: 'string' } }, async (s, token) => {
      await dataOf(await s.request('/api/items', { method: 'POST', token, json: { data: { title: 'moved' } } }), 201);
    });
    await withSchema(data, { title: { type: 'string' } }, async (s, token) => {
      expect((await listOf(await s.request('/api/items', { token }))).map((d) => d.title)).toEqual(['moved']);
    }, { collectionName: 'catalog_items' });
    await rm(data, { recursive: true, force: true });
  });

  it('moves rows into the default locale when localization is switched on, and back when off', async () => {
    const data = await mkdtemp(join(tmpdir(), 'hearth-i18n-switch-'));
    await withSchema(data, { title: { type: 'string' } }, async (s, token) => {
      await dataOf(await s.request('/api/items', { method: 'POST', token, json: { data: { title: 'plain' } } }), 201);
    });
    await withSchema(data, { title: { type: 'string', pluginOptions: { i18n: { localized: true } } } }, async (s, token) => {
      expect(await listOf(await s.request('/api/items', { token }))).toEqual([expect.objectContaining({ title: 'plain', locale: 'en' })]);
    }, { pluginOptions: { i18n: { localized: true } } });
    await withSchema(data, { title: { type: 'string' } }, async (s, token) => {
      expect((await listOf(await s.request('/api/items', { token }))).map((d) => d.title)).toEqual(['plain']);
    });
    await rm(data, { recursive: true, force: true });
  });

  it('refuses a data dir written by a newer Hearth', async () => {
    const data = await mkdtemp(join(tmpdir(), 'hearth-newer-'));
    const dir = await openTestDataDir(data);
    await setMeta(dir.database.db, 'schema_version', '999');
    await dir.database.close();
    await expect(openTestDataDir(data)).rejects.toThrow(`this data directory was written by a newer Hearth (schema version 999; this build knows up to ${SCHEMA_VERSION})`);
    await rm(data, { recursive: true, force: true });
  });
});

describe('indexes across restarts', () => {
  it('rebuilds an index an older Hearth made with other columns', async () => {
    const data = await mkdtemp(join(tmpdir(), 'hearth-index-'));
    const schemas = await writeProject({
      types: { item: collection('item', 'items', { parts: { type: 'component', component: 'shop.part', repeatable: true } }) },
      components: { 'shop.part': { attributes: { name: { type: 'string' } } } },
    });
    const columnsOf = async (s: Awaited<ReturnType<typeof startTestServer>>): Promise<string> => {
      const { db, kind } = s.server.services.database;
      const query =
        kind === 'postgres'
          ? sql<{ def: string }>`SELECT indexdef AS def FROM pg_indexes WHERE indexname = 'items_cmps_cmp_idx'`
          : sql<{ def: string }>`SELECT group_concat(name, ', ') AS def FROM (SELECT name FROM pragma_index_info('items_cmps_cmp_idx') ORDER BY seqno)`;
      return (await query.execute(db)).rows[0]?.def ?? '';
    };
    const first = await startTestServer({ schemas, dataDir: data });
    try {
      // As Hearth 0.1 made it: component_type first, which no lookup by cmp_id can use.
      await sql`DROP INDEX items_cmps_cmp_idx`.execute(first.server.services.database.db);
      await sql`CREATE INDEX items_cmps_cmp_idx ON items_cmps (component_type, cmp_id)`.execute(first.server.services.database.db);
      expect(await columnsOf(first)).toMatch(/component_type, cmp_id/);
    } finally {
      await first.close();
    }
    const again = await startTestServer({ schemas, dataDir: data });
    try {
      expect(await columnsOf(again)).toMatch(/cmp_id, component_type/);
    } finally {
      await again.close();
      await rm(data, { recursive: true, force: true });
    }
  });
});
