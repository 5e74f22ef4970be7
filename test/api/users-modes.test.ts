import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { collection, expectJson, writeProject } from '../helpers/project.js';

/** The configurable parts: legacy-support JWTs, registration switched off, the rate limit, password reset. */

const MINUTE = 60 * 1000;
const DAY = 24 * 60 * MINUTE;
const error = (status: number, name: string, message: string) => ({ data: null, error: { status, name, message, details: {} } });
let schemas = '';

beforeAll(async () => {
  schemas = await writeProject({ types: { post: collection('post', 'posts', { title: { type: 'string' } }) } });
});

const register = (server: TestServer, username: string, email = `${username}@example.com`) =>
  server.request('/api/auth/local/register', { method: 'POST', json: { username, email, password: 'pass-word' } });
const login = (server: TestServer, identifier: string, password = 'pass-word') => server.request('/api/auth/local', { method: 'POST', json: { identifier, password } });

describe('UP_JWT_MANAGEMENT=legacy-support', () => {
  let server: TestServer;
  let clock = Date.UTC(2026, 4, 1);
  beforeAll(async () => {
    server = await startTestServer({ schemas, env: { UP_JWT_MANAGEMENT: 'legacy-support' }, now: () => new Date(clock) });
  });
  afterAll(() => server.close());

  it('answers { jwt, user } to register and login, with no cookie; the JWT lasts 30 days', async () => {
    const registered = await expectJson<Record<string, unknown>>(await register(server, 'lea'), 200);
    expect(Object.keys(registered)).toEqual(['jwt', 'user']);
    const res = await login(server, 'lea');
    const { jwt } = await expectJson<{ jwt: string }>(res, 200);
    expect(res.headers.get('set-cookie')).toBeNull();
    const claims = JSON.parse(Buffer.from(jwt.split('.')[1] ?? '', 'base64url').toString()) as Record<string, unknown>;
    expect(claims).toEqual({ id: (registered.user as { id: number }).id, iat: clock / 1000, exp: clock / 1000 + 30 * 24 * 3600 });
    clock += 29 * DAY;
    await expectJson(await server.request('/api/users/me', { token: jwt }), 200);
    clock += 2 * DAY;
    expect(await expectJson(await server.request('/api/users/me', { token: jwt }), 401)).toEqual(error(401, 'UnauthorizedError', 'Missing or invalid credentials'));
  });

  it('has no refresh, logout or sessions routes (404, as Strapi)', async () => {
    const { jwt } = await expectJson<{ jwt: string }>(await login(server, 'lea'), 200);
    expect(await expectJson(await server.request('/api/auth/refresh', { method: 'POST', json: { refreshToken: 'x' } }), 404)).toEqual(error(404, 'NotFoundError', 'Not Found'));
    expect(await expectJson(await server.request('/api/auth/logout', { method: 'POST', token: jwt }), 404)).toEqual(error(404, 'NotFoundError', 'Not Found'));
    expect(await expectJson(await server.request('/api/auth/sessions', { token: jwt }), 404)).toEqual(error(404, 'NotFoundError', 'Not Found'));
  });

  it('refuses a blocked user, at login and with a JWT issued before', async () => {
    const { jwt } = await expectJson<{ jwt: string }>(await login(server, 'lea'), 200);
    await server.server.services.database.db.updateTable('up_users').set({ blocked: 1 }).where('username', '=', 'lea').execute();
    expect(await expectJson(await server.request('/api/users/me', { token: jwt }), 401)).toEqual(error(401, 'UnauthorizedError', 'Invalid credentials'));
    expect(await expectJson(await login(server, 'lea'), 400)).toEqual(error(400, 'ApplicationError', 'Your account has been blocked by an administrator'));
  });
});

describe('UP_SESSIONS_HTTP_ONLY=false', () => {
  it('answers refresh tokens in bodies, unless the request asks for the cookie', async () => {
    const server = await startTestServer({ schemas, env: { UP_SESSIONS_HTTP_ONLY: 'false' } });
    try {
      await expectJson(await register(server, 'hugo'), 200);
      const res = await login(server, 'hugo');
      const body = await expectJson<{ refreshToken: string }>(res, 200);
      expect(Object.keys(body)).toEqual(['jwt', 'refreshToken', 'user']);
      expect(res.headers.get('set-cookie')).toBeNull();
      const refreshed = await server.request('/api/auth/refresh', { method: 'POST', json: { refreshToken: body.refreshToken } });
      const next = await expectJson<{ jwt: string; refreshToken: string }>(refreshed, 200);
      expect(Object.keys(next)).toEqual(['jwt', 'refreshToken']);
      const asked = await server.request('/api/auth/refresh', { method: 'POST', json: { refreshToken: next.refreshToken }, headers: { 'x-strapi-refresh-cookie': 'httpOnly' } });
      expect(Object.keys(await expectJson<Record<string, unknown>>(asked, 200))).toEqual(['jwt']);
      expect(asked.headers.get('set-cookie')).toMatch(/^strapi_up_refresh=/);
    } finally {
      await server.close();
    }
  });
});

describe('UP_REGISTER_ENABLED=false', () => {
  it('answers register as Strapi does with registration off', async () => {
    const server = await startTestServer({ schemas, env: { UP_REGISTER_ENABLED: 'false' } });
    try {
      expect(await expectJson(await register(server, 'nobody'), 400)).toEqual(error(400, 'ApplicationError', 'Register action is currently disabled'));
      expect(await server.server.services.database.db.selectFrom('up_users').selectAll().execute()).toEqual([]);
    } finally {
      await server.close();
    }
  });
});

describe('rate limit', () => {
  let server: TestServer;
  let clock = Date.UTC(2026, 5, 1);
  beforeAll(async () => {
    server = await startTestServer({ schemas, now: () => new Date(clock) });
    await expectJson(await register(server, 'rita'), 200);
  });
  afterAll(() => server.close());

  it('allows 10 logins a minute per IP, then answers 429 RateLimitError until the window ends', async () => {
    for (let i = 0; i < 10; i++) expect((await login(server, 'rita', i % 2 === 0 ? 'pass-word' : 'wrong-pass')).status).not.toBe(429);
    const limited = await login(server, 'rita');
    expect(await expectJson(limited, 429)).toEqual(error(429, 'RateLimitError', 'Too many requests, please try again later.'));
    expect(limited.headers.get('x-ratelimit-limit')).toBe('10');
    clock += MINUTE;
    await expectJson(await login(server, 'rita'), 200);
  });

  it('keys registrations by e-mail and IP, as Strapi does', async () => {
    clock += MINUTE;
    for (let i = 0; i < 10; i++) expect((await register(server, `r${i}x`, 'same@example.com')).status).not.toBe(429);
    expect(await expectJson(await register(server, 'r10x', 'same@example.com'), 429)).toMatchObject({ error: { name: 'RateLimitError' } });
    await expectJson(await register(server, 'fresh', 'fresh@example.com'), 200);
  });
});

describe('forgot and reset password', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ schemas });
    await expectJson(await register(server, 'rob'), 200);
  });
  afterAll(() => server.close());

  it('forgot-password answers { ok: true } whether or not the e-mail exists, and checks its body', async () => {
    for (const email of ['rob@example.com', 'ghost@example.com']) {
      expect(await expectJson(await server.request('/api/auth/forgot-password', { method: 'POST', json: { email } }), 200)).toEqual({ ok: true });
    }
    expect(await expectJson(await server.request('/api/auth/forgot-password', { method: 'POST', json: { email: 'x@example.com', extra: 1 } }), 400)).toMatchObject({
      error: { name: 'ValidationError', message: 'this field has unspecified keys: extra' },
    });
  });

  it('reset-password takes a code issued for the user once, then logs in with the new password', async () => {
    const rob = await server.server.services.users.accounts.forLogin('rob');
    const code = await server.server.services.users.accounts.issueResetCode(Number(rob?.id));
    const reset = (json: unknown) => server.request('/api/auth/reset-password', { method: 'POST', json });
    expect(await expectJson(await reset({ code: 'wrong', password: 'new-word', passwordConfirmation: 'new-word' }), 400)).toEqual(error(400, 'ValidationError', 'Incorrect code provided'));
    const body = await expectJson<Record<string, unknown>>(await reset({ code, password: 'new-word', passwordConfirmation: 'new-word' }), 200);
    expect(Object.keys(body)).toEqual(['jwt', 'refreshToken', 'user']);
    expect(await expectJson(await reset({ code, password: 'other-word', passwordConfirmation: 'other-word' }), 400)).toEqual(error(400, 'ValidationError', 'Incorrect code provided'));
    await expectJson(await login(server, 'rob', 'new-word'), 200);
  });
});
