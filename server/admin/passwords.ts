import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import {
  ADMIN_PASSWORD_MAX_LENGTH,
  ADMIN_PASSWORD_MIN_LENGTH,
  ADMIN_SCRYPT_BLOCK_SIZE,
  ADMIN_SCRYPT_COST,
  ADMIN_SCRYPT_KEY_BYTES,
  ADMIN_SCRYPT_PARALLELISM,
} from '../limits.js';

const PREFIX = 'scrypt';

function derive(password: string, salt: Buffer, options: ScryptOptions, bytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    // scrypt's default memory cap is exactly 32 MB; 128 * N * r bytes plus headroom keeps our cost legal.
    const maxmem = 256 * (options.N ?? ADMIN_SCRYPT_COST) * (options.r ?? ADMIN_SCRYPT_BLOCK_SIZE);
    scrypt(password.normalize('NFKC'), salt, bytes, { ...options, maxmem }, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

/** `scrypt$N$r$p$<salt>$<key>` (base64url): the parameters travel with the hash so they can be raised later. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const options = { N: ADMIN_SCRYPT_COST, r: ADMIN_SCRYPT_BLOCK_SIZE, p: ADMIN_SCRYPT_PARALLELISM };
  const key = await derive(password, salt, options, ADMIN_SCRYPT_KEY_BYTES);
  return [PREFIX, options.N, options.r, options.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** A hash of a forgotten random string, checked when an account has no password so both answers take as long. */
const DECOY_HASH = 'scrypt$16384$8$1$eumimB1konjX-q-rEJbf2Q$XBq2RGrJRoRMMwsnNBNYEmVVdpU_o1eA0rmJPHVhErhMplhZOh4Q5QHWJPjcw80qcb2kdowWdhFlQ3w5E6CbkQ';

/** Checks a password against a stored hash in constant time; a null hash (a password-less account) never matches. */
export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  const target = stored ?? DECOY_HASH;
  const parts = target.split('$');
  const [prefix, n, r, p, salt, key] = parts;
  if (parts.length !== 6 || prefix !== PREFIX || !salt || !key) return false;
  const expected = Buffer.from(key, 'base64url');
  const actual = await derive(password, Buffer.from(salt, 'base64url'), { N: Number(n), r: Number(r), p: Number(p) }, expected.length);
  return timingSafeEqual(actual, expected) && stored !== null;
}

/** Strapi admin's password rule; the messages name the rule broken, or null when the password is acceptable. */
export function passwordProblem(password: string): string | null {
  if (password.length < ADMIN_PASSWORD_MIN_LENGTH) return `password must be at least ${ADMIN_PASSWORD_MIN_LENGTH} characters`;
  if (password.length > ADMIN_PASSWORD_MAX_LENGTH) return `password must be at most ${ADMIN_PASSWORD_MAX_LENGTH} characters`;
  if (!/[a-z]/.test(password)) return 'password must contain at least one lowercase character';
  if (!/[A-Z]/.test(password)) return 'password must contain at least one uppercase character';
  if (!/\d/.test(password)) return 'password must contain at least one number';
  return null;
}
