import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveSecrets, type Secrets } from '../../server/auth/secrets.js';
import { migrate } from '../../server/db/migrations.js';
import { openSqlite } from '../../server/db/sqlite.js';
import { resolveConfig } from '../../server/config.js';
import { AppError } from '../../server/errors/app-error.js';
import { deviceName } from '../../server/users/device-name.js';
import { hashPassword as hashAny, verifyPassword } from '../../server/auth/passwords.js';
import { createUserTokens } from '../../server/users/tokens.js';
import bcrypt from 'bcryptjs';
import { scalarColumns } from '../../server/documents/scalars.js';
import { parseComponent } from '../../server/schema/parse.js';

/** The small parts of users & permissions, one by one. */

/** End users' hashes (the compact scrypt format). */
const hashPassword = (plain: string) => hashAny(plain, 'compact');
/** A `password` attribute's stored value, as the document service writes it. */
const WITH_PASSWORD = parseComponent({ attributes: { secret: { type: 'password' } } }, 'test', 'secret', 'test.secret');
const attributeHash = async (plain: string) => (await scalarColumns(WITH_PASSWORD, { secret: plain })).secret;

describe('passwords', () => {
  it('are scrypt hashes with a fresh salt, verified in the document service\'s format too', async () => {
    const a = await hashPassword('correct horse');
    const b = await hashPassword('correct horse');
    expect(a).toMatch(/^scrypt\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]{88}$/);
    expect(a).not.toBe(b);
    expect(await verifyPassword('correct horse', a)).toBe(true);
    expect(await verifyPassword('correct horsE', a)).toBe(false);
    expect(await verifyPassword('correct horse', String(await attributeHash('correct horse')))).toBe(true);
    expect(await verifyPassword('x', null)).toBe(false);
    expect(await verifyPassword('x', 'bcrypt$whatever')).toBe(false);
  });

  it('of every stored format verify through the one module: admin (parameterised), compact, and Strapi\'s bcrypt', async () => {
    const admin = await hashAny('Correct horse 1');
    expect(admin).toMatch(/^scrypt\$16384\$8\$1\$[\w-]+\$[\w-]+$/);
    expect(await verifyPassword('Correct horse 1', admin)).toBe(true);
    expect(await verifyPassword('Correct horse 2', admin)).toBe(false);
    const strapi = bcrypt.hashSync('from strapi', 4);
    expect(await verifyPassword('from strapi', strapi)).toBe(true);
    expect(await verifyPassword('from strapi!', strapi)).toBe(false);
    expect(await verifyPassword('x', null, { decoy: true })).toBe(false);
  });

  it("of a content type's password attribute are hashed off the event loop (the write path keeps ticking)", async () => {
    let ticked = false;
    setImmediate(() => {
      ticked = true;
    });
    const columns = await scalarColumns(WITH_PASSWORD, { secret: 'correct horse' });
    expect(ticked).toBe(true);
    expect(await verifyPassword('correct horse', String(columns.secret))).toBe(true);
  });
});

describe('user JWTs', () => {
  it('tell a bad signature from an expired token, on the injected clock', async () => {
    let clock = Date.UTC(2026, 0, 1);
    const tokens = createUserTokens({ secret: 'a'.repeat(43), now: () => new Date(clock) });
    const other = createUserTokens({ secret: 'b'.repeat(43), now: () => new Date(clock) });
    const jwt = await tokens.legacy(7, 60);
    expect(await tokens.verify(jwt)).toEqual({ type: 'legacy', userId: 7 });
    expect(await other.verify(jwt)).toBe('invalid');
    expect(await tokens.verify('not-a-jwt')).toBe('invalid');
    clock += 61 * 1000;
    expect(await tokens.verify(jwt)).toBe('expired');
    expect(await other.verify(jwt)).toBe('invalid');
  });
});

describe('device names', () => {
  it('name browser and system from the User-Agent', () => {
    expect(deviceName('Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36 Edg/126.0')).toBe('Edge on Windows');
    expect(deviceName('Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1')).toBe('Safari on iOS');
    expect(deviceName('Mozilla/5.0 (X11; Linux x86_64; rv:127.0) Gecko/20100101 Firefox/127.0')).toBe('Firefox on Linux');
    expect(deviceName('curl/8.0')).toBeUndefined();
    expect(deviceName(undefined)).toBeUndefined();
  });
});

describe('configuration', () => {
  const users = (env: NodeJS.ProcessEnv) => resolveConfig({ data: '/tmp/x' }, env).users;

  it('defaults to refresh mode, registration left to the admin setting, a 10-minute access token and an httpOnly cookie', () => {
    expect(users({})).toEqual({
      jwtManagement: 'refresh',
      registerEnabled: null,
      accessTokenLifespan: 600,
      idleRefreshTokenLifespan: 604800,
      maxRefreshTokenLifespan: 2592000,
      httpOnly: true,
      cookieSecure: false,
    });
  });

  it('reads the UP_* variables and refuses bad values', () => {
    expect(users({ UP_JWT_MANAGEMENT: 'legacy-support', UP_REGISTER_ENABLED: 'false', UP_SESSIONS_ACCESS_TTL: '60' })).toMatchObject({
      jwtManagement: 'legacy-support',
      registerEnabled: false,
      accessTokenLifespan: 60,
    });
    expect(() => users({ UP_JWT_MANAGEMENT: 'sessions' })).toThrow(AppError);
    expect(() => users({ UP_JWT_MANAGEMENT: 'sessions' })).toThrow(expect.objectContaining({ name: 'ConfigError' }));
    expect(() => users({ UP_REGISTER_ENABLED: 'maybe' })).toThrow('UP_REGISTER_ENABLED must be true or false (got "maybe")');
  });
});

/** The secrets of an SQLite data dir without variables, as a start resolves them. */
async function loadSecrets(dir: string): Promise<Secrets> {
  const database = openSqlite(join(dir, 'hearth.db'));
  try {
    await migrate(database);
    return await resolveSecrets({ database, dataDir: dir, settings: { variables: {}, acceptChanges: false } });
  } finally {
    await database.close();
  }
}

describe('the signing secret', () => {
  it('is made on first use and added in place to an older secrets.json, keeping its other values', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'hearth-secrets-'));
    try {
      const salt = 's'.repeat(43);
      await writeFile(join(dir, 'secrets.json'), JSON.stringify({ apiTokenSalt: salt }));
      const secrets = await loadSecrets(dir);
      expect(secrets.apiTokenSalt).toBe(salt);
      expect(secrets.jwtSecret).toMatch(/^[A-Za-z0-9_-]{43}$/);
      const stored = JSON.parse(await readFile(join(dir, 'secrets.json'), 'utf8')) as Record<string, string>;
      expect(stored).toMatchObject({ apiTokenSalt: salt, jwtSecret: secrets.jwtSecret });
      expect((await stat(join(dir, 'secrets.json'))).mode & 0o777).toBe(0o600);
      expect((await loadSecrets(dir)).jwtSecret).toBe(secrets.jwtSecret);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
