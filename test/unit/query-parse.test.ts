import { beforeAll, describe, expect, it } from 'vitest';
import { parseQueryString } from '../../server/http/query-string.js';
import { parseFields } from '../../server/query/fields.js';
import { parseFilters } from '../../server/query/filters.js';
import { readListQuery, type QueryEnv } from '../../server/query/read-query.js';
import { parseSort } from '../../server/query/sort.js';
import { loadProject } from '../../server/schema/load.js';
import { buildRegistry, type Registry } from '../../server/schema/registry.js';
import type { ContentTypeModel } from '../../server/schema/types.js';
import { USERS_PERMISSIONS } from '../../server/users/models.js';
import { FIXTURE_PROJECT } from '../helpers/server.js';
import { thrown } from '../helpers/thrown.js';

/**
 * Parse once: filters, sort and fields are validated and converted in one walk each. Strapi runs
 * its validator passes one after another over the whole tree, and validates every parameter
 * before it converts any, so the one walk must name the same key and keep conversion errors back.
 */

let registry: Registry;
let article: ContentTypeModel;
let specimen: ContentTypeModel;
let env: QueryEnv;

beforeAll(async () => {
  registry = buildRegistry(await loadProject(FIXTURE_PROJECT, USERS_PERMISSIONS));
  const find = (uid: string): ContentTypeModel => {
    const model = registry.contentType(uid);
    if (!model) throw new Error(`no ${uid}`);
    return model;
  };
  article = find('api::article.article');
  specimen = find('api::specimen.specimen');
  env = { registry, limits: { defaultLimit: 25, maxLimit: 100 }, canRead: (uid) => uid !== 'api::tag.tag' };
});

const invalid = (key: string, param: string, path: string | null = key) => ({
  status: 400,
  name: 'ValidationError',
  message: path && path !== key ? `Invalid key ${key} at ${path}` : `Invalid key ${key}`,
  details: { key, path, source: 'query', param },
});

const filtersOf = (query: string) => parseQueryString(query).filters;

describe('parseFilters', () => {
  it('converts into the kind-tagged tree', () => {
    const parsed = parseFilters(filtersOf('filters[category][name][$eq]=x&filters[views][$gt]=3'), { model: article, registry });
    expect(parsed).toEqual({
      ok: true,
      value: {
        kind: 'and',
        children: [
          {
            kind: 'through',
            attribute: 'category',
            via: 'relation',
            target: 'api::category.category',
            child: { kind: 'compare', field: { name: 'name', type: 'string' }, operator: '$eq', value: 'x' },
          },
          { kind: 'compare', field: { name: 'views', type: 'integer' }, operator: '$gt', value: 3 },
        ],
      },
    });
  });

  it("names the first key of Strapi's earliest failing pass, wherever it sits in the walk", () => {
    // The password pass comes after the unknown-key pass: `nope` is named though `s_password` comes first.
    const filters = filtersOf('filters[s_password]=x&filters[$or][0][nope]=y');
    expect(thrown(() => parseFilters(filters, { model: specimen, registry }))).toEqual(invalid('nope', 'filters', null));
  });

  it('names a relation the caller may not read, at any depth', () => {
    const filters = filtersOf('filters[category][articles][tags][label]=x');
    expect(thrown(() => parseFilters(filters, { model: article, registry, canRead: env.canRead }))).toEqual(invalid('tags', 'filters', 'category.articles.tags'));
  });

  it("checks below an operand the converter reads as a value, as Strapi's traversal does", () => {
    // `$null` reads its operand as a boolean, but Strapi's traversal enters an operand that looks like filters.
    const filters = filtersOf('filters[s_string][$null][s_string]=x&filters[s_string][$null][s_private]=y');
    expect(thrown(() => parseFilters(filters, { model: specimen, registry }))).toEqual(invalid('s_private', 'filters', 's_string.s_private'));
  });

  it('keeps a conversion error back, and lets a validation error met later in the walk win over it', () => {
    const bad = parseFilters(filtersOf('filters[views][$between]=1'), { model: article, registry });
    expect(bad.ok).toBe(false);
    const filters = filtersOf('filters[views][$between]=1&filters[nope]=2');
    expect(thrown(() => parseFilters(filters, { model: article, registry }))).toEqual(invalid('nope', 'filters', null));
  });
});

describe('parseSort and parseFields', () => {
  it("sort: the earliest pass's first key", () => {
    expect(thrown(() => parseSort('s_password,nope:desc', { model: specimen, registry }))).toEqual(invalid('nope', 'sort', null));
    expect(parseSort('s_string:desc,id', { model: specimen, registry })).toEqual({
      ok: true,
      value: [
        { path: ['s_string'], direction: 'desc' },
        { path: ['id'], direction: 'asc' },
      ],
    });
  });

  it('sort: a bad order is a conversion error, kept back', () => {
    const parsed = parseSort('views:sideways', { model: article, registry });
    expect(parsed.ok).toBe(false);
  });

  it("fields: the earliest pass's first key, then the ids first", () => {
    expect(thrown(() => parseFields(['s_password', 's_comp'], specimen))).toEqual(invalid('s_comp', 'fields'));
    expect(parseFields('title,views', article)).toEqual({ ok: true, value: ['id', 'documentId', 'title', 'views'] });
  });
});

describe('readListQuery', () => {
  const read = (query: string) => () => readListQuery(parseQueryString(query), article, env);

  it('validates every parameter before throwing a conversion error', () => {
    expect(thrown(read('filters[views][$between]=1&sort=nope'))).toEqual(invalid('nope', 'sort', null));
  });

  it('throws conversion errors after the strict parameter checks, sort before filters', () => {
    expect(thrown(read('filters[views][$between]=1&status=bogus'))).toMatchObject({
      status: 400,
      message: "Invalid parameter at 'status'. Expected 'published' or 'draft', received: bogus",
    });
    expect(thrown(read('filters[views][$between]=1&sort=views:sideways'))).toMatchObject({
      status: 400,
      message: 'Invalid order. order can only be one of asc|desc|ASC|DESC',
    });
  });
});
