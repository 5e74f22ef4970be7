import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CompileContext } from '../../server/compiler/context.js';
import { countQuery, listRows, pageColumns, pageQuery, type ListArgs } from '../../server/compiler/list.js';
import { linkOf, type Link } from '../../server/compiler/links.js';
import { FILES_RELATED_TABLE } from '../../server/db/system-tables.js';
import { countLinkedQuery, linkedQuery, selectLinked, selectTypedLinks, typedLinksQuery } from '../../server/compiler/populate-select.js';
import type { ReadScope } from '../../server/compiler/scope.js';
import type { Database } from '../../server/db/database.js';
import { migrate } from '../../server/db/migrations.js';
import { openPostgres } from '../../server/db/postgres.js';
import { openSqlite } from '../../server/db/sqlite.js';
import { loadProject } from '../../server/schema/load.js';
import { USERS_PERMISSIONS } from '../../server/users/models.js';
import { buildRegistry, type Registry } from '../../server/schema/registry.js';
import { syncSchema } from '../../server/schema/sync.js';
import type { ContentTypeModel } from '../../server/schema/types.js';
import { collection, writeProject } from '../helpers/project.js';

let database: Database;
let registry: Registry;
let thing: ContentTypeModel;
let tag: ContentTypeModel;

beforeAll(async () => {
  const dir = await writeProject({
    types: {
      thing: collection('thing', 'things', {
        title: { type: 'string' },
        tags: { type: 'relation', relation: 'manyToMany', target: 'api::tag.tag', inversedBy: 'things' },
        info: { type: 'component', component: 'parts.info', repeatable: false },
        zone: { type: 'dynamiczone', components: ['parts.info', 'parts.note'] },
        cover: { type: 'media', multiple: false },
      }),
      tag: collection('tag', 'tags', { label: { type: 'string' }, things: { type: 'relation', relation: 'manyToMany', target: 'api::thing.thing', mappedBy: 'tags' } }, { draftAndPublish: false }),
    },
    components: {
      'parts.info': { attributes: { size: { type: 'integer' } } },
      'parts.note': { attributes: { text: { type: 'string' } } },
    },
  });
  registry = buildRegistry(await loadProject(dir, USERS_PERMISSIONS));
  database = openSqlite(join(await mkdtemp(join(tmpdir(), 'hearth-select-')), 'test.db'));
  await migrate(database);
  await syncSchema(database, registry, { acceptSchemaChanges: false, defaultLocale: 'en', now: () => new Date().toISOString(), log: () => {} });
  const t = registry.contentType('api::thing.thing');
  const g = registry.contentType('api::tag.tag');
  if (!t || !g) throw new Error('models missing');
  [thing, tag] = [t, g];
  const db = database.db;
  const at = '2026-01-01T00:00:00.000Z';
  for (const [id, title, publishedAt] of [[1, 'b', at], [2, 'a', at], [3, 'c', null]] as const) {
    await db.insertInto('things').values({ id, documentId: `d${id}`, title, publishedAt, createdAt: at, updatedAt: at }).execute();
  }
  for (const [id, label] of [[1, 'x'], [2, 'y']] as const) await db.insertInto('tags').values({ id, documentId: `t${id}`, label, publishedAt: at, createdAt: at, updatedAt: at }).execute();
  // thing 1 -> tags 2, 1 (in that order); thing 2 -> tag 1
  await db.insertInto('things_tags_lnk').values([
    { entity_id: 1, target_id: 2, ord: 1, inv_ord: 1 },
    { entity_id: 1, target_id: 1, ord: 2, inv_ord: 1 },
    { entity_id: 2, target_id: 1, ord: 1, inv_ord: 2 },
  ]).execute();
  await db.insertInto('components_parts_info').values([{ id: 1, size: 5 }, { id: 2, size: 7 }]).execute();
  await db.insertInto('components_parts_note').values([{ id: 1, text: 'n' }]).execute();
  await db.insertInto('things_cmps').values([
    { entity_id: 1, cmp_id: 1, component_type: 'parts.info', field: 'info', ord: 1 },
    { entity_id: 1, cmp_id: 1, component_type: 'parts.note', field: 'zone', ord: 2 },
    { entity_id: 1, cmp_id: 2, component_type: 'parts.info', field: 'zone', ord: 1 },
  ]).execute();
});
afterAll(() => database.close());

const ctxFor = (kind: 'sqlite' | 'postgres'): CompileContext => ({ kind, registry, aliases: 0 });
const published: ReadScope = { status: 'published', locale: null, publicationFilter: null, search: null, filters: null };
const link = (model: ContentTypeModel, attribute: string): Link => {
  const found = linkOf(registry, model, attribute);
  if (!found) throw new Error(`no link for ${attribute}`);
  return found;
};

describe('linkOf: one description per linking attribute', () => {
  it('describes relations from either side, components, dynamic zones and media', () => {
    const strip = (l: Link) => ({ ...l, target: l.target?.uid ?? null });
    expect(strip(link(thing, 'tags'))).toEqual({ table: 'things_tags_lnk', self: 'entity_id', other: 'target_id', order: 'ord', fixed: [], target: 'api::tag.tag', type: null });
    expect(strip(link(tag, 'things'))).toEqual({ table: 'things_tags_lnk', self: 'target_id', other: 'entity_id', order: 'inv_ord', fixed: [], target: 'api::thing.thing', type: null });
    expect(strip(link(thing, 'info'))).toEqual({
      table: 'things_cmps', self: 'entity_id', other: 'cmp_id', order: 'ord',
      fixed: [{ column: 'field', value: 'info' }, { column: 'component_type', value: 'parts.info' }], target: 'parts.info', type: null,
    });
    expect(strip(link(thing, 'zone'))).toEqual({ table: 'things_cmps', self: 'entity_id', other: 'cmp_id', order: 'ord', fixed: [{ column: 'field', value: 'zone' }], target: null, type: 'component_type' });
    expect(strip(link(thing, 'cover'))).toEqual({
      table: FILES_RELATED_TABLE, self: 'related_id', other: 'file_id', order: 'ord',
      fixed: [{ column: 'related_type', value: 'api::thing.thing' }, { column: 'field', value: 'cover' }], target: 'plugin::upload.file', type: null,
    });
    expect(linkOf(registry, thing, 'title')).toBeNull();
    // One object per attribute: every caller shares it.
    expect(linkOf(registry, thing, 'tags')).toBe(linkOf(registry, thing, 'tags'));
  });
});

describe('list, count and page statements', () => {
  const args = (over: Partial<ListArgs> = {}): ListArgs => ({ scope: published, fields: ['title'], sort: [], pagination: { mode: 'offset', start: 0, limit: 25, withCount: true }, ...over });

  it('a first page in id order: one statement with the system columns and the fields', async () => {
    const q = pageQuery(database.db, ctxFor('sqlite'), thing, args(), pageColumns(thing, ['title']));
    expect(q.compile().sql).toBe(
      'select "t0"."id", "t0"."documentId", "t0"."locale", "t0"."publishedAt", "t0"."updatedAt", "t0"."title" from "things" as "t0" where ("t0"."publishedAt" is not null and "t0"."locale" is null) order by "t0"."id" asc limit ?',
    );
    expect(q.compile().parameters).toEqual([25]);
    expect((await listRows(database.db, ctxFor('sqlite'), thing, args())).map((r) => r.title)).toEqual(['b', 'a']);
  });

  it('a sort through a relation reads the first linked row, in link order', async () => {
    const sorted = args({ sort: [{ path: ['tags', 'label'], direction: 'asc' }] });
    const { sql, parameters } = pageQuery(database.db, ctxFor('sqlite'), thing, sorted, ['t0.id']).compile();
    expect(sql).toBe(
      'select "t0"."id" from "things" as "t0" where ("t0"."publishedAt" is not null and "t0"."locale" is null) order by (select "t1"."label" as "v" from "things_tags_lnk" as "t2" inner join "tags" as "t1" on "t1"."id" = "t2"."target_id" where "t2"."entity_id" = "t0"."id" order by "t2"."ord", "t2"."id" limit ?) asc nulls first, "t0"."id" asc limit ?',
    );
    expect(parameters).toEqual([1, 25]);
    // thing 1's first tag is y, thing 2's is x.
    expect((await listRows(database.db, ctxFor('sqlite'), thing, sorted)).map((r) => r.title)).toEqual(['a', 'b']);
  });

  it('a sort through a component or media also names the link fixed conditions', () => {
    const { sql, parameters } = pageQuery(database.db, ctxFor('sqlite'), thing, args({ sort: [{ path: ['info', 'size'], direction: 'desc' }] }), ['t0.id']).compile();
    expect(sql).toContain('(select "t1"."size" as "v" from "things_cmps" as "t2" inner join "components_parts_info" as "t1" on "t1"."id" = "t2"."cmp_id" where "t2"."entity_id" = "t0"."id" and "t2"."field" = ? and "t2"."component_type" = ? order by "t2"."ord", "t2"."id" limit ?) desc nulls last');
    expect(parameters).toEqual(['info', 'parts.info', 1, 25]);
  });

  it("one document's page reuses its compiled statement with the documentId bound", async () => {
    const one = (documentId: string): ListArgs =>
      args({ scope: { ...published, filters: { kind: 'compare', field: { name: 'documentId', type: 'string' }, operator: '$eq', value: documentId } }, pagination: { mode: 'offset', start: 0, limit: 1, withCount: false } });
    expect(pageQuery(database.db, ctxFor('sqlite'), thing, one('d1'), ['t0.id']).compile()).toMatchObject({
      sql: 'select "t0"."id" from "things" as "t0" where ("t0"."publishedAt" is not null and "t0"."locale" is null and "t0"."documentId" = ?) order by "t0"."id" asc limit ?',
      parameters: ['d1', 1],
    });
    for (const [documentId, title] of [['d1', 'b'], ['d2', 'a'], ['d3', undefined]] as const) {
      expect((await listRows(database.db, ctxFor('sqlite'), thing, one(documentId)))[0]?.title).toBe(title);
    }
  });

  it('counts with the same scope', async () => {
    const q = countQuery(database.db, ctxFor('sqlite'), thing, published);
    expect(q.compile().sql).toBe('select count(*) as "count" from "things" as "t0" where ("t0"."publishedAt" is not null and "t0"."locale" is null)');
    expect(Number((await q.executeTakeFirst())?.count)).toBe(2);
  });
});

describe('populate statements', () => {
  it('relation: linked rows with their parent, grouped by parent, in link order', async () => {
    const q = linkedQuery(database.db, ctxFor('sqlite'), { link: link(thing, 'tags'), target: tag, status: 'published', filters: null, sort: [], columns: ['id', 'label'] }, [1, 2]);
    expect(q.compile().sql).toBe(
      'select "l"."entity_id" as "__parent", "t0"."id", "t0"."label" from "things_tags_lnk" as "l" inner join "tags" as "t0" on "t0"."id" = "l"."target_id" where "l"."entity_id" in (?, ?) order by "l"."entity_id", "l"."ord", "l"."id"',
    );
    expect(q.compile().parameters).toEqual([1, 2]);
    expect((await q.execute()).map((r) => [r.__parent, r.label])).toEqual([[1, 'y'], [1, 'x'], [2, 'x']]);
  });

  it('a repeated shape reuses its compiled text with the new values bound', async () => {
    const args = { link: link(thing, 'tags'), target: tag, status: 'published' as const, filters: null, sort: [], columns: ['id', 'label'] };
    const labels = async (ids: number[]) => (await selectLinked(database.db, ctxFor('sqlite'), { ...args, parentIds: ids })).map((r) => [r.__parent, r.label]);
    expect(await labels([1])).toEqual([[1, 'y'], [1, 'x']]);
    expect(await labels([2])).toEqual([[2, 'x']]);
    expect(await labels([3])).toEqual([]);
  });

  it('component: the fixed conditions are bound values', async () => {
    const info = registry.component('parts.info');
    if (!info) throw new Error('no component');
    const q = linkedQuery(database.db, ctxFor('sqlite'), { link: link(thing, 'info'), target: info, status: 'published', filters: null, sort: [], columns: ['id', 'size'] }, [1]);
    expect(q.compile().sql).toBe(
      'select "l"."entity_id" as "__parent", "t0"."id", "t0"."size" from "things_cmps" as "l" inner join "components_parts_info" as "t0" on "t0"."id" = "l"."cmp_id" where "l"."entity_id" in (?) and "l"."field" = ? and "l"."component_type" = ? order by "l"."entity_id", "l"."ord", "l"."id"',
    );
    expect(q.compile().parameters).toEqual([1, 'info', 'parts.info']);
    expect((await q.execute()).map((r) => r.size)).toEqual([5]);
  });

  it('relation count from the inverse side: distinct linked rows per parent (no status condition on a type without draft & publish)', async () => {
    const q = countLinkedQuery(database.db, ctxFor('sqlite'), { link: link(tag, 'things'), target: thing, status: 'published', filters: null }, [1, 2]);
    expect(q.compile().sql).toBe(
      'select "l"."target_id" as "parent", count(distinct "t0"."id") as "count" from "things_tags_lnk" as "l" inner join "things" as "t0" on "t0"."id" = "l"."entity_id" where "l"."target_id" in (?, ?) group by "l"."target_id"',
    );
    expect((await q.execute()).map((r) => [Number(r.parent), Number(r.count)])).toEqual([[1, 2], [2, 1]]);
  });

  it('dynamic zone: the links alone, each naming its component, in zone order', async () => {
    const q = typedLinksQuery(database.db, link(thing, 'zone'), [1]);
    expect(q.compile().sql).toBe(
      'select "l"."entity_id" as "parent", "l"."cmp_id" as "id", "l"."component_type" as "type" from "things_cmps" as "l" where "l"."entity_id" in (?) and "l"."field" = ? order by "l"."entity_id", "l"."ord", "l"."id"',
    );
    expect(await selectTypedLinks(database.db, link(thing, 'zone'), [1])).toEqual([
      { parent: 1, type: 'parts.info', id: 2 },
      { parent: 1, type: 'parts.note', id: 1 },
    ]);
    expect(await selectTypedLinks(database.db, link(thing, 'zone'), [1], [])).toEqual([]);
  });
});

describe('the same statements for PostgreSQL (compiled only; the postgres project runs the API suites on a server)', () => {
  // Compiling needs no connection: the pool would connect on the first query only.
  const postgres = openPostgres('postgres://hearth@127.0.0.1:1/unused');
  afterAll(() => postgres.close());

  it('numbers its parameters, casts numbers, and keeps the SQLite statement otherwise', () => {
    const q = linkedQuery(postgres.db, ctxFor('postgres'), { link: link(thing, 'cover'), target: registry.model('plugin::upload.file') ?? thing, status: 'published', filters: null, sort: [], columns: ['id'] }, [4, 5]);
    expect(q.compile().sql).toBe(
      'select "l"."related_id" as "__parent", "t0"."id" from "hearth_files_related" as "l" inner join "hearth_files" as "t0" on "t0"."id" = "l"."file_id" where "l"."related_id" in ($1::bigint, $2::bigint) and "l"."related_type" = $3 and "l"."field" = $4 order by "l"."related_id", "l"."ord", "l"."id"',
    );
    expect(q.compile().parameters).toEqual([4, 5, 'api::thing.thing', 'cover']);
    expect(countQuery(postgres.db, ctxFor('postgres'), thing, published).compile().sql).toBe(
      'select count(*) as "count" from "things" as "t0" where ("t0"."publishedAt" is not null and "t0"."locale" is null)',
    );
  });
});
