import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_PROJECT, startTestServer, type TestServer } from '../helpers/server.js';
import { expectJson } from '../helpers/project.js';
import { adminRequest, registerOwner, UNAUTHORIZED } from './helpers.js';

type Json = Record<string, unknown>;
const SETTINGS = '/admin/api/users-permissions/settings';
const fieldError = (path: string[], message: string) => ({ data: null, error: { status: 400, name: 'ValidationError', message, details: { errors: [{ path, message, name: 'ValidationError' }] } } });
const applicationError = (message: string) => ({ data: null, error: { status: 400, name: 'ApplicationError', message, details: {} } });

let server: TestServer;
let admin: ReturnType<typeof adminRequest>;

/** Registers an end user through the content API; the raw response. */
const register = (name: string) => server.request('/api/auth/local/register', { method: 'POST', json: { username: name, email: `${name}@example.com`, password: 'Secret123' } });
/** The role type of an end user, read with the admin session. */
async function roleOf(id: unknown): Promise<unknown> {
  const user = await expectJson<Json & { role: Json }>(await admin(`/api/users/${String(id)}?populate=role`), 200);
  return user.role.type;
}

beforeAll(async () => {
  server = await startTestServer({ schemas: FIXTURE_PROJECT });
  admin = adminRequest(server, await registerOwner(server));
});
afterAll(() => server.close());

describe('users-permissions settings', () => {
  it('answer the defaults, and only to an admin session', async () => {
    expect(await expectJson(await admin(SETTINGS), 200)).toEqual({ data: { allowRegister: true, allowRegisterSource: 'default', defaultRole: 'authenticated' } });
    expect(await expectJson(await server.request(SETTINGS), 401)).toEqual(UNAUTHORIZED);
    expect(await expectJson(await server.request(SETTINGS, { method: 'PUT', json: { allowRegister: false } }), 401)).toEqual(UNAUTHORIZED);
  });

  it('close and reopen registration, stored in the database', async () => {
    expect(await expectJson(await admin(SETTINGS, { method: 'PUT', json: { allowRegister: false } }), 200)).toEqual({
      data: { allowRegister: false, allowRegisterSource: 'settings', defaultRole: 'authenticated' },
    });
    expect(await expectJson(await register('closed'), 400)).toEqual(applicationError('Register action is currently disabled'));
    await expectJson(await admin(SETTINGS, { method: 'PUT', json: { allowRegister: true } }), 200);
    const opened = await expectJson<{ user: Json }>(await register('opened'), 200);
    expect(await roleOf(opened.user.id)).toBe('authenticated');
  });

  it('give users who register the chosen default role', async () => {
    await expectJson(await admin('/admin/api/roles', { method: 'POST', json: { name: 'Members', permissions: ['api::article.article.find'] } }), 201);
    expect(await expectJson(await admin(SETTINGS, { method: 'PUT', json: { defaultRole: 'members' } }), 200)).toEqual({
      data: { allowRegister: true, allowRegisterSource: 'settings', defaultRole: 'members' },
    });
    const registered = await expectJson<{ user: Json }>(await register('member1'), 200);
    expect(await roleOf(registered.user.id)).toBe('members');
    const second = await expectJson<{ user: Json }>(await register('member2'), 200);
    expect(await roleOf(second.user.id)).toBe('members');
  });

  it('fall back to authenticated when the default role is deleted', async () => {
    const roles = await expectJson<{ data: Json[] }>(await admin('/admin/api/roles'), 200);
    const members = roles.data.find((r) => r.type === 'members');
    await expectJson(await admin(`/admin/api/roles/${String(members?.id)}`, { method: 'DELETE' }), 200);
    expect((await expectJson<{ data: Json }>(await admin(SETTINGS), 200)).data.defaultRole).toBe('authenticated');
    const registered = await expectJson<{ user: Json }>(await register('after-delete'), 200);
    expect(await roleOf(registered.user.id)).toBe('authenticated');
  });

  it.each([
    [{ allowRegister: 'yes' }, fieldError(['allowRegister'], 'allowRegister must be a `boolean` type')],
    [{ defaultRole: 'public' }, fieldError(['defaultRole'], 'defaultRole must be the type of a role other than public')],
    [{ defaultRole: 'nobody' }, fieldError(['defaultRole'], 'defaultRole must be the type of a role other than public')],
    [{ defaultRole: 3 }, fieldError(['defaultRole'], 'defaultRole must be the type of a role other than public')],
    [['allowRegister'], fieldError([], 'The body must be a JSON object')],
  ])('refuse %j naming the field', async (json, expected) => {
    expect(await expectJson(await admin(SETTINGS, { method: 'PUT', json }), 400)).toEqual(expected);
  });
});

describe('UP_REGISTER_ENABLED', () => {
  let envServer: TestServer;
  beforeAll(async () => {
    envServer = await startTestServer({ schemas: FIXTURE_PROJECT, env: { UP_REGISTER_ENABLED: 'false' } });
  });
  afterAll(() => envServer.close());

  it('wins over the stored choice while it is set', async () => {
    const envAdmin = adminRequest(envServer, await registerOwner(envServer));
    expect(await expectJson(await envAdmin(SETTINGS), 200)).toEqual({ data: { allowRegister: false, allowRegisterSource: 'env', defaultRole: 'authenticated' } });
    expect(await expectJson(await envAdmin(SETTINGS, { method: 'PUT', json: { allowRegister: true } }), 200)).toEqual({
      data: { allowRegister: false, allowRegisterSource: 'env', defaultRole: 'authenticated' },
    });
    const res = await envServer.request('/api/auth/local/register', { method: 'POST', json: { username: 'x1', email: 'x1@example.com', password: 'Secret123' } });
    expect(await expectJson(res, 400)).toEqual(applicationError('Register action is currently disabled'));
  });
});

describe('end users through /api/users with the admin session (the Users screen)', () => {
  it('lists, searches, counts, blocks, confirms, moves and deletes end users', async () => {
    const search = 'filters[$or][0][username][$containsi]=MEMBER&filters[$or][1][email][$containsi]=MEMBER';
    const found = await expectJson<Json[]>(await admin(`/api/users?${search}&populate=role&sort=username:asc&start=0&limit=10`), 200);
    expect(found.map((u) => u.username)).toEqual(['member1', 'member2']);
    expect(await expectJson(await admin(`/api/users/count?${search}`), 200)).toBe(2);
    const [first] = found;
    const login = () => server.request('/api/auth/local', { method: 'POST', json: { identifier: 'member1', password: 'Secret123' } });
    await expectJson(await login(), 200);

    await expectJson(await admin(`/api/users/${String(first?.id)}`, { method: 'PUT', json: { blocked: true, confirmed: false } }), 200);
    expect(await expectJson(await login(), 400)).toEqual(applicationError('Your account has been blocked by an administrator'));
    const publicRole = (await expectJson<{ data: Json[] }>(await admin('/admin/api/roles'), 200)).data.find((r) => r.type === 'public');
    const moved = await expectJson<Json & { role: Json }>(await admin(`/api/users/${String(first?.id)}?populate=role`, { method: 'PUT', json: { blocked: false, confirmed: true, role: publicRole?.id } }), 200);
    expect(moved).toMatchObject({ blocked: false, confirmed: true });
    expect(await roleOf(first?.id)).toBe('public');
    await expectJson(await login(), 200);

    await expectJson(await admin(`/api/users/${String(first?.id)}`, { method: 'DELETE' }), 200);
    expect(await expectJson(await admin(`/api/users/count?${search}`), 200)).toBe(1);
  });
});
