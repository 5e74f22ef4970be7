import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import bcrypt from 'bcryptjs';

/**
 * End-user passwords as scrypt hashes: `scrypt$<salt>$<key>` (base64), Node's default cost
 * (N=16384, r=8, p=1) and a 64-byte key — the very format the document service writes for
 * `password` attributes, so a password set either way verifies here.
 */
const KEY_BYTES = 64;
const SALT_BYTES = 16;

function derive(plain: string, salt: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(plain, salt, KEY_BYTES, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

/** Hashes a password with a fresh random salt (off the event loop). */
export async function hashPassword(plain: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(plain, salt);
  return `scrypt$${salt.toString('base64')}$${key.toString('base64')}`;
}

/** A bcrypt hash as Strapi's users-permissions stores them (bcryptjs, `$2a$10$...`). */
const BCRYPT_HASH = /^\$2[aby]\$\d{2}\$[./A-Za-z0-9]{53}$/;

/** Whether a password matches a stored hash; keys are compared in constant time. */
export async function verifyPassword(plain: string, stored: string | null): Promise<boolean> {
  // Users imported from a Strapi archive keep Strapi's bcrypt hashes ($2a$/$2b$/$2y$): they still log in.
  if (stored !== null && BCRYPT_HASH.test(stored)) return bcrypt.compare(plain, stored);
  const parts = (stored ?? '').split('$');
  if (parts.length !== 3 || parts[0] !== 'scrypt' || !parts[1] || !parts[2]) return false;
  const expected = Buffer.from(parts[2], 'base64');
  if (expected.length !== KEY_BYTES) return false;
  const actual = await derive(plain, Buffer.from(parts[1], 'base64'));
  return timingSafeEqual(actual, expected);
}
