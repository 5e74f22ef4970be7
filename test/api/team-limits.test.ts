import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { databaseRateLimitStore } from '../../server/auth/rate-limit-store.js';
import { UP_RATE_LIMIT_MAX } from '../../server/limits.js';
import { databaseUrlFor, dropDatabaseFor, onPostgres, openTestDataDir } from '../helpers/database.js';
import { expectJson } from '../helpers/project.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { OWNER, registerOwner } from '../admin/helpers.js';
import { openDataDir } from '../../server/data-dir.js';

/**
 * Team mode (issue 22, item 4): limits that hold across instances. The auth rate limits count in
 * the database on PostgreSQL, so N instances allow the attempts of one; sessions and refresh-token
 * reuse detection already live in the database and work whichever instance is asked.
 */

const MINUTE = 60 * 1000;
let clock = Date.UTC(2026, 4, 1, 9, 0, 0);
const now = () => new Date(clock);
const dirs: string[] = [];
const servers: TestServer[] = [];

async function newDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'hearth-team-'));
  dirs.push(dir);
  return dir;
}

afterAll(async () => {
  for (const server of servers) await server.close();
  for (const dir of dirs) await dropDatabaseFor(dir);
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

const RATE_LIMITED = { data: null, error: { status: 429, name: 'RateLimitError', message: 'Too many requests, please try again later.', details: {} } };

describe('the database rate-limit store', () => {
  it('counts the hits of two connections on one database together, per prefix, and starts a new window once one has ended', async () => {
    const path = await newDir();
    const first = await openTestDataDir(path);
    // A second handle on the same database: another process on SQLite, another instance on PostgreSQL.
    const second = await openDataDir(path, { databaseUrl: await databaseUrlFor(path) });
    try {
      const options = { windowMs: MINUTE } as Parameters<NonNullable<ReturnType<typeof databaseRateLimitStore>['init']>>[0];
      const a = databaseRateLimitStore({ database: first.database, now, prefix: 'login' });
      const b = databaseRateLimitStore({ database: second.database, now, prefix: 'login' });
      const other = databaseRateLimitStore({ database: second.database, now, prefix: 'register' });
      for (const store of [a, b, other]) await store.init?.(options);
      const hits: number[] = [];
      for (let i = 0; i < 6; i += 1) hits.push((await (i % 2 === 0 ? a : b).increment('key')).totalHits);
      expect(hits).toEqual([1, 2, 3, 4, 5, 6]);
      expect((await other.increment('key')).totalHits).toBe(1);
      await b.decrement('key');
      const seventh = await a.increment('key');
      expect(seventh).toEqual({ totalHits: 6, resetTime: new Date(clock + MINUTE) });
      // Twenty at once from both: every count from 7 to 26 is handed out exactly once.
      const concurrent = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? a : b).increment('key')));
      expect(concurrent.map((r) => r.totalHits).sort((x, y) => x - y)).toEqual(Array.from({ length: 20 }, (_, i) => i + 7));
      clock += MINUTE;
      expect(await b.increment('key')).toEqual({ totalHits: 1, resetTime: new Date(clock + MINUTE) });
      await a.resetKey('key');
      expect((await b.increment('key')).totalHits).toBe(1);
    } finally {
      await second.database.close();
      await first.database.close();
    }
  });
});

if (onPostgres()) {
  describe('two instances with their own data dirs on one PostgreSQL database', () => {
    async function pair(): Promise<[TestServer, TestServer]> {
      const shared = await newDir();
      const url = await databaseUrlFor(shared);
      const start = async () => {
        const server = await startTestServer({ dataDir: await newDir(), database: 'sqlite', env: { DATABASE_URL: url ?? '' }, now });
        servers.push(server);
        return server;
      };
      const a = await start();
      return [a, await start()];
    }
    const login = (server: TestServer, password: string) => server.request('/api/auth/local', { method: 'POST', json: { identifier: 'ann', password } });

    it('count end-user logins together: the attempts of one instance, not twice them, then 429 on both until the window ends', async () => {
      clock += 10 * MINUTE;
      const [a, b] = await pair();
      await expectJson(
        await a.request('/api/auth/local/register', { method: 'POST', json: { username: 'ann', email: 'ann@example.com', password: 'secret-1' } }),
        200,
      );
      // register counts under its own key (its path and e-mail): the login key starts at 0.
      for (let i = 0; i < UP_RATE_LIMIT_MAX; i += 1) await expectJson(await login(i % 2 === 0 ? a : b, 'wrong-pass'), 400);
      expect(await expectJson(await login(a, 'secret-1'), 429)).toEqual(RATE_LIMITED);
      expect(await expectJson(await login(b, 'secret-1'), 429)).toEqual(RATE_LIMITED);
      clock += MINUTE;
      await expectJson(await login(b, 'secret-1'), 200);
    });

    it('count failed admin logins together', async () => {
      clock += 10 * MINUTE;
      const [a, b] = await pair();
      await registerOwner(a);
      const adminLogin = (server: TestServer, password: string) =>
        server.request('/admin/api/login', { method: 'POST', json: { email: OWNER.email, password } });
      for (let i = 0; i < 10; i += 1) await expectJson(await adminLogin(i % 2 === 0 ? a : b, 'Wrong-pass-1'), 400);
      expect(await expectJson(await adminLogin(b, OWNER.password), 429)).toEqual(RATE_LIMITED);
      expect(await expectJson(await adminLogin(a, OWNER.password), 429)).toEqual(RATE_LIMITED);
    });

    it('rotate refresh tokens on either, and a reused one revokes the session on both', async () => {
      clock += 10 * MINUTE;
      const [a, b] = await pair();
      await expectJson(
        await a.request('/api/auth/local/register', { method: 'POST', json: { username: 'ann', email: 'ann@example.com', password: 'secret-1' } }),
        200,
      );
      const res = await login(b, 'secret-1');
      const { jwt } = await expectJson<{ jwt: string }>(res, 200);
      const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
      expect(cookie).toMatch(/^strapi_up_refresh=./);
      await expectJson(await a.request('/api/users/me', { token: jwt }), 200);
      const refresh = (server: TestServer, c: string) => server.request('/api/auth/refresh', { method: 'POST', headers: { Cookie: c } });
      const rotated = await refresh(a, cookie);
      await expectJson(rotated, 200);
      const child = (rotated.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
      const invalid = { data: null, error: { status: 401, name: 'UnauthorizedError', message: 'Invalid refresh token', details: {} } };
      // The parent again, on the other instance: reuse, so the whole session ends everywhere.
      expect(await expectJson(await refresh(b, cookie), 401)).toEqual(invalid);
      expect(await expectJson(await refresh(a, child), 401)).toEqual(invalid);
    });

    it('share admin sessions: a logout on one ends the session on the other', async () => {
      const [a, b] = await pair();
      const session = await registerOwner(a);
      await expectJson(await b.request('/admin/api/users/me', { token: session }), 200);
      await expectJson(await b.request('/admin/api/logout', { method: 'POST', token: session }), 200);
      await expectJson(await a.request('/admin/api/users/me', { token: session }), 401);
    });
  });
}
