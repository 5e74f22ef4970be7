import qs from 'qs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { collection, dataOf, expectJson, listOf, writeProject, type Doc } from '../helpers/project.js';

let server: TestServer;
let token: string;

beforeAll(async () => {
  const schemas = await writeProject({
    types: {
      node: collection('node', 'nodes', {
        name: { type: 'string' },
        parent: { type: 'relation', relation: 'manyToOne', target: 'api::node.node', inversedBy: 'children' },
        children: { type: 'relation', relation: 'oneToMany', target: 'api::node.node', mappedBy: 'parent' },
        tags: { type: 'relation', relation: 'manyToMany', target: 'api::tag.tag' },
        info: { type: 'component', component: 'shared.info' },
        zone: { type: 'dynamiczone', components: ['shared.info', 'shared.link'] },
        secret: { type: 'relation', relation: 'oneWay', target: 'api::tag.tag', private: true },
      }),
      tag: collection('tag', 'tags', { label: { type: 'string' }, rank: { type: 'integer' } }),
    },
    components: {
      'shared.info': { attributes: { note: { type: 'string' }, tag: { type: 'relation', relation: 'oneWay', target: 'api::tag.tag' } } },
      'shared.link': { attributes: { url: { type: 'string' }, tags: { type: 'relation', relation: 'manyWay', target: 'api::tag.tag' } } },
    },
  });
  server = await startTestServer({ schemas });
  token = await server.token('full-access');
  const tags: Doc[] = [];
  for (const [label, rank] of [['b', 2], ['a', 1], ['c', 3]] as const) {
    tags.push(await dataOf(await server.request('/api/tags', { method: 'POST', token, json: { data: { label, rank } } }), 201));
  }
  const tagIds = tags.map((t) => t.documentId);
  let parent: string | null = null;
  for (let depth = 0; depth < 4; depth++) {
    const node: Doc = await dataOf(
      await server.request('/api/nodes', {
        method: 'POST',
        token,
        json: {
          data: {
            name: `level${depth}`,
            parent,
            tags: tagIds,
            info: { note: `n${depth}`, tag: tagIds[0] },
            zone: [{ __component: 'shared.info', note: 'z' }, { __component: 'shared.link', url: 'u', tags: [tagIds[1], tagIds[2]] }],
          },
        },
      }),
      201,
    );
    parent = node.documentId;
  }
  for (let i = 0; i < 30; i++) {
    await dataOf(await server.request('/api/nodes', { method: 'POST', token, json: { data: { name: `leaf${i}`, parent, tags: tagIds, info: { note: 'x' }, zone: [{ __component: 'shared.link', url: 'v' }] } } }), 201);
  }
});
afterAll(() => server.close());

const get = async (query: Record<string, unknown> | string) =>
  server.request(`/api/nodes?${typeof query === 'string' ? query : qs.stringify(query, { encodeValuesOnly: true })}`, { token });
const first = async (query: Record<string, unknown>) => (await listOf(await get({ ...query, sort: 'id:asc', pagination: { pageSize: 1 } })))[0] as Doc;

describe('populate forms', () => {
  it('`*` populates every relation, component and dynamic zone one level deep, dynamic zones last', async () => {
    const doc = await first({ populate: '*' });
    expect(Object.keys(doc).slice(-4)).toEqual(['children', 'tags', 'info', 'zone']);
    expect(doc.parent).toBeNull();
    expect(doc.info).toEqual({ id: expect.any(Number), note: 'n0' });
    expect((doc.zone as Doc[]).map((z) => z.__component)).toEqual(['shared.info', 'shared.link']);
    expect(doc).not.toHaveProperty('secret');
  });

  it('a comma string, an array and dot paths give the same nested result', async () => {
    const byString = await first({ populate: 'parent,children.tags' });
    const byArray = await first({ populate: ['parent', 'children.tags'] });
    expect(byArray).toEqual(byString);
    const child = (byString.children as Doc[])[0];
    expect((child?.tags as Doc[]).map((t) => t.label)).toEqual(['b', 'a', 'c']);
  });

  it('object form with nested fields, filters, sort and populate', async () => {
    const doc = await first({
      fields: ['name'],
      populate: {
        tags: { fields: ['label'], sort: ['rank:desc'], filters: { rank: { $gte: 2 } } },
        children: { fields: ['name'], populate: { children: { fields: ['name'] } } },
      },
    });
    expect(doc.tags).toEqual([
      { label: 'c', id: expect.any(Number), documentId: expect.any(String) },
      { label: 'b', id: expect.any(Number), documentId: expect.any(String) },
    ]);
    expect(doc.children).toEqual([{ id: expect.any(Number), documentId: expect.any(String), name: 'level1', children: [{ id: expect.any(Number), documentId: expect.any(String), name: 'level2' }] }]);
  });

  it('dynamic-zone fragments populate per component and leave out unlisted ones', async () => {
    const doc = await first({ populate: { zone: { on: { 'shared.link': { fields: ['url'], populate: { tags: { fields: ['label'] } } } } } } });
    expect(doc.zone).toEqual([{ id: expect.any(Number), url: 'u', tags: [{ id: expect.any(Number), documentId: expect.any(String), label: 'a' }, { id: expect.any(Number), documentId: expect.any(String), label: 'c' }], __component: 'shared.link' }]);
  });

  it('counts instead of listing with `count`', async () => {
    const doc = await first({ populate: { tags: { count: true } } });
    expect(doc.tags).toEqual({ count: 3 });
  });

  it('refuses fragments on anything but a dynamic zone, as Strapi does', async () => {
    const body = await expectJson(await get({ populate: { tags: { on: { 'shared.info': true } } } }), 400);
    expect(body).toEqual({ data: null, error: { status: 400, name: 'ValidationError', message: 'Using fragments is not permitted to populate "tags" in "api::node.node"', details: {} } });
  });

  it('refuses non-relational attributes, unknown keys and private relations with Invalid key', async () => {
    expect(await expectJson(await get({ populate: { name: true } }), 400)).toMatchObject({ error: { message: 'Invalid key name', details: { key: 'name', path: 'name', param: 'populate' } } });
    expect(await expectJson(await get('populate=parent.nope'), 400)).toMatchObject({ error: { message: 'Invalid key nope at parent.nope' } });
    expect(await expectJson(await get({ populate: { secret: true } }), 400)).toMatchObject({ error: { message: 'Invalid key secret' } });
    expect(await expectJson(await get({ populate: { tags: { status: 'draft' } } }), 400)).toMatchObject({
      error: { message: 'Invalid key status at tags: status is only accepted at the root of the query, and it also applies to populated relations' },
    });
  });

  it('populates the response of writes', async () => {
    const [tag] = await listOf(await server.request('/api/tags?filters[label]=a', { token }));
    const created = await dataOf(await server.request('/api/nodes?populate[tags][fields][0]=label', { method: 'POST', token, json: { data: { name: 'w', tags: [tag?.documentId] } } }), 201);
    expect(created.tags).toEqual([{ id: expect.any(Number), documentId: tag?.documentId, label: 'a' }]);
  });
});

describe('query counts stay constant (no N+1)', () => {
  const count = async (query: Record<string, unknown>) => {
    // Resolves the token first, so the count is of the read alone (a resolved caller is remembered a moment).
    await expectJson(await get({ fields: ['name'], pagination: { pageSize: 1 }, sort: 'name:asc' }), 200);
    const before = server.server.services.database.queryCount();
    await expectJson(await get(query), 200);
    return server.server.services.database.queryCount() - before;
  };

  it('populate=* costs the same for 5 and 25 documents', async () => {
    const small = await count({ populate: '*', pagination: { pageSize: 5 } });
    const large = await count({ populate: '*', pagination: { pageSize: 25 } });
    expect(large).toBe(small);
    expect(small).toBeLessThanOrEqual(12);
  });

  it('a three-level nested populate costs the same for 5 and 25 documents', async () => {
    const populate = { parent: { populate: { parent: { populate: { tags: true } } } } };
    expect(await count({ populate, pagination: { pageSize: 25 } })).toBe(await count({ populate, pagination: { pageSize: 5 } }));
  });

  it('dynamic-zone fragments cost the same for 5 and 25 documents', async () => {
    const populate = { zone: { on: { 'shared.link': { populate: { tags: true } }, 'shared.info': { populate: { tag: true } } } } };
    expect(await count({ populate, pagination: { pageSize: 25 } })).toBe(await count({ populate, pagination: { pageSize: 5 } }));
  });
});

describe('limits', () => {
  it('refuses a populate tree deeper than the limit', async () => {
    let populate: Record<string, unknown> = { parent: true };
    for (let i = 0; i < 10; i++) populate = { parent: { populate } };
    const body = await expectJson(await get({ populate }), 400);
    expect(body).toMatchObject({ data: null, error: { status: 400, name: 'ValidationError' } });
  });

  it('refuses a filters tree with too many conditions', async () => {
    const branch = () => ({ $or: Array.from({ length: 100 }, (_, i) => ({ name: `x${i}` })) });
    const body = await expectJson(await get({ filters: { $or: [branch(), branch()] } }), 400);
    expect(body).toMatchObject({ error: { name: 'ValidationError', message: 'Too many filters: at most 500 conditions are accepted' } });
  });

  it('answers a URL too long for the HTTP parser with the error envelope', async () => {
    const res = await get(`filters[name][$eq]=${'x'.repeat(20_000)}`);
    expect(res.status).toBe(431);
    expect(await res.json()).toEqual({ data: null, error: { status: 431, name: 'RequestHeaderFieldsTooLargeError', message: 'Request header fields too large', details: {} } });
  });

  it('refuses a value list longer than the query-string array limit', async () => {
    const query = `filters[name][$in][150]=x&filters[name][$in][0]=y`;
    expect(await expectJson(await get(query), 400)).toMatchObject({ error: { name: 'ValidationError', message: 'Invalid filter value for name: expected a list of values' } });
  });
});
