import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveSecrets } from '../../server/auth/secrets.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { collection, expectJson, writeProject } from '../helpers/project.js';

/**
 * Users as a content type: relations from content types to users, populate gated by the role's
 * `find`, the `/api/users*` and roles routes, and no secret in any answer or log line.
 */

let server: TestServer;
let jwt = '';
let userId = 0;
let userDocumentId = '';
const bodies: string[] = [];

const UP = 'plugin::users-permissions';

/** Every answer of this file is kept, to check none of them holds a secret. */
async function call(path: string, init: RequestInit & { token?: string; json?: unknown } = {}): Promise<Response> {
  const res = await server.request(path, init);
  const text = await res.text();
  bodies.push(`${[...res.headers].map(([k, v]) => `${k}: ${v}`).join('\n')}\n${text}`);
  return new Response(text === '' ? null : text, { status: res.status, headers: res.headers });
}

beforeAll(async () => {
  const schemas = await writeProject({
    types: {
      article: collection('article', 'articles', {
        title: { type: 'string' },
        author: { type: 'relation', relation: 'manyToOne', target: `${UP}.user` },
      }),
    },
  });
  server = await startTestServer({ schemas });
  const registered = await expectJson<{ user: { id: number; documentId: string } }>(
    await call('/api/auth/local/register', { method: 'POST', json: { username: 'writer', email: 'writer@example.com', password: 'writer-pass' } }),
    200,
  );
  userId = registered.user.id;
  userDocumentId = registered.user.documentId;
  await call('/api/auth/local/register', { method: 'POST', json: { username: 'reader', email: 'reader@example.com', password: 'reader-pass' } });
  jwt = (await expectJson<{ jwt: string }>(await call('/api/auth/local', { method: 'POST', json: { identifier: 'writer', password: 'writer-pass' } }), 200)).jwt;
  const admin = await server.token('full-access');
  await expectJson(await call('/api/articles', { method: 'POST', token: admin, json: { data: { title: 'By writer', author: userDocumentId } } }), 201);
  await server.server.services.permissions.grant('authenticated', ['api::article.article.find']);
});
afterAll(() => server.close());

describe('relations to users', () => {
  it('are left out of populate=* and refused by name while the role may not find users', async () => {
    const star = await expectJson<{ data: Record<string, unknown>[] }>(await call('/api/articles?populate=*', { token: jwt }), 200);
    expect(star.data).toHaveLength(1);
    expect(star.data[0]).not.toHaveProperty('author');
    expect(await expectJson(await call('/api/articles?populate=author', { token: jwt }), 400)).toMatchObject({ error: { name: 'ValidationError', message: 'Invalid key author' } });
  });

  it('are populated, without private fields, once the role may find users', async () => {
    await server.server.services.permissions.grant('authenticated', [`${UP}.user.find`]);
    const { data } = await expectJson<{ data: Record<string, unknown>[] }>(await call('/api/articles?populate=author', { token: jwt }), 200);
    expect(data[0]?.author).toEqual({
      id: userId,
      documentId: userDocumentId,
      username: 'writer',
      email: 'writer@example.com',
      provider: 'local',
      confirmed: true,
      blocked: false,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      publishedAt: expect.any(String),
    });
    const filtered = await expectJson<{ data: unknown[] }>(await call('/api/articles?filters[author][username][$eq]=writer', { token: jwt }), 200);
    expect(filtered.data).toHaveLength(1);
  });
});

describe('/api/users', () => {
  it('lists users as a bare array, with filters, sort and fields', async () => {
    const all = await expectJson<Record<string, unknown>[]>(await call('/api/users?sort=username:asc', { token: jwt }), 200);
    expect(all.map((u) => u.username)).toEqual(['reader', 'writer']);
    const some = await expectJson<Record<string, unknown>[]>(await call('/api/users?filters[email][$startsWith]=read&fields[0]=username', { token: jwt }), 200);
    expect(some).toEqual([{ id: expect.any(Number), documentId: expect.any(String), username: 'reader' }]);
  });

  it('refuses private fields in filters, sort and fields', async () => {
    for (const query of ['filters[password][$null]=false', 'sort=resetPasswordToken', 'fields[0]=password']) {
      expect(await expectJson(await call(`/api/users?${query}`, { token: jwt }), 400)).toMatchObject({ error: { name: 'ValidationError' } });
    }
  });

  it('populates role only for roles that may find roles', async () => {
    expect(await expectJson(await call('/api/users?populate=role', { token: jwt }), 400)).toMatchObject({ error: { message: 'Invalid key role' } });
    await server.server.services.permissions.grant('authenticated', [`${UP}.role.find`]);
    const users = await expectJson<Record<string, unknown>[]>(await call('/api/users?populate=role&filters[username]=writer', { token: jwt }), 200);
    expect(users[0]?.role).toMatchObject({ name: 'Authenticated', type: 'authenticated', description: 'Default role given to authenticated user.' });
  });

  it('reads one user by id (204 when there is none) and counts them, per permission', async () => {
    expect(await expectJson(await call(`/api/users/${userId}`, { token: jwt }), 403)).toMatchObject({ error: { status: 403 } });
    expect(await expectJson(await call('/api/users/count', { token: jwt }), 403)).toMatchObject({ error: { status: 403 } });
    await server.server.services.permissions.grant('authenticated', [`${UP}.user.findOne`, `${UP}.user.count`]);
    expect(await expectJson(await call(`/api/users/${userId}`, { token: jwt }), 200)).toMatchObject({ username: 'writer' });
    const missing = await call('/api/users/99999', { token: jwt });
    expect(missing.status).toBe(204);
    expect(await missing.text()).toBe('');
    expect(await expectJson(await call('/api/users/count', { token: jwt }), 200)).toBe(2);
    expect(await expectJson(await call('/api/users/count?filters[username]=writer', { token: jwt }), 200)).toBe(1);
  });

  it('/api/users/me takes populate like Strapi', async () => {
    const me = await expectJson<Record<string, unknown>>(await call('/api/users/me?populate=role', { token: jwt }), 200);
    expect(me).toMatchObject({ username: 'writer', role: { type: 'authenticated' } });
  });
});

describe('/api/users-permissions/roles', () => {
  it('lists roles with their user counts', async () => {
    const { roles } = await expectJson<{ roles: Record<string, unknown>[] }>(await call(`/api/users-permissions/roles`, { token: jwt }), 200);
    expect(roles.map((r) => [r.type, r.nb_users])).toEqual([
      ['public', 0],
      ['authenticated', 2],
    ]);
  });

  it('shows one role with Strapi\'s nested permissions map', async () => {
    await server.server.services.permissions.grant('authenticated', [`${UP}.role.findOne`]);
    const { roles } = await expectJson<{ roles: { id: number; type: string }[] }>(await call(`/api/users-permissions/roles`, { token: jwt }), 200);
    const id = roles.find((r) => r.type === 'authenticated')?.id;
    const { role } = await expectJson<{ role: { permissions: Record<string, { controllers: Record<string, Record<string, { enabled: boolean }>> }> } }>(
      await call(`/api/users-permissions/roles/${id}`, { token: jwt }),
      200,
    );
    expect(role.permissions['api::article']?.controllers.article).toEqual({
      find: { enabled: true, policy: '' },
      findOne: { enabled: false, policy: '' },
      create: { enabled: false, policy: '' },
      update: { enabled: false, policy: '' },
      delete: { enabled: false, policy: '' },
    });
    expect(role.permissions['plugin::users-permissions']?.controllers.user?.me).toEqual({ enabled: true, policy: '' });
    expect(await expectJson(await call('/api/users-permissions/roles/999', { token: jwt }), 404)).toMatchObject({ error: { name: 'NotFoundError' } });
  });
});

describe('managing users on the content API', () => {
  type User = { id: number; documentId: string; username: string; email: string; provider: string; confirmed: boolean; blocked: boolean; role?: { type: string } };
  const login = (identifier: string, password: string) => call('/api/auth/local', { method: 'POST', json: { identifier, password } });

  it('creates a user with POST /api/users (201, lower-cased email, role shown, no password), who can then log in', async () => {
    const admin = await server.token('full-access');
    const roles = (await expectJson<{ roles: { id: number; type: string }[] }>(await call('/api/users-permissions/roles', { token: admin }), 200)).roles;
    const authenticated = roles.find((r) => r.type === 'authenticated');
    const created = await expectJson<User>(
      await call('/api/users', { method: 'POST', token: admin, json: { username: 'editor', email: 'Editor@Example.com', password: 'editor-pass', role: authenticated?.id, resetPasswordToken: 'planted', provider: 'github' } }),
      201,
    );
    expect(created).toMatchObject({ username: 'editor', email: 'editor@example.com', provider: 'local', confirmed: true, blocked: false, role: { type: 'authenticated' } });
    expect(JSON.stringify(created)).not.toContain('editor-pass');
    const stored = await server.server.services.database.db.selectFrom('up_users').select(['provider', 'resetPasswordToken']).where('id', '=', created.id).executeTakeFirstOrThrow();
    expect(stored).toEqual({ provider: 'local', resetPasswordToken: null });
    await expectJson(await login('editor', 'editor-pass'), 200);
  });

  it('answers Strapi\'s validation and uniqueness errors, and 403 without the create permission', async () => {
    const admin = await server.token('full-access');
    const missing = await expectJson<{ error: { message: string; details: { errors: { path: string[] }[] } } }>(await call('/api/users', { method: 'POST', token: admin, json: {} }), 400);
    expect(missing.error.message).toBe('4 errors occurred');
    expect(missing.error.details.errors.map((e) => e.path.join('.')).sort()).toEqual(['email', 'password', 'role', 'username']);
    const role = { connect: [{ id: 999 }] };
    expect(await expectJson(await call('/api/users', { method: 'POST', token: admin, json: { username: 'x', email: 'x@example.com', password: 'x-password', role } }), 400)).toMatchObject({ error: { name: 'ValidationError', message: 'Role with id "999" not found' } });
    expect(await expectJson(await call('/api/users', { method: 'POST', token: admin, json: { username: 'other', email: 'EDITOR@example.com', password: 'other-pass', role: { connect: [{ id: 1 }] } } }), 400)).toMatchObject({
      error: { name: 'ApplicationError', message: 'Email already taken' },
    });
    expect(await expectJson(await call('/api/users', { method: 'POST', token: admin, json: { username: 'editor', email: 'new@example.com', password: 'other-pass', role: 1 } }), 400)).toMatchObject({
      error: { name: 'ApplicationError', message: 'Username already taken' },
    });
    expect((await call('/api/users', { method: 'POST', token: jwt, json: { username: 'y', email: 'y@example.com', password: 'y-password', role: 1 } })).status).toBe(403);
  });

  it('updates a user with PUT /api/users/:id: names, blocking, a new password (404 for an unknown id)', async () => {
    const admin = await server.token('full-access');
    const [editor] = await expectJson<User[]>(await call('/api/users?filters[username][$eq]=editor', { token: admin }), 200);
    if (!editor) throw new Error('editor not found');
    const renamed = await expectJson<User>(await call(`/api/users/${editor.id}`, { method: 'PUT', token: admin, json: { username: 'chief-editor', password: 'chief-pass' } }), 200);
    expect(renamed).toMatchObject({ id: editor.id, username: 'chief-editor', email: 'editor@example.com', role: { type: 'authenticated' } });
    expect((await login('editor', 'editor-pass')).status).toBe(400);
    await expectJson(await login('chief-editor', 'chief-pass'), 200);
    await expectJson(await call(`/api/users/${editor.id}`, { method: 'PUT', token: admin, json: { blocked: true } }), 200);
    expect(await expectJson(await login('chief-editor', 'chief-pass'), 400)).toMatchObject({ error: { message: 'Your account has been blocked by an administrator' } });
    expect(await expectJson(await call(`/api/users/${editor.id}`, { method: 'PUT', token: admin, json: { username: 'writer' } }), 400)).toMatchObject({ error: { message: 'Username already taken' } });
    expect(await expectJson(await call('/api/users/99999', { method: 'PUT', token: admin, json: { username: 'ghost' } }), 404)).toMatchObject({ error: { name: 'NotFoundError', message: 'User not found' } });
  });

  it('deletes a user with DELETE /api/users/:id (200 with the user, then 204)', async () => {
    const admin = await server.token('full-access');
    const [editor] = await expectJson<User[]>(await call('/api/users?filters[username][$eq]=chief-editor', { token: admin }), 200);
    if (!editor) throw new Error('chief-editor not found');
    expect(await expectJson<User>(await call(`/api/users/${editor.id}`, { method: 'DELETE', token: admin }), 200)).toMatchObject({ id: editor.id, username: 'chief-editor' });
    expect((await call(`/api/users/${editor.id}`, { method: 'DELETE', token: admin })).status).toBe(204);
    expect((await call(`/api/users/${editor.id}`, { token: admin })).status).toBe(204);
    expect((await login('chief-editor', 'chief-pass')).status).toBe(400);
  });
});

describe('secrets', () => {
  it('no password hash, reset code, signing secret or token salt appears in any answer or log line', async () => {
    const code = await server.server.services.users.accounts.issueResetCode(userId);
    await expectJson(await call('/api/auth/reset-password', { method: 'POST', json: { code, password: 'writer-pass-2', passwordConfirmation: 'writer-pass-2' } }), 200);
    await expectJson(await call('/api/auth/reset-password', { method: 'POST', json: { code, password: 'writer-pass-3', passwordConfirmation: 'writer-pass-3' } }), 400);
    // Where the server found them: secrets.json on SQLite, the database on PostgreSQL (resolving again changes nothing).
    const { services } = server.server;
    const secrets = await resolveSecrets({ database: services.database, dataDir: server.dataDir, settings: services.config.secrets });
    const rows = await server.server.services.database.db.selectFrom('up_users').select(['password', 'resetPasswordToken']).execute();
    const hashes = rows.map((r) => String(r.password));
    expect(hashes.every((h) => h.startsWith('scrypt$'))).toBe(true);
    const forbidden = [...Object.values(secrets), ...hashes, code, 'scrypt$', 'writer-pass', 'reader-pass', 'editor-pass', 'chief-pass'];
    expect(bodies.length).toBeGreaterThan(15);
    for (const text of [...bodies, ...server.logs]) {
      for (const secret of forbidden) expect(text).not.toContain(secret);
    }
  });
});
