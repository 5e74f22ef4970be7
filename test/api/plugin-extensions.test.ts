import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropDatabaseFor } from '../helpers/database.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { collection, expectJson, writeProject } from '../helpers/project.js';
import { STRAPI_USER_ATTRIBUTES, userExtension } from '../helpers/strapi-plugin-schemas.js';

/**
 * Strapi's documented way to extend a plugin type: `src/extensions/users-permissions/content-types/user/schema.json`
 * holds the whole user schema plus the project's attributes (here FoodAdvisor's pattern: `reviews`
 * back to a review's `author`, `job`, `picture`). The extension replaces the plugin's schema, as
 * Strapi's `applyUserExtension` does, and its attributes are served everywhere users are.
 */

const UP = 'plugin::users-permissions';

const EXTENDED_USER = userExtension({
  ...STRAPI_USER_ATTRIBUTES,
  reviews: { type: 'relation', relation: 'oneToMany', target: 'api::review.review', mappedBy: 'author' },
  picture: { allowedTypes: ['images', 'files', 'videos'], type: 'media', multiple: false },
  job: { type: 'string', required: true },
  level: { type: 'integer', default: 1 },
  vegetarian: { type: 'boolean', default: true },
  motto: { type: 'string', default: 'Bon appétit' },
});

/** Strapi's role schema as an extension copies it, with the permissions relation Hearth keeps its own way. */
const EXTENDED_ROLE = {
  kind: 'collectionType',
  collectionName: 'up_roles',
  info: { name: 'role', description: '', singularName: 'role', pluralName: 'roles', displayName: 'Role' },
  pluginOptions: { 'content-manager': { visible: false } },
  attributes: {
    name: { type: 'string', minLength: 3, required: true, configurable: false },
    description: { type: 'string', configurable: false },
    type: { type: 'string', unique: true, configurable: false },
    permissions: { type: 'relation', relation: 'oneToMany', target: `${UP}.permission`, mappedBy: 'role', configurable: false },
    users: { type: 'relation', relation: 'oneToMany', target: `${UP}.user`, mappedBy: 'role', configurable: false },
    badge: { type: 'string' },
    rank: { type: 'integer', default: 5 },
  },
};

async function writeExtension(root: string, name: string, schema: unknown): Promise<void> {
  const dir = join(root, 'src', 'extensions', 'users-permissions', 'content-types', name);
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'schema.json'), JSON.stringify(schema, null, 2));
}

async function projectWith(user: unknown, role?: unknown): Promise<string> {
  const root = await writeProject({
    types: {
      review: collection('review', 'reviews', {
        content: { type: 'text' },
        author: { type: 'relation', relation: 'manyToOne', target: `${UP}.user`, inversedBy: 'reviews' },
      }),
    },
  });
  await writeExtension(root, 'user', user);
  if (role !== undefined) await writeExtension(root, 'role', role);
  return root;
}

type User = Record<string, unknown> & { id: number; documentId: string };

describe('an extended users-permissions user', () => {
  let server: TestServer;
  let dataDir = '';
  let admin = '';
  let chef: User;
  let pictureId = 0;
  const reviewIds: { id: number; documentId: string }[] = [];

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'hearth-extensions-'));
    server = await startTestServer({ schemas: await projectWith(EXTENDED_USER, EXTENDED_ROLE), dataDir });
    admin = await server.token('full-access');
    const form = new FormData();
    form.append('files', new Blob(['a picture'], { type: 'text/plain' }), 'chef.txt');
    const [file] = await expectJson<{ id: number }[]>(await server.request('/api/upload', { method: 'POST', token: admin, body: form }), 201);
    pictureId = file?.id ?? 0;
    for (const content of ['Great soup', 'Fine bread']) {
      const { data } = await expectJson<{ data: { id: number; documentId: string } }>(
        await server.request('/api/reviews', { method: 'POST', token: admin, json: { data: { content } } }),
        201,
      );
      reviewIds.push({ id: data.id, documentId: data.documentId });
    }
    const { roles } = await expectJson<{ roles: { id: number; type: string }[] }>(await server.request('/api/users-permissions/roles', { token: admin }), 200);
    const role = roles.find((r) => r.type === 'authenticated')?.id;
    chef = await expectJson<User>(
      await server.request('/api/users', {
        method: 'POST',
        token: admin,
        json: { username: 'chef', email: 'Chef@example.com', password: 'chef-pass', role, job: 'cook', picture: pictureId, reviews: [reviewIds[0]?.id] },
      }),
      201,
    );
  });
  afterAll(async () => {
    await server.close();
    await rm(dataDir, { recursive: true, force: true });
    await dropDatabaseFor(dataDir);
  });

  it('is created through POST /api/users with the extension attributes', () => {
    expect(chef).toMatchObject({ username: 'chef', email: 'chef@example.com', job: 'cook', role: { type: 'authenticated' } });
    expect(chef).not.toHaveProperty('password');
  });

  it('lists and reads the extra attributes, and populates its relations and media', async () => {
    const list = await expectJson<User[]>(await server.request('/api/users?populate[0]=reviews&populate[1]=picture', { token: admin }), 200);
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ job: 'cook', picture: { id: pictureId, name: 'chef.txt' }, reviews: [{ content: 'Great soup' }] });
    const one = await expectJson<User>(await server.request(`/api/users/${chef.id}?fields[0]=job&populate=reviews`, { token: admin }), 200);
    expect(one).toEqual({ id: chef.id, documentId: chef.documentId, job: 'cook', reviews: [expect.objectContaining({ id: reviewIds[0]?.id, content: 'Great soup' })] });
    const filtered = await expectJson<User[]>(await server.request('/api/users?filters[job][$eq]=cook', { token: admin }), 200);
    expect(filtered.map((u) => u.username)).toEqual(['chef']);
  });

  it('is populated from the review, with its extra attributes, and the review from it', async () => {
    const { data } = await expectJson<{ data: Record<string, unknown>[] }>(await server.request('/api/reviews?populate=author&sort=id', { token: admin }), 200);
    expect(data.map((r) => (r.author as User | null)?.job ?? null)).toEqual(['cook', null]);
    const deep = await expectJson<{ data: Record<string, unknown>[] }>(
      await server.request('/api/reviews?populate[author][populate][0]=picture&sort=id', { token: admin }),
      200,
    );
    expect(deep.data[0]?.author).toMatchObject({ job: 'cook', picture: { id: pictureId } });
  });

  it('updates the extra attributes through PUT /api/users/:id, relations by documentId too', async () => {
    const updated = await expectJson<User>(
      await server.request(`/api/users/${chef.id}`, { method: 'PUT', token: admin, json: { job: 'head chef', reviews: { connect: [reviewIds[1]?.documentId] } } }),
      200,
    );
    expect(updated).toMatchObject({ job: 'head chef', role: { type: 'authenticated' } });
    const one = await expectJson<User>(await server.request(`/api/users/${chef.id}?populate=reviews`, { token: admin }), 200);
    expect((one.reviews as { content: string }[]).map((r) => r.content)).toEqual(['Great soup', 'Fine bread']);
  });

  it('refuses a bad extra value or a related id that does not exist, writing nothing', async () => {
    const bad = await expectJson(await server.request(`/api/users/${chef.id}`, { method: 'PUT', token: admin, json: { reviews: [9999] } }), 400);
    expect(bad).toMatchObject({ data: null, error: { status: 400, name: 'ValidationError', message: '1 relation(s) of type api::review.review associated with this entity do not exist' } });
    const one = await expectJson<User>(await server.request(`/api/users/${chef.id}`, { token: admin }), 200);
    expect(one.job).toBe('head chef');
  });

  it('serves /api/users/me with the extra attributes to the user', async () => {
    await server.server.services.permissions.grant('authenticated', [`${UP}.user.me`, 'api::review.review.find']);
    const { jwt } = await expectJson<{ jwt: string }>(await server.request('/api/auth/local', { method: 'POST', json: { identifier: 'chef', password: 'chef-pass' } }), 200);
    const me = await expectJson<User>(await server.request('/api/users/me?populate=reviews', { token: jwt }), 200);
    expect(me).toMatchObject({ username: 'chef', job: 'head chef', reviews: [{ content: 'Great soup' }, { content: 'Fine bread' }] });
  });

  it('registers without the extension attributes (Strapi writes register bodies unchecked by them)', async () => {
    const res = await server.request('/api/auth/local/register', { method: 'POST', json: { username: 'guest', email: 'guest@example.com', password: 'guest-pass' } });
    const { user } = await expectJson<{ user: User }>(res, 200);
    expect(user).toMatchObject({ username: 'guest', job: null });
  });

  it('fills the defaults of extra attributes left out on create, as Strapi\'s database layer does; given values and null stay', async () => {
    expect(chef).toMatchObject({ level: 1, vegetarian: true, motto: 'Bon appétit' });
    const { user } = await expectJson<{ user: User }>(
      await server.request('/api/auth/local/register', { method: 'POST', json: { username: 'diner', email: 'diner@example.com', password: 'diner-pass' } }),
      200,
    );
    expect(user).toMatchObject({ level: 1, vegetarian: true, motto: 'Bon appétit' });
    const given = await expectJson<User>(
      await server.request('/api/users', { method: 'POST', token: admin, json: { username: 'sous', email: 'sous@example.com', password: 'sous-pass', role: (chef.role as { id: number }).id, job: 'sous-chef', level: 3, vegetarian: false, motto: null } }),
      201,
    );
    expect(given).toMatchObject({ level: 3, vegetarian: false, motto: null });
    const updated = await expectJson<User>(await server.request(`/api/users/${given.id}`, { method: 'PUT', token: admin, json: { job: 'chef de partie' } }), 200);
    expect(updated).toMatchObject({ level: 3, vegetarian: false, motto: null });
  });

  it('fills the role extension\'s defaults on the built-in roles and on a new role', async () => {
    await expectJson(await server.request('/api/users-permissions/roles', { method: 'POST', token: admin, json: { name: 'Critics', description: 'They taste', permissions: {} } }), 200);
    const { roles } = await expectJson<{ roles: { id: number; type: string }[] }>(await server.request('/api/users-permissions/roles', { token: admin }), 200);
    const critics = roles.find((r) => r.type === 'critics')?.id;
    const critic = await expectJson<User>(
      await server.request('/api/users', { method: 'POST', token: admin, json: { username: 'critic', email: 'critic@example.com', password: 'critic-pass', job: 'critic', role: critics } }),
      201,
    );
    const list = await expectJson<User[]>(await server.request(`/api/users?populate=role&filters[id][$in][0]=${chef.id}&filters[id][$in][1]=${critic.id}&sort=id`, { token: admin }), 200);
    expect(list.map((u) => u.role)).toEqual([expect.objectContaining({ type: 'authenticated', rank: 5 }), expect.objectContaining({ type: 'critics', rank: 5 })]);
  });

  it('keeps its data and serves the role extension across a restart on the same data dir', async () => {
    const schemas = await projectWith(EXTENDED_USER, EXTENDED_ROLE);
    await server.close();
    server = await startTestServer({ schemas, dataDir });
    admin = await server.token('full-access');
    const one = await expectJson<User>(await server.request(`/api/users/${chef.id}?populate=role`, { token: admin }), 200);
    expect(one).toMatchObject({ job: 'head chef', role: { type: 'authenticated', badge: null } });
  });
});

describe('an extension Hearth cannot serve', () => {
  const { provider: _provider, ...withoutProvider } = STRAPI_USER_ATTRIBUTES;
  it.each([
    ['drops a plugin attribute', userExtension({ ...withoutProvider, job: { type: 'string' } }), 'attribute "provider" is missing'],
    ['retypes a plugin attribute', userExtension({ ...STRAPI_USER_ATTRIBUTES, confirmed: { type: 'string' } }), 'attribute "confirmed" must stay as the plugin declares it'],
    ['moves the table', { ...userExtension(STRAPI_USER_ATTRIBUTES), collectionName: 'people' }, '"collectionName" must stay "up_users"'],
    ['turns on draft & publish', { ...userExtension(STRAPI_USER_ATTRIBUTES), options: { draftAndPublish: true } }, '"options.draftAndPublish" must stay false'],
  ])('refuses to start when it %s, naming the file', async (_what, schema, message) => {
    const schemas = await projectWith(schema);
    await expect(startTestServer({ schemas })).rejects.toThrow(message);
    await expect(startTestServer({ schemas })).rejects.toThrow('src/extensions/users-permissions/content-types/user/schema.json');
  });

  it('refuses the review relation without the extension, as before', async () => {
    const schemas = await writeProject({
      types: { review: collection('review', 'reviews', { author: { type: 'relation', relation: 'manyToOne', target: `${UP}.user`, inversedBy: 'reviews' } }) },
    });
    await expect(startTestServer({ schemas })).rejects.toThrow(`"${UP}.user" has no relation "reviews" back to api::review.review`);
  });
});
