import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { collection, expectJson, writeProject } from '../helpers/project.js';

/** Refresh mode's sessions: rotation, logout, password changes, the sessions list. */

let server: TestServer;
let clock = Date.UTC(2026, 3, 1, 8, 0, 0);
const MINUTE = 60 * 1000;
const DAY = 24 * 60 * MINUTE;
const CHROME_MAC = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';

beforeAll(async () => {
  const schemas = await writeProject({ types: { post: collection('post', 'posts', { title: { type: 'string' } }) } });
  server = await startTestServer({ schemas, now: () => new Date(clock) });
  await server.server.services.permissions.grant('authenticated', ['api::post.post.find']);
  await expectJson(await server.request('/api/auth/local/register', { method: 'POST', json: { username: 'sam', email: 'sam@example.com', password: 'first-pass' } }), 200);
});
afterAll(() => server.close());

const error = (status: number, name: string, message: string) => ({ data: null, error: { status, name, message, details: {} } });
const INVALID_REFRESH = error(401, 'UnauthorizedError', 'Invalid refresh token');

/** A browser's login: its access token and the refresh cookie (`strapi_up_refresh=...`). */
async function login(password = 'first-pass', userAgent = CHROME_MAC): Promise<{ jwt: string; cookie: string }> {
  clock += MINUTE;
  const res = await server.request('/api/auth/local', { method: 'POST', json: { identifier: 'sam', password }, headers: { 'User-Agent': userAgent } });
  const { jwt } = await expectJson<{ jwt: string }>(res, 200);
  return { jwt, cookie: cookieOf(res) };
}

function cookieOf(res: Response): string {
  const header = res.headers.get('set-cookie') ?? '';
  const pair = header.split(';')[0] ?? '';
  if (!pair.startsWith('strapi_up_refresh=')) throw new Error(`no refresh cookie in "${header}"`);
  return pair;
}

const refresh = (cookie: string) => server.request('/api/auth/refresh', { method: 'POST', headers: { Cookie: cookie } });
const postsWith = (jwt: string) => server.request('/api/posts', { token: jwt });

describe('POST /api/auth/refresh', () => {
  it('rotates the cookie and answers a new access token', async () => {
    const { cookie } = await login();
    const res = await refresh(cookie);
    const body = await expectJson<{ jwt: string }>(res, 200);
    expect(Object.keys(body)).toEqual(['jwt']);
    const rotated = cookieOf(res);
    expect(rotated).not.toBe(cookie);
    await expectJson(await postsWith(body.jwt), 200);
    await expectJson(await refresh(rotated), 200);
  });

  it('refuses a replayed rotated token and ends its session, child included (users-hardening.test.ts has more)', async () => {
    const { cookie } = await login();
    const child = cookieOf(await refresh(cookie));
    expect(await expectJson(await refresh(cookie), 401)).toEqual(INVALID_REFRESH);
    expect(await expectJson(await refresh(child), 401)).toEqual(INVALID_REFRESH);
  });

  it('takes the token from the body too, and answers it there without the cookie mode', async () => {
    const { cookie } = await login();
    const token = cookie.slice('strapi_up_refresh='.length);
    const res = await server.request('/api/auth/refresh', { method: 'POST', json: { refreshToken: token } });
    expect(Object.keys(await expectJson<Record<string, unknown>>(res, 200))).toEqual(['jwt']);
  });

  it('answers a missing token with 400 and a forged one with 401', async () => {
    expect(await expectJson(await server.request('/api/auth/refresh', { method: 'POST', json: {} }), 400)).toEqual(error(400, 'BadRequestError', 'Missing refresh token'));
    expect(await expectJson(await refresh('strapi_up_refresh=not.a.token'), 401)).toEqual(INVALID_REFRESH);
  });

  it('ends a session left idle past its 7 days', async () => {
    const { cookie } = await login();
    clock += 8 * DAY;
    expect(await expectJson(await refresh(cookie), 401)).toEqual(INVALID_REFRESH);
  });
});

describe('POST /api/auth/logout', () => {
  it('revokes the current session: its refresh token and access tokens stop working, the cookie is cleared', async () => {
    const { jwt, cookie } = await login();
    const other = await login();
    const res = await server.request('/api/auth/logout', { method: 'POST', token: jwt, headers: { Cookie: cookie } });
    expect(await expectJson(res, 200)).toEqual({ ok: true });
    expect(res.headers.get('set-cookie')).toBe('strapi_up_refresh=; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; SameSite=Lax');
    expect(await expectJson(await refresh(cookie), 401)).toEqual(INVALID_REFRESH);
    expect(await expectJson(await postsWith(jwt), 401)).toEqual(error(401, 'UnauthorizedError', 'Missing or invalid credentials'));
    await expectJson(await postsWith(other.jwt), 200);
    await expectJson(await refresh(other.cookie), 200);
  });

  it('with scope all ends every session of the user', async () => {
    const a = await login();
    const b = await login();
    expect(await expectJson(await server.request('/api/auth/logout', { method: 'POST', token: a.jwt, json: { scope: 'all' } }), 200)).toEqual({ ok: true });
    expect(await expectJson(await refresh(b.cookie), 401)).toEqual(INVALID_REFRESH);
  });

  it('needs a user: 403 for the public role', async () => {
    expect(await expectJson(await server.request('/api/auth/logout', { method: 'POST' }), 403)).toEqual(error(403, 'ForbiddenError', 'Forbidden'));
  });
});

describe('sessions list', () => {
  it('lists the live sessions, the current one first, without tokens; one can be revoked', async () => {
    await server.request('/api/auth/logout', { method: 'POST', token: (await login()).jwt, json: { scope: 'all' } });
    const older = await login('first-pass', 'curl/8.0');
    const current = await login();
    const { data } = await expectJson<{ data: Record<string, unknown>[] }>(await server.request('/api/auth/sessions', { token: current.jwt }), 200);
    expect(data).toHaveLength(2);
    expect(data[0]).toMatchObject({ current: true, deviceName: 'Chrome on macOS', loginAt: new Date(clock).toISOString(), lastActiveAt: new Date(clock).toISOString() });
    expect(Object.keys(data[0] ?? {})).toEqual(['id', 'deviceId', 'deviceName', 'current', 'loginAt', 'lastActiveAt']);
    expect(data[1]).toMatchObject({ current: false });
    expect(data[1]).not.toHaveProperty('deviceName');
    expect(JSON.stringify(data)).not.toContain(older.cookie.slice('strapi_up_refresh='.length));
    const olderId = String(data[1]?.id);
    const revoked = await server.request(`/api/auth/sessions/${olderId}`, { method: 'DELETE', token: current.jwt });
    expect(await expectJson(revoked, 200)).toEqual({ data: {} });
    expect(await expectJson(await refresh(older.cookie), 401)).toEqual(INVALID_REFRESH);
    expect(await expectJson(await server.request(`/api/auth/sessions/${olderId}`, { method: 'DELETE', token: current.jwt }), 404)).toEqual(error(404, 'NotFoundError', 'Session not found'));
  });
});

describe('POST /api/auth/change-password', () => {
  it('needs the current password, then ends the other sessions and opens a new one', async () => {
    const other = await login();
    const mine = await login();
    const wrong = await server.request('/api/auth/change-password', {
      method: 'POST',
      token: mine.jwt,
      json: { currentPassword: 'nope-nope', password: 'second-pass', passwordConfirmation: 'second-pass' },
    });
    expect(await expectJson(wrong, 400)).toEqual({ data: null, error: { status: 400, name: 'ValidationError', message: 'The provided current password is invalid', details: {} } });
    const res = await server.request('/api/auth/change-password', {
      method: 'POST',
      token: mine.jwt,
      json: { currentPassword: 'first-pass', password: 'second-pass', passwordConfirmation: 'second-pass' },
    });
    const body = await expectJson<{ jwt: string; refreshToken: string; user: Record<string, unknown> }>(res, 200);
    expect(Object.keys(body)).toEqual(['jwt', 'refreshToken', 'user']);
    expect(await expectJson(await refresh(other.cookie), 401)).toEqual(INVALID_REFRESH);
    expect(await expectJson(await postsWith(other.jwt), 401)).toEqual(error(401, 'UnauthorizedError', 'Missing or invalid credentials'));
    await expectJson(await postsWith(body.jwt), 200);
    await expectJson(await refresh(cookieOf(res)), 200);
    expect(await expectJson(await server.request('/api/auth/local', { method: 'POST', json: { identifier: 'sam', password: 'first-pass' } }), 400)).toMatchObject({ error: { message: 'Invalid identifier or password' } });
    await login('second-pass');
  });

  it('refuses mismatched confirmations and unchanged passwords', async () => {
    const { jwt } = await login('second-pass');
    const send = (json: unknown) => server.request('/api/auth/change-password', { method: 'POST', token: jwt, json });
    expect(await expectJson(await send({ currentPassword: 'second-pass', password: 'third-pass', passwordConfirmation: 'other-pass' }), 400)).toEqual({
      data: null,
      error: { status: 400, name: 'ValidationError', message: 'Passwords do not match', details: { errors: [{ path: ['passwordConfirmation'], message: 'Passwords do not match', name: 'ValidationError' }] } },
    });
    expect(await expectJson(await send({ currentPassword: 'second-pass', password: 'second-pass', passwordConfirmation: 'second-pass' }), 400)).toMatchObject({
      error: { message: 'Your new password must be different than your current password' },
    });
  });
});
