import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { collection, expectJson, writeProject } from '../helpers/project.js';
import { OWNER, UNAUTHORIZED } from './helpers.js';

const MINUTE = 60 * 1000;
const HOUR = 60 * MINUTE;
let clock = Date.UTC(2026, 2, 1, 9, 0, 0);
let server: TestServer;

type Session = { data: { token: string; user: Record<string, unknown> } };

beforeAll(async () => {
  const schemas = await writeProject({ types: { note: collection('note', 'notes', { text: { type: 'string' } }) } });
  server = await startTestServer({ schemas, now: () => new Date(clock) });
});
afterAll(() => server.close());

const post = (path: string, json: unknown, token?: string) => server.request(path, { method: 'POST', json, ...(token ? { token } : {}) });
const me = (token: string) => server.request('/admin/api/users/me', { token });
const login = (email: string, password: string) => post('/admin/api/login', { email, password });

describe('first run and registration', () => {
  it('answers init before and after the owner registers; a second registration is refused', async () => {
    expect(await expectJson(await server.request('/admin/api/init'), 200)).toEqual({ data: { hasAdmin: false, desktop: false } });
    expect(await expectJson(await post('/admin/api/register-admin', { ...OWNER, password: 'short' }), 400)).toEqual({
      data: null,
      error: {
        status: 400,
        name: 'ValidationError',
        message: 'password must be at least 8 characters',
        details: { errors: [{ path: ['password'], message: 'password must be at least 8 characters', name: 'ValidationError' }] },
      },
    });
    expect((await expectJson<{ error: { message: string } }>(await post('/admin/api/register-admin', { ...OWNER, password: 'alllowercase1' }), 400)).error.message).toBe(
      'password must contain at least one uppercase character',
    );
    const registered = await expectJson<Session>(await post('/admin/api/register-admin', OWNER), 201);
    expect(registered.data.user).toEqual({
      id: 1,
      email: 'owner@example.com',
      firstname: 'Olive',
      lastname: 'Owner',
      createdAt: '2026-03-01T09:00:00.000Z',
      updatedAt: '2026-03-01T09:00:00.000Z',
    });
    expect(registered.data.token).toMatch(/^hearth_s_[A-Za-z0-9_-]{43}$/);
    expect(await expectJson(await me(registered.data.token), 200)).toEqual({ data: registered.data.user });
    expect(await expectJson(await server.request('/admin/api/init'), 200)).toEqual({ data: { hasAdmin: true, desktop: false } });
    expect(await expectJson(await post('/admin/api/register-admin', { ...OWNER, email: 'second@example.com' }), 400)).toEqual({
      data: null,
      error: { status: 400, name: 'ApplicationError', message: 'You cannot register a new super admin', details: {} },
    });
  });

  it('stores only scrypt hashes of passwords and SHA-256 hashes of session tokens', async () => {
    const { data } = await expectJson<Session>(await login('owner@example.com', OWNER.password), 200);
    const db = server.server.services.database.db;
    const users = await db.selectFrom('hearth_admin_users').selectAll().execute();
    expect(JSON.stringify(users)).not.toContain(OWNER.password);
    expect(String(users[0]?.password_hash)).toMatch(/^scrypt\$16384\$8\$1\$/);
    const sessions = await db.selectFrom('hearth_admin_sessions').selectAll().execute();
    expect(JSON.stringify(sessions)).not.toContain(data.token);
    expect(sessions.every((s) => /^[0-9a-f]{64}$/.test(String(s.token_hash)))).toBe(true);
  });
});

describe('login, sessions and logout', () => {
  it('logs in with any case of the email; a wrong password or unknown email is "Invalid credentials"', async () => {
    const invalid = { data: null, error: { status: 400, name: 'ValidationError', message: 'Invalid credentials', details: {} } };
    expect(await expectJson(await login('owner@example.com', 'Wrong1234'), 400)).toEqual(invalid);
    expect(await expectJson(await login('nobody@example.com', OWNER.password), 400)).toEqual(invalid);
    const ok = await expectJson<Session>(await login('  OWNER@Example.com ', OWNER.password), 200);
    expect(ok.data.user.email).toBe('owner@example.com');
  });

  it('a session expires after 30 idle minutes, and after 12 hours however busy', async () => {
    const { data } = await expectJson<Session>(await login(OWNER.email, OWNER.password), 200);
    clock += 29 * MINUTE;
    await expectJson(await me(data.token), 200);
    clock += 29 * MINUTE;
    await expectJson(await me(data.token), 200);
    clock += 31 * MINUTE;
    expect(await expectJson(await me(data.token), 401)).toEqual(UNAUTHORIZED);
    expect(await expectJson(await me(data.token), 401)).toEqual(UNAUTHORIZED);

    const busy = (await expectJson<Session>(await login(OWNER.email, OWNER.password), 200)).data.token;
    for (let elapsed = 0; elapsed < 12 * HOUR - 20 * MINUTE; elapsed += 20 * MINUTE) {
      clock += 20 * MINUTE;
      await expectJson(await me(busy), 200);
    }
    clock += 20 * MINUTE;
    expect(await expectJson(await me(busy), 401)).toEqual(UNAUTHORIZED);
  });

  it('logout revokes the session at once: it cannot be replayed, on the admin API or the content API', async () => {
    const { data } = await expectJson<Session>(await login(OWNER.email, OWNER.password), 200);
    await expectJson(await server.request('/api/notes', { token: data.token }), 200);
    expect(await expectJson(await post('/admin/api/logout', {}, data.token), 200)).toEqual({ data: {} });
    expect(await expectJson(await me(data.token), 401)).toEqual(UNAUTHORIZED);
    expect(await expectJson(await post('/admin/api/logout', {}, data.token), 401)).toEqual(UNAUTHORIZED);
    expect(await expectJson(await server.request('/api/notes', { token: data.token }), 401)).toEqual(UNAUTHORIZED);
  });

  it('updates the profile; a new password needs the current one and ends the other sessions', async () => {
    const first = (await expectJson<Session>(await login(OWNER.email, OWNER.password), 200)).data.token;
    const other = (await expectJson<Session>(await login(OWNER.email, OWNER.password), 200)).data.token;
    const put = (json: unknown) => server.request('/admin/api/users/me', { method: 'PUT', json, token: first });
    expect((await expectJson<{ data: { firstname: string } }>(await put({ firstname: 'Olivia' }), 200)).data.firstname).toBe('Olivia');
    expect(await expectJson(await put({ password: 'NewSecret9', currentPassword: 'nope' }), 400)).toEqual({
      data: null,
      error: {
        status: 400,
        name: 'ValidationError',
        message: 'Current password is invalid',
        details: { errors: [{ path: ['currentPassword'], message: 'Current password is invalid', name: 'ValidationError' }] },
      },
    });
    await expectJson(await put({ password: 'NewSecret9', currentPassword: OWNER.password }), 200);
    await expectJson(await me(first), 200);
    expect(await expectJson(await me(other), 401)).toEqual(UNAUTHORIZED);
    await expectJson(await login(OWNER.email, 'NewSecret9'), 200);
    await expectJson(await put({ password: OWNER.password, currentPassword: 'NewSecret9' }), 200);
  });

  it('rate-limits failed logins per IP: after 10 in a minute, even a right password is 429 in the envelope', async () => {
    const limited = await startTestServer({ schemas: await writeProject({}) });
    try {
      await expectJson(await limited.request('/admin/api/register-admin', { method: 'POST', json: OWNER }), 201);
      for (let i = 0; i < 12; i++) await expectJson(await limited.request('/admin/api/login', { method: 'POST', json: OWNER }), 200);
      for (let i = 0; i < 10; i++) await expectJson(await limited.request('/admin/api/login', { method: 'POST', json: { email: 'a@b.c', password: 'Whatever1' } }), 400);
      expect(await expectJson(await limited.request('/admin/api/login', { method: 'POST', json: OWNER }), 429)).toEqual({
        data: null,
        error: { status: 429, name: 'RateLimitError', message: 'Too many requests, please try again later.', details: {} },
      });
    } finally {
      await limited.close();
    }
  });
});

describe('what opens the admin API', () => {
  it('only sessions: no header, API tokens, malformed headers and unknown tokens are 401', async () => {
    const token = await server.token('full-access');
    const variants: Record<string, string>[] = [{}, { Authorization: `Bearer ${token}` }, { Authorization: 'Bearer hearth_s_forged' }, { Authorization: 'Basic abc' }];
    for (const headers of variants) {
      expect(await expectJson(await server.request('/admin/api/users/me', { headers }), 401)).toEqual(UNAUTHORIZED);
      expect(await expectJson(await server.request('/admin/api/api-tokens', { headers }), 401)).toEqual(UNAUTHORIZED);
    }
  });

  it('a session has full access to the content and upload APIs', async () => {
    const { data } = await expectJson<Session>(await login(OWNER.email, OWNER.password), 200);
    const created = await expectJson<{ data: { documentId: string } }>(
      await server.request('/api/notes', { method: 'POST', token: data.token, json: { data: { text: 'by the admin' } } }),
      201,
    );
    await expectJson(await server.request(`/api/notes/${created.data.documentId}`, { method: 'DELETE', token: data.token }), 204);
    const form = new FormData();
    form.append('files', new Blob(['hello'], { type: 'text/plain' }), 'hello.txt');
    const [file] = await expectJson<{ id: number }[]>(await server.request('/api/upload', { method: 'POST', body: form, token: data.token }), 201);
    expect(await expectJson(await server.request('/api/upload/files', { token: data.token }), 200)).toHaveLength(1);
    await expectJson(await server.request(`/api/upload/files/${file?.id}`, { method: 'DELETE', token: data.token }), 200);
  });

  it('unknown admin routes are 401 without a session and 404 with one', async () => {
    const { data } = await expectJson<Session>(await login(OWNER.email, OWNER.password), 200);
    expect(await expectJson(await server.request('/admin/api/nothing-here'), 401)).toEqual(UNAUTHORIZED);
    expect(await expectJson(await server.request('/admin/api/nothing-here', { token: data.token }), 404)).toEqual({
      data: null,
      error: { status: 404, name: 'NotFoundError', message: 'Not Found', details: {} },
    });
  });
});

describe('desktop sessions', () => {
  it('trade the per-launch secret for a session of the local owner; a wrong secret is 401', async () => {
    const desktop = await startTestServer({ schemas: await writeProject({}), desktopSecret: 'launch-secret-0123456789' });
    try {
      expect(await expectJson(await desktop.request('/admin/api/init'), 200)).toEqual({ data: { hasAdmin: false, desktop: true } });
      const wrong = await desktop.request('/admin/api/desktop-session', { method: 'POST', json: { secret: 'launch-secret-0123456780' } });
      expect(await expectJson(wrong, 401)).toEqual(UNAUTHORIZED);
      const first = await expectJson<Session>(await desktop.request('/admin/api/desktop-session', { method: 'POST', json: { secret: 'launch-secret-0123456789' } }), 200);
      expect(first.data.user).toMatchObject({ id: 1, email: 'owner@hearth.localhost', firstname: 'Local', lastname: null });
      const again = await expectJson<Session>(await desktop.request('/admin/api/desktop-session', { method: 'POST', json: { secret: 'launch-secret-0123456789' } }), 200);
      expect(again.data.user.id).toBe(1);
      expect(again.data.token).not.toBe(first.data.token);
      // The local owner has no password: password login stays closed.
      expect((await desktop.request('/admin/api/login', { method: 'POST', json: { email: 'owner@hearth.localhost', password: 'Anything1' } })).status).toBe(400);
    } finally {
      await desktop.close();
    }
    const headless = await startTestServer({ schemas: await writeProject({}) });
    try {
      expect(await expectJson(await headless.request('/admin/api/desktop-session', { method: 'POST', json: { secret: '' } }), 401)).toEqual(UNAUTHORIZED);
    } finally {
      await headless.close();
    }
  });
});
