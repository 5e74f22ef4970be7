import qs from 'qs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { collection, dataOf, expectJson, writeProject } from '../helpers/project.js';
import { fixturePart, json, postUpload, type FileObject } from '../uploads/helpers.js';

/**
 * Filters, sort and count nested inside populate reach relations too: each relation they traverse,
 * at any depth (through relations, components, dynamic zones), is checked against the caller's
 * `find` exactly as at the root, so a type the caller may not read cannot be probed by matches.
 */

let server: TestServer;
let admin: string;
const UP = 'plugin::users-permissions';
const SECRET = 'S3CRET-7781';

const guard = { label: { type: 'string' }, vault: { type: 'relation', relation: 'oneWay', target: 'api::vault.vault' } };

beforeAll(async () => {
  const schemas = await writeProject({
    types: {
      post: collection('post', 'posts', {
        title: { type: 'string' },
        category: { type: 'relation', relation: 'manyToOne', target: 'api::category.category' },
        cover: { type: 'media', multiple: false, allowedTypes: ['files', 'images'] },
      }),
      category: collection('category', 'categories', {
        name: { type: 'string' },
        note: { type: 'string', private: true },
        parent: { type: 'relation', relation: 'manyToOne', target: 'api::category.category' },
        vault: { type: 'relation', relation: 'manyToOne', target: 'api::vault.vault' },
        owner: { type: 'relation', relation: 'manyToOne', target: `${UP}.user` },
        guard: { type: 'component', component: 'shared.guard' },
        zone: { type: 'dynamiczone', components: ['shared.guard'] },
        image: { type: 'media', multiple: false, allowedTypes: ['files', 'images'] },
      }),
      vault: collection('vault', 'vaults', { code: { type: 'string' } }),
      home: collection('home', 'homes', { headline: { type: 'string' }, category: { type: 'relation', relation: 'oneWay', target: 'api::category.category' } }, { kind: 'singleType' }),
    },
    components: { 'shared.guard': { attributes: guard } },
  });
  server = await startTestServer({ schemas });
  admin = await server.token('full-access');
  const [file] = await json<FileObject[]>(await postUpload(server, admin, [fixturePart('notes.txt')]), 201);
  const user = await expectJson<{ user: { documentId: string } }>(
    await server.request('/api/auth/local/register', { method: 'POST', json: { username: 'alice', email: 'alice@example.com', password: 'alice-pass' } }),
    200,
  );
  const vault = await dataOf(await server.request('/api/vaults', { method: 'POST', token: admin, json: { data: { code: SECRET } } }), 201);
  const root = await dataOf(await server.request('/api/categories', { method: 'POST', token: admin, json: { data: { name: 'root', vault: vault.documentId } } }), 201);
  const category = await dataOf(
    await server.request('/api/categories', {
      method: 'POST',
      token: admin,
      json: {
        data: {
          name: 'news',
          note: 'hidden',
          parent: root.documentId,
          vault: vault.documentId,
          owner: user.user.documentId,
          guard: { label: 'g', vault: vault.documentId },
          zone: [{ __component: 'shared.guard', label: 'z', vault: vault.documentId }],
          image: file?.id,
        },
      },
    }),
    201,
  );
  await dataOf(await server.request('/api/posts', { method: 'POST', token: admin, json: { data: { title: 'p1', category: category.documentId, cover: file?.id } } }), 201);
  await dataOf(await server.request('/api/home', { method: 'PUT', token: admin, json: { data: { headline: 'h', category: category.documentId } } }), 200);
  await server.server.services.permissions.grant('public', ['api::post.post.find', 'api::category.category.find']);
});
afterAll(() => server.close());

const get = (path: string, query: Record<string, unknown>, token?: string) =>
  server.request(`${path}?${qs.stringify(query, { encodeValuesOnly: true })}`, token ? { token } : {});

const refused = (key: string, path: string, param: 'filters' | 'sort' | 'populate') => ({
  data: null,
  error: { status: 400, name: 'ValidationError', message: path === key ? `Invalid key ${key}` : `Invalid key ${key} at ${path}`, details: { key, path, source: 'query', param } },
});

/** A populate tree on posts whose leaf compares with `prefix`: one guess of a character-by-character probe. */
type Probe = (prefix: string) => Record<string, unknown>;
const vaultCode = (prefix: string) => ({ vault: { code: { $startsWith: prefix } } });

const PROBES: readonly [string, Probe, ReturnType<typeof refused>][] = [
  ['a relation in a populated relation\'s filters', (p) => ({ populate: { category: { filters: vaultCode(p) } } }), refused('vault', 'vault', 'filters')],
  ['users in a populated relation\'s filters', (p) => ({ populate: { category: { filters: { owner: { email: { $startsWith: p } } } } } }), refused('owner', 'owner', 'filters')],
  ['a relation in a populated relation\'s sort', () => ({ populate: { category: { sort: 'vault.code' } } }), refused('vault', 'vault', 'sort')],
  ['a relation in a populated relation\'s sort, object form', () => ({ populate: { category: { sort: { vault: { code: 'asc' } } } } }), refused('vault', 'vault', 'sort')],
  ['a count filtered through a relation', (p) => ({ populate: { category: { count: true, filters: vaultCode(p) } } }), refused('vault', 'vault', 'filters')],
  ['a relation under $or in nested filters', (p) => ({ populate: { category: { filters: { $or: [vaultCode(p), { name: 'x' }] } } } }), refused('vault', 'vault', 'filters')],
  ['a relation under $not in nested filters', (p) => ({ populate: { category: { filters: { $not: vaultCode(p) } } } }), refused('vault', 'vault', 'filters')],
  ['a relation reached through a component in nested filters', (p) => ({ populate: { category: { filters: { guard: vaultCode(p) } } } }), refused('vault', 'guard.vault', 'filters')],
  ['a relation in a populated component\'s filters', (p) => ({ populate: { category: { populate: { guard: { filters: vaultCode(p) } } } } }), refused('vault', 'vault', 'filters')],
  [
    'a relation in a dynamic-zone fragment\'s filters',
    (p) => ({ populate: { category: { populate: { zone: { on: { 'shared.guard': { filters: vaultCode(p) } } } } } } }),
    refused('vault', 'vault', 'filters'),
  ],
  ['a relation two populate levels down', (p) => ({ populate: { category: { populate: { parent: { filters: vaultCode(p) } } } } }), refused('vault', 'vault', 'filters')],
  ['a relation two levels down, sorted', () => ({ populate: { category: { populate: { parent: { sort: ['vault.code:desc'] } } } } }), refused('vault', 'vault', 'sort')],
];

describe('filters, sort and count nested in populate, for a caller who may not find the relation they traverse', () => {
  it.each(PROBES)('refuse %s with the root\'s 400, the same for a match and a miss', async (_name, probe, expected) => {
    const match = await expectJson(await get('/api/posts', probe(SECRET.slice(0, 2))), 400);
    const miss = await expectJson(await get('/api/posts', probe('ZZ')), 400);
    expect(match).toEqual(expected);
    expect(miss).toEqual(expected);
  });

  it('are refused by the same check as root filters and sorts', async () => {
    expect(await expectJson(await get('/api/posts', { filters: { category: vaultCode('S3') } }), 400)).toEqual(refused('vault', 'category.vault', 'filters'));
    expect(await expectJson(await get('/api/posts', { sort: 'category.vault.code' }), 400)).toEqual(refused('vault', 'category.vault', 'sort'));
    expect(await expectJson(await get('/api/categories', { filters: vaultCode('S3') }), 400)).toEqual(refused('vault', 'vault', 'filters'));
  });

  it('are refused the same way for an API token that lacks the find action', async () => {
    const token = await server.token('custom', ['api::post.post.find', 'api::category.category.find']);
    expect(await expectJson(await get('/api/posts', { populate: { category: { filters: vaultCode('S3') } } }, token), 400)).toEqual(refused('vault', 'vault', 'filters'));
  });

  it('are refused in the populate of a single-type write, whose query is otherwise not validated', async () => {
    const token = await server.token('custom', ['api::home.home.update', 'api::category.category.find']);
    const put = (prefix: string) =>
      server.request(`/api/home?${qs.stringify({ populate: { category: { filters: vaultCode(prefix) } } }, { encodeValuesOnly: true })}`, {
        method: 'PUT',
        token,
        json: { data: { headline: 'h' } },
      });
    expect(await expectJson(await put('S3'), 400)).toEqual(refused('vault', 'vault', 'filters'));
    expect(await expectJson(await put('ZZ'), 400)).toEqual(refused('vault', 'vault', 'filters'));
  });
});

describe('the same nested filters, for a caller who may find every type they traverse', () => {
  it('match and miss as filters do', async () => {
    const token = await server.token('custom', ['api::post.post.find', 'api::category.category.find', 'api::vault.vault.find', `${UP}.user.find`]);
    const category = async (query: Record<string, unknown>) =>
      (await expectJson<{ data: { category: unknown }[] }>(await get('/api/posts', { fields: ['title'], ...query }, token), 200)).data[0]?.category;
    expect(await category({ populate: { category: { fields: ['name'], filters: vaultCode('S3') } } })).toMatchObject({ name: 'news' });
    expect(await category({ populate: { category: { fields: ['name'], filters: vaultCode('ZZ') } } })).toBeNull();
    expect(await category({ populate: { category: { fields: ['name'], filters: { owner: { email: { $startsWith: 'a' } } } } } })).toMatchObject({ name: 'news' });
    expect(await category({ populate: { category: { fields: ['name'], filters: { guard: vaultCode('S3') } } } })).toMatchObject({ name: 'news' });
    expect(await category({ populate: { category: { fields: ['name'], sort: 'vault.code' } } })).toMatchObject({ name: 'news' });
  });
});

describe('media fields in nested filters', () => {
  it('answer as at the root: file attributes filter, with no permission of their own (as populate), and private ones are refused', async () => {
    const names = async (query: Record<string, unknown>) =>
      (await expectJson<{ data: { title: string; category: { name: string } | null }[] }>(await get('/api/posts', { fields: ['title'], ...query }), 200)).data.map(
        (d) => d.category?.name ?? null,
      );
    const atRoot = async (name: string) => (await expectJson<{ data: unknown[] }>(await get('/api/posts', { filters: { cover: { name: { $eq: name } } } }), 200)).data.length;
    expect(await atRoot('notes.txt')).toBe(1);
    expect(await atRoot('other.txt')).toBe(0);
    expect(await names({ populate: { category: { fields: ['name'], filters: { image: { name: { $eq: 'notes.txt' } } } } } })).toEqual(['news']);
    expect(await names({ populate: { category: { fields: ['name'], filters: { image: { name: { $eq: 'other.txt' } } } } } })).toEqual([null]);
    expect(await expectJson(await get('/api/posts', { filters: { cover: { folderPath: { $eq: '/' } } } }), 400)).toEqual(refused('folderPath', 'cover.folderPath', 'filters'));
    expect(await expectJson(await get('/api/posts', { populate: { category: { filters: { image: { folderPath: { $eq: '/' } } } } } }), 400)).toEqual(
      refused('folderPath', 'image.folderPath', 'filters'),
    );
    expect(await expectJson(await get('/api/posts', { populate: { category: { populate: { image: { filters: { folderPath: { $eq: '/' } } } } } } }), 400)).toEqual(
      refused('folderPath', 'folderPath', 'filters'),
    );
  });
});

describe('private attributes in nested filters and sorts', () => {
  it('stay refused, whoever asks', async () => {
    expect(await expectJson(await get('/api/posts', { populate: { category: { filters: { note: { $eq: 'hidden' } } } } }), 400)).toEqual(refused('note', 'note', 'filters'));
    expect(await expectJson(await get('/api/posts', { populate: { category: { sort: 'note' } } }, admin), 400)).toEqual(refused('note', 'note', 'sort'));
  });
});

describe('a nested populate=* reaching relations the caller may not find', () => {
  type Category = Record<string, unknown>;
  const category = async (populate: Record<string, unknown>, token?: string): Promise<Category> => {
    const { data } = await expectJson<{ data: { category: Category }[] }>(await get('/api/posts', { fields: ['title'], populate: { category: populate } }, token), 200);
    return data[0]?.category ?? {};
  };
  const guardEntry = { id: expect.any(Number), label: 'g' };
  const zoneEntry = { __component: 'shared.guard', id: expect.any(Number), label: 'z' };

  it('leaves them out as the root populate=* does, one level below', async () => {
    const star = await category({ populate: '*' });
    expect(Object.keys(star).filter((k) => typeof star[k] === 'object').sort()).toEqual(['guard', 'image', 'parent', 'zone']);
    expect(star).toMatchObject({ name: 'news', parent: { name: 'root' }, guard: guardEntry, zone: [zoneEntry], image: { name: 'notes.txt' } });
    const root = await expectJson<{ data: Category[] }>(await get('/api/categories', { populate: '*', filters: { name: 'news' } }), 200);
    expect(Object.keys(root.data[0] ?? {})).toEqual(Object.keys(star));
  });

  it('leaves them out at any depth, through relations, components and dynamic zones', async () => {
    expect((await category({ populate: { parent: { populate: '*' } } })).parent).not.toHaveProperty('vault');
    expect((await category({ populate: { guard: { populate: '*' } } })).guard).toEqual(guardEntry);
    expect((await category({ populate: { zone: { populate: '*' } } })).zone).toEqual([zoneEntry]);
    expect((await category({ populate: { zone: { on: { 'shared.guard': { populate: '*' } } } } })).zone).toEqual([zoneEntry]);
  });

  it('leaves them out in the populate of a single-type write too', async () => {
    const token = await server.token('custom', ['api::home.home.update', 'api::category.category.find']);
    const res = await server.request(`/api/home?${qs.stringify({ populate: { category: { populate: '*' } } }, { encodeValuesOnly: true })}`, {
      method: 'PUT',
      token,
      json: { data: { headline: 'h' } },
    });
    const { data } = await expectJson<{ data: { category: Category } }>(res, 200);
    expect(data.category).toMatchObject({ name: 'news', guard: guardEntry });
    expect(data.category).not.toHaveProperty('vault');
    expect(data.category).not.toHaveProperty('owner');
  });

  it('still refuses them when they are named, at any depth', async () => {
    expect(await expectJson(await get('/api/posts', { populate: { category: { populate: { vault: true } } } }), 400)).toEqual(refused('vault', 'category.vault', 'populate'));
    expect(await expectJson(await get('/api/posts', { populate: { category: { populate: { guard: { populate: { vault: true } } } } } }), 400)).toEqual(
      refused('vault', 'category.guard.vault', 'populate'),
    );
    expect(await expectJson(await get('/api/posts', { populate: { category: { populate: { owner: { populate: '*' } } } } }), 400)).toEqual(refused('owner', 'category.owner', 'populate'));
  });

  it('populates them for a caller who may find them', async () => {
    const token = await server.token('custom', ['api::post.post.find', 'api::category.category.find', 'api::vault.vault.find']);
    const star = await category({ populate: '*' }, token);
    expect(star).toMatchObject({ vault: { code: SECRET }, guard: guardEntry });
    expect(star).not.toHaveProperty('owner');
    expect((await category({ populate: { guard: { populate: '*' } } }, token)).guard).toEqual({ ...guardEntry, vault: expect.objectContaining({ code: SECRET }) });
  });
});
