import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import {
  ADMIN_SCRYPT_BLOCK_SIZE,
  ADMIN_SCRYPT_COST,
  ADMIN_SCRYPT_KEY_BYTES,
  ADMIN_SCRYPT_PARALLELISM,
} from '../limits.js';

/**
 * Hearth's one password hashing module. Hashing runs on libuv's thread pool (async `scrypt`), never
 * on the event loop. Every format ever stored verifies:
 * - `scrypt$N$r$p$<salt>$<key>` (base64url, NFKC-normalised input): admin accounts; the parameters
 *   travel with the hash so they can be raised later;
 * - `scrypt$<salt>$<key>` (base64, Node's default cost N=16384 r=8 p=1, 64-byte key): end users and
 *   the `password` attributes of content types;
 * - bcrypt `$2a$/$2b$/$2y$` (bcryptjs): users imported from a Strapi archive keep Strapi's hashes.
 */

/** Which stored form a new hash takes: `parameterised` (admins) or `compact` (end users, `password` attributes). */
export type PasswordFormat = 'parameterised' | 'compact';

const PREFIX = 'scrypt';
const SALT_BYTES = 16;
/** The key length of the compact format (Node's scrypt defaults give its cost). */
const COMPACT_KEY_BYTES = 64;

function derive(password: string, salt: Buffer, bytes: number, options?: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    if (options === undefined) {
      scrypt(password, salt, bytes, (err, key) => (err ? reject(err) : resolve(key)));
      return;
    }
    // scrypt's default memory cap is exactly 32 MB; 128 * N * r bytes plus headroom keeps our cost legal.
    const maxmem = 256 * (options.N ?? ADMIN_SCRYPT_COST) * (options.r ?? ADMIN_SCRYPT_BLOCK_SIZE);
    scrypt(password, salt, bytes, { ...options, maxmem }, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

/** Hashes a password with a fresh random salt, off the event loop, in the given stored format. */
export async function hashPassword(password: string, format: PasswordFormat = 'parameterised'): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  if (format === 'compact') {
    const key = await derive(password, salt, COMPACT_KEY_BYTES);
    return `${PREFIX}$${salt.toString('base64')}$${key.toString('base64')}`;
  }
  const options = { N: ADMIN_SCRYPT_COST, r: ADMIN_SCRYPT_BLOCK_SIZE, p: ADMIN_SCRYPT_PARALLELISM };
  const key = await derive(password.normalize('NFKC'), salt, ADMIN_SCRYPT_KEY_BYTES, options);
  return [PREFIX, options.N, options.r, options.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** A hash of a forgotten random string, checked when an account has no password so both answers take as long. */
const DECOY_HASH = 'scrypt$16384$8$1$eumimB1konjX-q-rEJbf2Q$XBq2RGrJRoRMMwsnNBNYEmVVdpU_o1eA0rmJPHVhErhMplhZOh4Q5QHWJPjcw80qcb2kdowWdhFlQ3w5E6CbkQ';

/** A bcrypt hash as Strapi's users-permissions stores them (bcryptjs, `$2a$10$...`). */
const BCRYPT_HASH = /^\$2[aby]\$\d{2}\$[./A-Za-z0-9]{53}$/;

async function matchesParameterised(password: string, parts: readonly string[]): Promise<boolean> {
  const [, n, r, p, salt, key] = parts;
  if (!salt || !key) return false;
  const expected = Buffer.from(key, 'base64url');
  const actual = await derive(password.normalize('NFKC'), Buffer.from(salt, 'base64url'), expected.length, { N: Number(n), r: Number(r), p: Number(p) });
  return timingSafeEqual(actual, expected);
}

async function matchesCompact(password: string, parts: readonly string[]): Promise<boolean> {
  const [, salt, key] = parts;
  if (!salt || !key) return false;
  const expected = Buffer.from(key, 'base64');
  if (expected.length !== COMPACT_KEY_BYTES) return false;
  return timingSafeEqual(await derive(password, Buffer.from(salt, 'base64'), COMPACT_KEY_BYTES), expected);
}

/**
 * Whether a password matches a stored hash of any format Hearth ever wrote or imported; keys are
 * compared in constant time. With `decoy`, a null hash (a password-less account) is checked against
 * a decoy so that answer takes as long as a wrong password; a null hash never matches.
 */
export async function verifyPassword(password: string, stored: string | null, options: { decoy?: boolean } = {}): Promise<boolean> {
  if (stored === null && !options.decoy) return false;
  const target = stored ?? DECOY_HASH;
  // bcryptjs (only Strapi's imported hashes need it) is loaded by the first such check.
  if (BCRYPT_HASH.test(target)) return (await import('bcryptjs')).default.compare(password, target);
  const parts = target.split('$');
  if (parts[0] !== PREFIX) return false;
  const matches = parts.length === 6 ? await matchesParameterised(password, parts) : parts.length === 3 ? await matchesCompact(password, parts) : false;
  return matches && stored !== null;
}
