import { createHmac } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDataDir } from '../../server/data-dir.js';
import { API_TOKENS_TABLE, TRANSFER_TOKENS_TABLE } from '../../server/db/system-tables.js';
import { databaseUrlFor, dropDatabaseFor, onPostgres } from '../helpers/database.js';
import { expectJson } from '../helpers/project.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { registerOwner } from '../admin/helpers.js';
import { runInProcess } from '../backup/helpers.js';

/**
 * Shared secrets (issue 22): Strapi's variables win over secrets.json; on PostgreSQL instances
 * with their own data dirs share what the first one generated; a start whose secret disagrees
 * with what the database was set up with is refused with a one-line reason.
 */

const SALT = 'team-api-token-salt-from-a-strapi-env-file';
const OTHER_SALT = 'another-api-token-salt-that-nobody-shared';
const JWT = 'team-jwt-secret-from-a-strapi-env-file';

const dirs: string[] = [];
const servers: TestServer[] = [];
const databases: string[] = [];

async function newDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'hearth-secrets-'));
  dirs.push(dir);
  return dir;
}

/** A fresh database shared by the instances of one test (PostgreSQL); null on SQLite. */
async function sharedDatabase(): Promise<string | null> {
  const key = await newDir();
  databases.push(key);
  return databaseUrlFor(key);
}

/** An instance with its own data dir (or the given one) on the given database. */
async function instance(url: string | null, env: NodeJS.ProcessEnv = {}, dataDir?: string): Promise<TestServer> {
  const server = await startTestServer({
    dataDir: dataDir ?? (await newDir()),
    database: 'sqlite',
    env: { ...(url === null ? {} : { DATABASE_URL: url }), ...env },
  });
  servers.push(server);
  return server;
}

afterAll(async () => {
  for (const server of servers) await server.close();
  for (const key of databases) await dropDatabaseFor(key);
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

/** The stored hash of an API token: Strapi's HMAC-SHA512 of the plaintext keyed by the salt. */
const hashUnder = (salt: string, accessKey: string) => createHmac('sha512', salt).update(accessKey).digest('hex');

async function storedHash(server: TestServer, name: string): Promise<string | undefined> {
  const row = await server.server.services.database.db.selectFrom(API_TOKENS_TABLE).select('access_key_hash').where('name', '=', name).executeTakeFirst();
  return row?.access_key_hash;
}

/** The error a start rejects with. */
async function thrown(start: Promise<TestServer>): Promise<unknown> {
  return start.then(
    () => {
      throw new Error('the instance started');
    },
    (err: unknown) => err,
  );
}

const read = (server: TestServer, token: string) => server.request('/api/articles', { token });

/** Registers an end user on one instance and returns its JWT. */
async function userJwt(server: TestServer, username: string): Promise<string> {
  const json = { username, email: `${username}@example.com`, password: 'secret-pass-1' };
  return (await expectJson<{ jwt: string }>(await server.request('/api/auth/local/register', { method: 'POST', json }), 200)).jwt;
}

const refusedSalt =
  'API_TOKEN_SALT differs from the secret this database was set up with: API tokens made under the other one would be refused (set the same API_TOKEN_SALT on every instance, or HEARTH_ACCEPT_NEW_SECRETS=1 to replace it)';

describe('the CLI', () => {
  it('token create hashes under API_TOKEN_SALT, accepted by a server with the same; token create and serve refuse another', async () => {
    const url = await sharedDatabase();
    const server = await instance(url, { API_TOKEN_SALT: SALT });
    const database: Record<string, string> = url === null ? {} : { DATABASE_URL: url };
    // On SQLite the CLI works on the server's data dir; on PostgreSQL on a data dir of its own.
    const dataDir = url === null ? server.dataDir : await newDir();
    const created = await runInProcess(['token', 'create', '--type', 'read-only', '--name', 'from-the-cli', '--data', dataDir], {
      ...database,
      API_TOKEN_SALT: SALT,
    });
    expect(created).toMatchObject({ code: 0, stderr: '' });
    const token = created.stdout.trim();
    expect(await storedHash(server, 'from-the-cli')).toBe(hashUnder(SALT, token));
    await expectJson(await read(server, token), 200);
    const other = await runInProcess(['token', 'create', '--type', 'read-only', '--name', 'refused', '--data', dataDir], {
      ...database,
      API_TOKEN_SALT: OTHER_SALT,
    });
    expect(other).toEqual({ code: 2, stdout: '', stderr: `hearth: ${refusedSalt}\n` });
    const serve = await runInProcess(['serve', '--port', '0', '--data', dataDir], { ...database, API_TOKEN_SALT: OTHER_SALT });
    expect(serve).toEqual({ code: 2, stdout: '', stderr: `hearth: ${refusedSalt}\n` });
  });
});

describe('transfer tokens', () => {
  it('are hashed under TRANSFER_TOKEN_SALT as Strapi hashes them, and a start without it is refused', async () => {
    const url = await sharedDatabase();
    const server = await instance(url, { TRANSFER_TOKEN_SALT: 'team-transfer-token-salt' });
    const database: Record<string, string> = url === null ? {} : { DATABASE_URL: url };
    const dataDir = url === null ? server.dataDir : await newDir();
    const created = await runInProcess(['token', 'create', '--type', 'transfer', '--access', 'push', '--name', 'push', '--data', dataDir], {
      ...database,
      TRANSFER_TOKEN_SALT: 'team-transfer-token-salt',
    });
    expect(created).toMatchObject({ code: 0, stderr: '' });
    const row = await server.server.services.database.db
      .selectFrom(TRANSFER_TOKENS_TABLE)
      .select('access_key_hash')
      .where('name', '=', 'push')
      .executeTakeFirst();
    expect(row?.access_key_hash).toBe(hashUnder('team-transfer-token-salt', created.stdout.trim()));
    expect(await runInProcess(['token', 'create', '--type', 'transfer', '--access', 'pull', '--name', 'pull', '--data', dataDir], database)).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/^hearth: TRANSFER_TOKEN_SALT is not set, unlike the secret this database was set up with: transfer tokens made/),
    });
  });
});

if (onPostgres()) {
  describe('instances with their own data dirs on one PostgreSQL database', () => {
    it("accept each other's API tokens, end-user JWTs and admin sessions without any variable", async () => {
      const url = await sharedDatabase();
      const a = await instance(url);
      const b = await instance(url);
      await expectJson(await read(b, await a.token('read-only')), 200);
      await expectJson(await read(a, await b.token('read-only')), 200);
      const jwt = await userJwt(a, 'ann');
      await expectJson(await b.request('/api/users/me', { token: jwt }), 200);
      const session = await registerOwner(a);
      expect((await expectJson<{ data: { email: string } }>(await b.request('/admin/api/users/me', { token: session }), 200)).data.email).toBe(
        'owner@example.com',
      );
      // The CLI's way in (`hearth token create`): a data dir opened on the same database.
      const cli = await openDataDir(await newDir(), { databaseUrl: url, secrets: { variables: {}, acceptChanges: false } });
      try {
        const { accessKey } = await cli.tokens.create({ name: 'from-the-cli', type: 'read-only', permissions: [] });
        await expectJson(await read(b, accessKey), 200);
      } finally {
        await cli.database.close();
      }
      // The database keeps the generated secrets; no data dir holds them.
      await expect(readFile(join(a.dataDir, 'secrets.json'), 'utf8')).rejects.toThrow(/ENOENT/);
    });

    it("with API_TOKEN_SALT and JWT_SECRET set on both, hash under the variable and accept each other's tokens", async () => {
      const url = await sharedDatabase();
      const env = { API_TOKEN_SALT: SALT, JWT_SECRET: JWT };
      const a = await instance(url, env);
      const b = await instance(url, env);
      const token = await a.token('read-only');
      const name = (await a.server.services.tokens.list()).at(-1)?.name ?? '';
      expect(await storedHash(a, name)).toBe(hashUnder(SALT, token));
      await expectJson(await read(b, token), 200);
      await expectJson(await b.request('/api/users/me', { token: await userJwt(a, 'bea') }), 200);
      // A variable's secret is never written down: the database keeps its fingerprint only.
      const meta = await a.server.services.database.db.selectFrom('hearth_meta').select('value').where('key', 'like', 'secret:%').execute();
      expect(meta.map((r) => r.value).join('\n')).not.toContain(SALT);
    });

    it('refuse to start an instance whose API_TOKEN_SALT differs, with the one-line reason', async () => {
      const url = await sharedDatabase();
      await instance(url, { API_TOKEN_SALT: SALT });
      const refused = await thrown(instance(url, { API_TOKEN_SALT: OTHER_SALT }));
      expect(refused).toMatchObject({ name: 'ConfigError', message: refusedSalt });
      // Without the variable, while the database was set up with one: refused too.
      expect(await thrown(instance(url))).toMatchObject({
        message:
          'API_TOKEN_SALT is not set, unlike the secret this database was set up with: API tokens made under the other one would be refused (set the same API_TOKEN_SALT on every instance, or HEARTH_ACCEPT_NEW_SECRETS=1 to replace it)',
      });
    });

    it('agree on the generated secrets when two start at the same moment on a fresh database', async () => {
      const url = await sharedDatabase();
      const [a, b] = await Promise.all([instance(url), instance(url)]);
      await expectJson(await read(b, await a.token('read-only')), 200);
      await expectJson(await read(a, await b.token('read-only')), 200);
      await expectJson(await a.request('/api/users/me', { token: await userJwt(b, 'cat') }), 200);
    });
  });
} else {
  describe('secrets on SQLite', () => {
    it('take API_TOKEN_SALT and JWT_SECRET over secrets.json: tokens are hashed and signed with the variables', async () => {
      const server = await instance(null, { API_TOKEN_SALT: SALT, JWT_SECRET: JWT });
      const token = await server.token('read-only');
      const name = (await server.server.services.tokens.list()).at(-1)?.name ?? '';
      expect(await storedHash(server, name)).toBe(hashUnder(SALT, token));
      await expectJson(await read(server, token), 200);
      const jwt = await userJwt(server, 'dan');
      const { jwtVerify } = await import('jose');
      await expect(jwtVerify(jwt, new TextEncoder().encode(JWT))).resolves.toBeDefined();
      const file = await readFile(join(server.dataDir, 'secrets.json'), 'utf8');
      expect(file).not.toContain(SALT);
      expect(file).not.toContain(JWT);
    });

    it('refuse a variable that differs from the secrets.json tokens were made under, unless HEARTH_ACCEPT_NEW_SECRETS=1', async () => {
      const dataDir = await newDir();
      await writeFile(join(dataDir, 'secrets.json'), JSON.stringify({ apiTokenSalt: OTHER_SALT.padEnd(48, '-') }));
      expect(await thrown(instance(null, { API_TOKEN_SALT: SALT }, dataDir))).toMatchObject({ name: 'ConfigError', message: refusedSalt });
      const server = await instance(null, { API_TOKEN_SALT: SALT, HEARTH_ACCEPT_NEW_SECRETS: '1' }, dataDir);
      const token = await server.token('read-only');
      await expectJson(await read(server, token), 200);
      const name = (await server.server.services.tokens.list()).at(-1)?.name ?? '';
      expect(await storedHash(server, name)).toBe(hashUnder(SALT, token));
      await server.close();
      // Accepted once, the variable is what the database was set up with: started again without it, refused.
      expect(await thrown(instance(null, {}, dataDir))).toMatchObject({
        name: 'ConfigError',
        message: expect.stringMatching(/^API_TOKEN_SALT is not set, unlike the secret/),
      });
      await expectJson(await read(await instance(null, { API_TOKEN_SALT: SALT }, dataDir), token), 200);
    });
  });
}
