import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { collection, expectJson, writeProject } from '../helpers/project.js';
import { adminRequest, registerOwner, UNAUTHORIZED } from '../admin/helpers.js';

/**
 * The admin API's roles and permissions routes (docs/admin-api.md), through the real server:
 * `server/http/admin-roles.ts` mounted under `/admin/api` behind the admin-session check.
 */

let server: TestServer;
let admin: ReturnType<typeof adminRequest>;

beforeAll(async () => {
  const schemas = await writeProject({
    types: {
      article: collection('article', 'articles', { title: { type: 'string' } }),
      home: collection('home', 'homes', { title: { type: 'string' } }, { kind: 'singleType' }),
    },
  });
  server = await startTestServer({ schemas });
  admin = adminRequest(server, await registerOwner(server));
});
afterAll(() => server.close());

type Role = { id: number; name: string; description: string; type: string; permissions: string[] };

describe('GET /admin/api/permissions/actions', () => {
  it('lists content types, then upload, then users & permissions, with full action names', async () => {
    const { data } = await expectJson<{ data: { uid: string; displayName: string; kind: string; actions: string[] }[] }>(await admin('/admin/api/permissions/actions'), 200);
    expect(data.map((g) => [g.uid, g.kind])).toEqual([
      ['api::article.article', 'collectionType'],
      ['api::home.home', 'singleType'],
      ['plugin::upload.content-api', 'plugin'],
      ['plugin::users-permissions.auth', 'plugin'],
      ['plugin::users-permissions.user', 'plugin'],
      ['plugin::users-permissions.role', 'plugin'],
      ['plugin::users-permissions.permissions', 'plugin'],
    ]);
    expect(data[1]?.actions).toEqual(['api::home.home.find', 'api::home.home.update', 'api::home.home.delete']);
    expect(data[2]?.actions).toEqual(['find', 'findOne', 'upload', 'destroy'].map((a) => `plugin::upload.content-api.${a}`));
  });
});

describe('/admin/api/roles', () => {
  it('lists public, authenticated, then custom roles with their user counts', async () => {
    const { data } = await expectJson<{ data: Record<string, unknown>[] }>(await admin('/admin/api/roles'), 200);
    expect(data).toEqual([
      { id: expect.any(Number), name: 'Public', description: 'Default role given to unauthenticated user.', type: 'public', nb_users: 0 },
      { id: expect.any(Number), name: 'Authenticated', description: 'Default role given to authenticated user.', type: 'authenticated', nb_users: 0 },
    ]);
  });

  it('creates a custom role (201), reads, replaces its permissions, and deletes it', async () => {
    const created = await expectJson<{ data: Role }>(
      await admin('/admin/api/roles', { method: 'POST', json: { name: 'Editors', description: 'They write', permissions: ['api::article.article.create'] } }),
      201,
    );
    expect(created.data).toEqual({ id: expect.any(Number), name: 'Editors', description: 'They write', type: 'editors', permissions: ['api::article.article.create'] });
    const id = created.data.id;
    expect(await expectJson(await admin(`/admin/api/roles/${id}`), 200)).toEqual(created);
    const updated = await expectJson<{ data: Role }>(
      await admin(`/admin/api/roles/${id}`, { method: 'PUT', json: { permissions: ['api::article.article.find', 'plugin::upload.content-api.upload'] } }),
      200,
    );
    expect(updated.data).toEqual({ ...created.data, permissions: ['api::article.article.find', 'plugin::upload.content-api.upload'] });
    expect(await expectJson(await admin(`/admin/api/roles/${id}`, { method: 'DELETE' }), 200)).toEqual(updated);
    expect(await expectJson(await admin(`/admin/api/roles/${id}`), 404)).toEqual({ data: null, error: { status: 404, name: 'NotFoundError', message: 'Role not found', details: {} } });
  });

  it('refuses unknown action names, naming them, and the deletion of a built-in role', async () => {
    expect(await expectJson(await admin('/admin/api/roles', { method: 'POST', json: { name: 'Bad', permissions: ['api::nope.nope.find'] } }), 400)).toEqual({
      data: null,
      error: {
        status: 400,
        name: 'ValidationError',
        message: 'Unknown action: api::nope.nope.find',
        details: { errors: [{ path: ['permissions', 0], message: 'Unknown action: api::nope.nope.find', name: 'ValidationError' }] },
      },
    });
    const { data } = await expectJson<{ data: Role[] }>(await admin('/admin/api/roles'), 200);
    const publicId = data.find((r) => r.type === 'public')?.id;
    expect(await expectJson(await admin(`/admin/api/roles/${publicId}`, { method: 'DELETE' }), 400)).toEqual({
      data: null,
      error: { status: 400, name: 'ApplicationError', message: 'Cannot delete public role', details: {} },
    });
  });

  it('grants the role\'s users exactly its permissions on the content API', async () => {
    const role = (await expectJson<{ data: Role }>(await admin('/admin/api/roles', { method: 'POST', json: { name: 'Readers', permissions: ['api::article.article.find'] } }), 201)).data;
    const { user } = await expectJson<{ user: { id: number } }>(
      await server.request('/api/auth/local/register', { method: 'POST', json: { username: 'rea', email: 'rea@example.com', password: 'reader-pass' } }),
      200,
    );
    await server.server.services.users.roles.assign(user.id, role.id);
    const { jwt } = await expectJson<{ jwt: string }>(await server.request('/api/auth/local', { method: 'POST', json: { identifier: 'rea', password: 'reader-pass' } }), 200);
    await expectJson(await server.request('/api/articles', { token: jwt }), 200);
    expect(await expectJson(await server.request('/api/users/me', { token: jwt }), 403)).toMatchObject({ error: { status: 403 } });
  });

  it('is closed without an admin session, and to user JWTs', async () => {
    expect(await expectJson(await server.request('/admin/api/roles'), 401)).toEqual(UNAUTHORIZED);
    const { jwt } = await expectJson<{ jwt: string }>(
      await server.request('/api/auth/local/register', { method: 'POST', json: { username: 'outsider', email: 'out@example.com', password: 'outsider-pass' } }),
      200,
    );
    expect(await expectJson(await server.request('/admin/api/roles', { token: jwt }), 401)).toEqual(UNAUTHORIZED);
  });
});
