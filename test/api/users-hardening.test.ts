import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { collection, expectJson, writeProject } from '../helpers/project.js';

/**
 * Where Hearth is stricter than Strapi on users & permissions: credentials only for trusted
 * origins, reuse of a rotated refresh token ends the session, and the e-mail routes tell nobody
 * which accounts exist.
 */

const MINUTE = 60 * 1000;
const PAGE = 'http://localhost:5173';
const OTHER_PAGE = 'http://localhost:4000';
const error = (status: number, name: string, message: string) => ({ data: null, error: { status, name, message, details: {} } });
const INVALID_REFRESH = error(401, 'UnauthorizedError', 'Invalid refresh token');
const MISSING_REFRESH = error(400, 'BadRequestError', 'Missing refresh token');
const INVALID_CREDENTIALS = error(401, 'UnauthorizedError', 'Missing or invalid credentials');
let schemas = '';
let clock = Date.UTC(2026, 6, 1, 8, 0, 0);
const now = () => new Date(clock);

beforeAll(async () => {
  schemas = await writeProject({ types: { post: collection('post', 'posts', { title: { type: 'string' } }) } });
});

/** A server with one account, `ann`, whose role may list posts. */
async function serverWith(env: NodeJS.ProcessEnv = {}): Promise<TestServer> {
  const server = await startTestServer({ schemas, env, now });
  await server.server.services.permissions.grant('authenticated', ['api::post.post.find']);
  await expectJson(await server.request('/api/auth/local/register', { method: 'POST', json: { username: 'ann', email: 'ann@example.com', password: 'pass-word' } }), 200);
  return server;
}

function cookieOf(res: Response): string {
  const pair = (res.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  if (!pair.startsWith('strapi_up_refresh=')) throw new Error(`no refresh cookie in "${pair}"`);
  return pair;
}

/** A cookie-mode login: the access token and the refresh cookie. */
async function login(server: TestServer): Promise<{ jwt: string; cookie: string }> {
  clock += MINUTE;
  const res = await server.request('/api/auth/local', { method: 'POST', json: { identifier: 'ann', password: 'pass-word' } });
  const { jwt } = await expectJson<{ jwt: string }>(res, 200);
  return { jwt, cookie: cookieOf(res) };
}

const refreshFrom = (server: TestServer, cookie: string, origin?: string) =>
  server.request('/api/auth/refresh', { method: 'POST', headers: { Cookie: cookie, ...(origin === undefined ? {} : { Origin: origin }) } });
const preflight = (server: TestServer, origin: string) =>
  server.request('/api/auth/refresh', { method: 'OPTIONS', headers: { Origin: origin, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'content-type' } });
const cors = (res: Response) => ({ origin: res.headers.get('access-control-allow-origin'), credentials: res.headers.get('access-control-allow-credentials') });

describe('credentialed CORS, HEARTH_CORS_ORIGINS unset', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await serverWith();
  });
  afterAll(() => server.close());

  it('answers the preflight of any other origin without Allow-Credentials', async () => {
    const res = await preflight(server, PAGE);
    expect(res.status).toBe(204);
    expect(cors(res)).toEqual({ origin: PAGE, credentials: null });
  });

  it('keeps bearer requests open to any origin', async () => {
    const { jwt } = await login(server);
    const res = await server.request('/api/posts', { token: jwt, headers: { Origin: PAGE } });
    await expectJson(res, 200);
    expect(cors(res)).toEqual({ origin: PAGE, credentials: null });
  });

  it('refuses a cookie refresh from another origin: no token, no cookie, and the session is untouched', async () => {
    const { cookie } = await login(server);
    const res = await refreshFrom(server, cookie, PAGE);
    expect(await expectJson(res, 400)).toEqual(MISSING_REFRESH);
    expect(cors(res)).toEqual({ origin: PAGE, credentials: null });
    expect(res.headers.get('set-cookie')).toBeNull();
    // Not rotated, so not a reuse either: the cookie still refreshes where credentials are allowed.
    await expectJson(await refreshFrom(server, cookie), 200);
  });

  it('does not let a cookie from another origin name the session a logout ends', async () => {
    const mine = await login(server);
    const other = await login(server);
    const res = await server.request('/api/auth/logout', { method: 'POST', token: mine.jwt, headers: { Cookie: other.cookie, Origin: PAGE } });
    expect(await expectJson(res, 200)).toEqual({ ok: true });
    expect(res.headers.get('set-cookie')).toBeNull();
    expect(await expectJson(await server.request('/api/posts', { token: mine.jwt }), 401)).toEqual(INVALID_CREDENTIALS);
    await expectJson(await refreshFrom(server, other.cookie), 200);
  });

  it("allows credentials from the server's own origin (the admin UI)", async () => {
    expect(cors(await preflight(server, server.url))).toEqual({ origin: server.url, credentials: 'true' });
    const { cookie } = await login(server);
    const res = await refreshFrom(server, cookie, server.url);
    expect(Object.keys(await expectJson(res, 200))).toEqual(['jwt']);
    expect(cors(res)).toEqual({ origin: server.url, credentials: 'true' });
    cookieOf(res);
  });
});

describe('credentialed CORS, HEARTH_CORS_ORIGINS listing one origin', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await serverWith({ HEARTH_CORS_ORIGINS: PAGE });
  });
  afterAll(() => server.close());

  it('answers the listed origin with credentials, preflight and refresh', async () => {
    const pre = await preflight(server, PAGE);
    expect(pre.status).toBe(204);
    expect(cors(pre)).toEqual({ origin: PAGE, credentials: 'true' });
    const { cookie } = await login(server);
    const res = await refreshFrom(server, cookie, PAGE);
    expect(Object.keys(await expectJson(res, 200))).toEqual(['jwt']);
    expect(cors(res)).toEqual({ origin: PAGE, credentials: 'true' });
    cookieOf(res);
  });

  it('answers an unlisted origin with no CORS headers and does not use its cookie', async () => {
    expect(cors(await preflight(server, OTHER_PAGE))).toEqual({ origin: null, credentials: null });
    const { cookie } = await login(server);
    const res = await refreshFrom(server, cookie, OTHER_PAGE);
    expect(await expectJson(res, 400)).toEqual(MISSING_REFRESH);
    expect(cors(res)).toEqual({ origin: null, credentials: null });
    await expectJson(await refreshFrom(server, cookie), 200);
  });
});

describe('reuse of a rotated refresh token', () => {
  it('cookie mode: the replay is a 401 and ends the session, the latest refresh and access tokens included', async () => {
    const server = await serverWith();
    try {
      const first = await login(server);
      const one = await refreshFrom(server, first.cookie);
      const { jwt: jwtOne } = await expectJson<{ jwt: string }>(one, 200);
      const two = await refreshFrom(server, cookieOf(one));
      const { jwt: latestJwt } = await expectJson<{ jwt: string }>(two, 200);
      const latestCookie = cookieOf(two);
      await expectJson(await server.request('/api/posts', { token: latestJwt }), 200);

      expect(await expectJson(await refreshFrom(server, first.cookie), 401)).toEqual(INVALID_REFRESH);
      expect(await expectJson(await refreshFrom(server, latestCookie), 401)).toEqual(INVALID_REFRESH);
      for (const jwt of [latestJwt, jwtOne, first.jwt]) expect(await expectJson(await server.request('/api/posts', { token: jwt }), 401)).toEqual(INVALID_CREDENTIALS);
      // Another session of the same user lives on.
      const other = await login(server);
      await expectJson(await refreshFrom(server, other.cookie), 200);
    } finally {
      await server.close();
    }
  });

  it('body mode (UP_SESSIONS_HTTP_ONLY=false): the same', async () => {
    const server = await serverWith({ UP_SESSIONS_HTTP_ONLY: 'false' });
    try {
      const refresh = (refreshToken: string) => server.request('/api/auth/refresh', { method: 'POST', json: { refreshToken } });
      const loggedIn = await expectJson<{ refreshToken: string }>(await server.request('/api/auth/local', { method: 'POST', json: { identifier: 'ann', password: 'pass-word' } }), 200);
      const rotated = await expectJson<{ jwt: string; refreshToken: string }>(await refresh(loggedIn.refreshToken), 200);
      await expectJson(await server.request('/api/posts', { token: rotated.jwt }), 200);
      expect(await expectJson(await refresh(loggedIn.refreshToken), 401)).toEqual(INVALID_REFRESH);
      expect(await expectJson(await refresh(rotated.refreshToken), 401)).toEqual(INVALID_REFRESH);
      expect(await expectJson(await server.request('/api/posts', { token: rotated.jwt }), 401)).toEqual(INVALID_CREDENTIALS);
    } finally {
      await server.close();
    }
  });

  it('two rotations of one token at once: at most one succeeds, and the session ends', async () => {
    const server = await serverWith();
    try {
      const { cookie } = await login(server);
      const answers = await Promise.all([refreshFrom(server, cookie), refreshFrom(server, cookie)]);
      const statuses = answers.map((res) => res.status);
      expect(statuses).toContain(401);
      for (const res of answers) {
        if (res.status !== 200) continue;
        const { jwt } = await expectJson<{ jwt: string }>(res, 200);
        expect(await expectJson(await server.request('/api/posts', { token: jwt }), 401)).toEqual(INVALID_CREDENTIALS);
        expect(await expectJson(await refreshFrom(server, cookieOf(res)), 401)).toEqual(INVALID_REFRESH);
      }
    } finally {
      await server.close();
    }
  });
});

describe('account enumeration', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await serverWith();
  });
  afterAll(() => server.close());
  const post = (path: string, email: string) => server.request(path, { method: 'POST', json: { email } });

  it('send-email-confirmation answers a known and an unknown e-mail alike, as Strapi answers an unknown one', async () => {
    for (const email of ['ann@example.com', 'nobody@example.com']) {
      expect(await expectJson(await post('/api/auth/send-email-confirmation', email), 200)).toEqual({ email, sent: true });
    }
  });

  it('forgot-password answers a known and an unknown e-mail alike', async () => {
    const known = await post('/api/auth/forgot-password', 'ann@example.com');
    const unknown = await post('/api/auth/forgot-password', 'nobody@example.com');
    expect([known.status, unknown.status]).toEqual([200, 200]);
    expect(await known.json()).toEqual(await unknown.json());
  });

  it.each(['/api/auth/send-email-confirmation', '/api/auth/forgot-password'])('%s is under the auth rate limit', async (path) => {
    clock += MINUTE;
    for (let i = 0; i < 10; i++) expect((await post(path, 'ann@example.com')).status).toBe(200);
    const limited = await post(path, 'ann@example.com');
    expect(await expectJson(limited, 429)).toEqual(error(429, 'RateLimitError', 'Too many requests, please try again later.'));
    clock += MINUTE;
    expect((await post(path, 'ann@example.com')).status).toBe(200);
  });
});
