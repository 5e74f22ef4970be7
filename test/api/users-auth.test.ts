import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { collection, expectJson, writeProject } from '../helpers/project.js';

/**
 * Register and log in as Strapi 5.54's users & permissions answers it (refresh mode, httpOnly
 * cookie), and JWTs checked against the user's role on the content API.
 */

let server: TestServer;
let clock = Date.UTC(2026, 2, 1, 12, 0, 0);
const MINUTE = 60 * 1000;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const DOCUMENT_ID = /^[a-z][a-z0-9]{23}$/;

beforeAll(async () => {
  const schemas = await writeProject({
    types: {
      post: collection('post', 'posts', { title: { type: 'string' } }),
      note: collection('note', 'notes', { text: { type: 'string' } }),
    },
  });
  server = await startTestServer({ schemas, now: () => new Date(clock) });
  await server.server.services.permissions.grant('authenticated', ['api::post.post.find']);
  await server.server.services.permissions.grant('public', ['api::note.note.find']);
});
afterAll(() => server.close());

const post = (path: string, json: unknown, headers: Record<string, string> = {}) => server.request(path, { method: 'POST', json, headers });
const error = (status: number, name: string, message: string, details: unknown = {}) => ({ data: null, error: { status, name, message, details } });
type AuthBody = { jwt: string; refreshToken?: string; user: Record<string, unknown> };

function expectUser(user: Record<string, unknown>, username: string, email: string): void {
  expect(Object.keys(user)).toEqual(['id', 'documentId', 'username', 'email', 'provider', 'confirmed', 'blocked', 'createdAt', 'updatedAt', 'publishedAt']);
  expect(user).toMatchObject({ username, email, provider: 'local', confirmed: true, blocked: false });
  expect(user.documentId).toMatch(DOCUMENT_ID);
  expect(user.createdAt).toMatch(ISO);
  expect(user.publishedAt).toBe(user.createdAt);
}

describe('POST /api/auth/local/register', () => {
  it('creates a confirmed user and answers { jwt, refreshToken, user }', async () => {
    const res = await post('/api/auth/local/register', { username: 'ann', email: 'Ann@Example.com', password: 'secret-1' });
    const body = await expectJson<AuthBody>(res, 200);
    expect(Object.keys(body)).toEqual(['jwt', 'refreshToken', 'user']);
    expectUser(body.user, 'ann', 'ann@example.com');
    expect(res.headers.get('set-cookie')).toBeNull();
    expect(body.jwt.split('.')).toHaveLength(3);
  });

  it('refuses a taken email (any case) or username with Strapi\'s message', async () => {
    const taken = error(400, 'ApplicationError', 'Email or Username are already taken');
    expect(await expectJson(await post('/api/auth/local/register', { username: 'other', email: 'ANN@example.com', password: 'secret-1' }), 400)).toEqual(taken);
    expect(await expectJson(await post('/api/auth/local/register', { username: 'ann', email: 'new@example.com', password: 'secret-1' }), 400)).toEqual(taken);
  });

  it('refuses a short password with yup-style details and never echoes it', async () => {
    const body = await expectJson(await post('/api/auth/local/register', { username: 'bob', email: 'bob@example.com', password: '12345' }), 400);
    expect(body).toEqual(
      error(400, 'ValidationError', 'password must be at least 6 characters', {
        errors: [{ path: ['password'], message: 'password must be at least 6 characters', name: 'ValidationError' }],
      }),
    );
    expect(JSON.stringify(body)).not.toContain('12345');
  });

  it('refuses missing fields, bad emails and unknown keys as Strapi does', async () => {
    expect(await expectJson(await post('/api/auth/local/register', {}), 400)).toEqual(
      error(400, 'ValidationError', '3 errors occurred', {
        errors: expect.arrayContaining([
          { path: ['email'], message: 'email is a required field', name: 'ValidationError' },
          { path: ['username'], message: 'username is a required field', name: 'ValidationError' },
          { path: ['password'], message: 'password is a required field', name: 'ValidationError' },
        ]),
      }),
    );
    expect(await expectJson(await post('/api/auth/local/register', { username: 'bob', email: 'nope', password: 'secret-1' }), 400)).toMatchObject(
      error(400, 'ValidationError', 'email must be a valid email'),
    );
    expect(await expectJson(await post('/api/auth/local/register', { username: 'bob', email: 'b@example.com', password: 'secret-1', role: 1, confirmed: true }), 400)).toEqual(
      error(400, 'ValidationError', 'Invalid parameters: role, confirmed'),
    );
  });
});

describe('POST /api/auth/local', () => {
  it('logs in by email (any case) or by username; the refresh token goes in an httpOnly cookie', async () => {
    for (const identifier of ['ANN@example.com', 'ann']) {
      const res = await post('/api/auth/local', { identifier, password: 'secret-1' });
      const body = await expectJson<AuthBody>(res, 200);
      expect(Object.keys(body)).toEqual(['jwt', 'user']);
      expectUser(body.user, 'ann', 'ann@example.com');
      expect(res.headers.get('set-cookie')).toMatch(/^strapi_up_refresh=[\w.-]+; Path=\/; HttpOnly; SameSite=Lax$/);
    }
  });

  it('answers a wrong password or an unknown identifier with 400 Invalid identifier or password', async () => {
    const invalid = error(400, 'ValidationError', 'Invalid identifier or password');
    expect(await expectJson(await post('/api/auth/local', { identifier: 'ann', password: 'wrong-pass' }), 400)).toEqual(invalid);
    expect(await expectJson(await post('/api/auth/local', { identifier: 'nobody', password: 'secret-1' }), 400)).toEqual(invalid);
    expect(await expectJson(await post('/api/auth/local', { identifier: 'Ann', password: 'secret-1' }), 400)).toEqual(invalid);
  });

  it('checks the body first', async () => {
    expect(await expectJson(await post('/api/auth/local', { identifier: 'ann' }), 400)).toEqual(
      error(400, 'ValidationError', 'password is a required field', { errors: [{ path: ['password'], message: 'password is a required field', name: 'ValidationError' }] }),
    );
  });
});

describe('user JWTs on the content API', () => {
  let jwt = '';
  beforeAll(async () => {
    jwt = (await expectJson<AuthBody>(await post('/api/auth/local', { identifier: 'ann', password: 'secret-1' }), 200)).jwt;
  });

  it('GET /api/users/me: 403 without a token, the user with one', async () => {
    expect(await expectJson(await server.request('/api/users/me'), 403)).toEqual(error(403, 'ForbiddenError', 'Forbidden'));
    const me = await expectJson<Record<string, unknown>>(await server.request('/api/users/me', { token: jwt }), 200);
    expectUser(me, 'ann', 'ann@example.com');
  });

  it('may use what the authenticated role may, and gets 403 elsewhere, even where the public role may', async () => {
    await expectJson(await server.request('/api/posts', { token: jwt }), 200);
    expect(await expectJson(await server.request('/api/posts', { method: 'POST', token: jwt, json: { data: { title: 'x' } } }), 403)).toEqual(error(403, 'ForbiddenError', 'Forbidden'));
    await expectJson(await server.request('/api/notes'), 200);
    expect(await expectJson(await server.request('/api/notes', { token: jwt }), 403)).toEqual(error(403, 'ForbiddenError', 'Forbidden'));
    expect(await expectJson(await post('/api/auth/local', { identifier: 'ann', password: 'secret-1' }, { Authorization: `Bearer ${jwt}` }), 403)).toEqual(
      error(403, 'ForbiddenError', 'Forbidden'),
    );
  });

  it('refuses a tampered JWT with 401 Missing or invalid credentials', async () => {
    const [head, payload, signature = ''] = jwt.split('.');
    const claims = JSON.parse(Buffer.from(payload ?? '', 'base64url').toString()) as Record<string, unknown>;
    const forged = Buffer.from(JSON.stringify({ ...claims, userId: '999' })).toString('base64url');
    const flipped = `${signature.slice(0, -2)}${signature.endsWith('AA') ? 'BB' : 'AA'}`;
    for (const token of [`${head}.${forged}.${signature}`, `${head}.${payload}.${flipped}`]) {
      expect(await expectJson(await server.request('/api/posts', { token }), 401)).toEqual(error(401, 'UnauthorizedError', 'Missing or invalid credentials'));
    }
  });

  it('refuses an access token after its 10 minutes with 401', async () => {
    const fresh = (await expectJson<AuthBody>(await post('/api/auth/local', { identifier: 'ann', password: 'secret-1' }), 200)).jwt;
    clock += 9 * MINUTE;
    await expectJson(await server.request('/api/posts', { token: fresh }), 200);
    clock += 2 * MINUTE;
    expect(await expectJson(await server.request('/api/posts', { token: fresh }), 401)).toEqual(error(401, 'UnauthorizedError', 'Missing or invalid credentials'));
  });

  it('leaves API tokens working as before', async () => {
    const token = await server.token('read-only');
    await expectJson(await server.request('/api/posts', { token }), 200);
    expect(await expectJson(await server.request('/api/users/me', { token }), 403)).toEqual(error(403, 'ForbiddenError', 'Forbidden'));
    const full = await server.token('full-access');
    expect(await expectJson(await server.request('/api/users/me', { token: full }), 401)).toEqual(error(401, 'UnauthorizedError', 'Unauthorized'));
  });
});
