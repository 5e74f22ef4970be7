import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileFilter } from '../../server/compiler/where.js';
import type { CompileContext } from '../../server/compiler/context.js';
import type { Database } from '../../server/db/database.js';
import { migrate } from '../../server/db/migrations.js';
import { openPostgres } from '../../server/db/postgres.js';
import { openSqlite } from '../../server/db/sqlite.js';
import { convertFilters } from '../../server/query/filters.js';
import { parseQueryString } from '../../server/http/query-string.js';
import { loadProject } from '../../server/schema/load.js';
import { USERS_PERMISSIONS } from '../../server/users/models.js';
import { buildRegistry, type Registry } from '../../server/schema/registry.js';
import { syncSchema } from '../../server/schema/sync.js';
import type { ContentTypeModel } from '../../server/schema/types.js';
import { collection, writeProject } from '../helpers/project.js';

let database: Database;
let registry: Registry;
let model: ContentTypeModel;

beforeAll(async () => {
  const dir = await writeProject({
    types: {
      thing: collection('thing', 'things', {
        title: { type: 'string' },
        n: { type: 'integer' },
        at: { type: 'datetime' },
        tags: { type: 'relation', relation: 'manyToMany', target: 'api::tag.tag' },
      }),
      tag: collection('tag', 'tags', { label: { type: 'string' } }),
    },
  });
  registry = buildRegistry(await loadProject(dir, USERS_PERMISSIONS));
  database = openSqlite(join(await mkdtemp(join(tmpdir(), 'hearth-sql-')), 'test.db'));
  await migrate(database);
  await syncSchema(database, registry, { acceptSchemaChanges: false, defaultLocale: 'en', now: () => new Date().toISOString(), log: () => {} });
  const thing = registry.contentType('api::thing.thing');
  if (!thing) throw new Error('no thing');
  model = thing;
});
afterAll(() => database.close());

/** The WHERE clause and parameters the compiler produces for a `filters` query string. */
async function compiled(query: string): Promise<{ where: string; parameters: readonly unknown[] }> {
  const raw = parseQueryString(query);
  const node = convertFilters(raw.filters, model, registry);
  if (!node) throw new Error('no filter');
  const ctx: CompileContext = { kind: 'sqlite', registry, aliases: 0 };
  const q = database.db.selectFrom('things as t0').select('t0.id').where((eb) => compileFilter(ctx, eb, model, 't0', node));
  await q.execute();
  const { sql, parameters } = q.compile();
  return { where: sql.slice(sql.indexOf(' where ') + 7), parameters };
}

describe('SQL for each operator (identifiers quoted from the schema, values bound)', () => {
  const cases: [string, string, unknown[]][] = [
    ['filters[title]=a', '"t0"."title" = ?', ['a']],
    ['filters[title][$eq]=a', '"t0"."title" = ?', ['a']],
    ['filters[title][$eq]', '"t0"."title" IS NULL', []],
    ['filters[title][$ne]=a', '"t0"."title" <> ?', ['a']],
    ['filters[title][$eqi]=A', 'hearth_lower("t0"."title") = hearth_lower(?)', ['A']],
    ['filters[title][$nei]=A', 'hearth_lower("t0"."title") <> hearth_lower(?)', ['A']],
    ['filters[n][$lt]=3', '"t0"."n" < ?', [3]],
    ['filters[n][$lte]=3', '"t0"."n" <= ?', [3]],
    ['filters[n][$gt]=3', '"t0"."n" > ?', [3]],
    ['filters[n][$gte]=3', '"t0"."n" >= ?', [3]],
    ['filters[n][$in][0]=1&filters[n][$in][1]=2', '"t0"."n" IN (?, ?)', [1, 2]],
    ['filters[n][$notIn][0]=1', '"t0"."n" NOT IN (?)', [1]],
    ['filters[n][$between][0]=1&filters[n][$between][1]=5', '"t0"."n" BETWEEN ? AND ?', [1, 5]],
    ['filters[title][$contains]=5%_off', `"t0"."title" LIKE ? ESCAPE '\\'`, ['%5\\%\\_off%']],
    ['filters[title][$notContains]=x', `"t0"."title" NOT LIKE ? ESCAPE '\\'`, ['%x%']],
    ['filters[title][$containsi]=X', `hearth_lower("t0"."title") LIKE hearth_lower(?) ESCAPE '\\'`, ['%X%']],
    ['filters[title][$notContainsi]=X', `hearth_lower("t0"."title") NOT LIKE hearth_lower(?) ESCAPE '\\'`, ['%X%']],
    ['filters[title][$startsWith]=x', `"t0"."title" LIKE ? ESCAPE '\\'`, ['x%']],
    ['filters[title][$startsWithi]=x', `hearth_lower("t0"."title") LIKE hearth_lower(?) ESCAPE '\\'`, ['x%']],
    ['filters[title][$endsWith]=x', `"t0"."title" LIKE ? ESCAPE '\\'`, ['%x']],
    ['filters[title][$endsWithi]=x', `hearth_lower("t0"."title") LIKE hearth_lower(?) ESCAPE '\\'`, ['%x']],
    ['filters[title][$null]=true', '"t0"."title" IS NULL', []],
    ['filters[title][$notNull]=true', '"t0"."title" IS NOT NULL', []],
    ['filters[title][$eq][0]=a&filters[title][$eq][1]=b', '("t0"."title" = ? or "t0"."title" = ?)', ['a', 'b']],
    ['filters[at][$gt]=2026-03-01T12:00:00%2B02:00', '"t0"."at" > ?', ['2026-03-01T10:00:00.000Z']],
    ['filters[$or][0][n]=1&filters[$or][1][title]=a', '("t0"."n" = ? or "t0"."title" = ?)', [1, 'a']],
    ['filters[$not][n]=1', 'not "t0"."n" = ?', [1]],
    ['filters[n][$not][$gt]=1', 'not "t0"."n" > ?', [1]],
  ];
  for (const [query, where, parameters] of cases) {
    it(query, async () => {
      expect(await compiled(query)).toEqual({ where, parameters });
    });
  }

  it('filters through a relation with one EXISTS per join scope', async () => {
    expect(await compiled('filters[tags][label][$eq]=a')).toEqual({
      where: 'exists (select 1 as "one" from "things_tags_lnk" as "t2" inner join "tags" as "t1" on "t1"."id" = "t2"."target_id" where "t2"."entity_id" = "t0"."id" and "t1"."label" = ?)',
      parameters: ['a'],
    });
  });

  it('adds the no-related-rows case when the condition holds on a NULL row (LEFT JOIN semantics)', async () => {
    const { where } = await compiled('filters[tags][label][$null]=true');
    expect(where).toContain(' or not exists (select 1 as "one" from "things_tags_lnk"');
  });

  it('never puts a value into the SQL text', async () => {
    const hostile = "x'); DROP TABLE things; --";
    const { where, parameters } = await compiled(`filters[title][$eq]=${encodeURIComponent(hostile)}`);
    expect(where).not.toContain('DROP');
    expect(parameters).toEqual([hostile]);
  });
});

describe('SQL for PostgreSQL: the same answers as SQLite (compiled only; the postgres project runs the API suite on a server)', () => {
  // Compiling needs no connection: the pool would connect on the first query only.
  const postgres = openPostgres('postgres://hearth@127.0.0.1:1/unused');
  afterAll(() => postgres.close());

  function compiledForPostgres(query: string): { where: string; parameters: readonly unknown[] } {
    const node = convertFilters(parseQueryString(query).filters, model, registry);
    if (!node) throw new Error('no filter');
    const ctx: CompileContext = { kind: 'postgres', registry, aliases: 0 };
    const { sql, parameters } = postgres.db.selectFrom('things as t0').select('t0.id').where((eb) => compileFilter(ctx, eb, model, 't0', node)).compile();
    return { where: sql.slice(sql.indexOf(' where ') + 7), parameters };
  }

  const cases: [string, string, unknown[]][] = [
    // Unicode lower-case through the hearth_lower() function a migration creates (ICU's, as JavaScript's toLowerCase).
    ['filters[title][$eqi]=ÉCOLE', 'hearth_lower(CAST("t0"."title" AS text)) = hearth_lower(CAST($1 AS text))', ['ÉCOLE']],
    ['filters[title][$containsi]=Σ', `hearth_lower(CAST("t0"."title" AS text)) LIKE hearth_lower(CAST($1 AS text)) ESCAPE '\\'`, ['%Σ%']],
    // SQLite's LIKE folds ASCII letters only: lower() under the "C" collation does exactly that.
    ['filters[title][$contains]=Ab', `lower(CAST("t0"."title" AS text) COLLATE "C") LIKE lower(CAST($1 AS text) COLLATE "C") ESCAPE '\\'`, ['%Ab%']],
    // Numbers are bound with their type: an integer column compares with 0.5 as SQLite does, instead of failing to read '0.5' as an integer.
    ['filters[n][$lt]=3', '"t0"."n" < $1::bigint', [3]],
    ['filters[n][$between][0]=-1&filters[n][$between][1]=0.5', '"t0"."n" BETWEEN $1::bigint AND $2::double precision', [-1, 0.5]],
    ['filters[title][$eq]=3', '"t0"."title" = $1', ['3']],
  ];
  for (const [query, where, parameters] of cases) {
    it(query, () => {
      expect(compiledForPostgres(query)).toEqual({ where, parameters });
    });
  }
});
