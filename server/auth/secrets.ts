import { randomBytes } from 'node:crypto';
import { readFile, writeFile, rename } from 'node:fs/promises';
import { join } from 'node:path';

/** Per-install secrets, kept in `<data>/secrets.json` (mode 0600) and carried by export/import. */
export interface Secrets {
  /** Key of the HMAC that API tokens are stored under. */
  readonly apiTokenSalt: string;
  /** Signs end-user JWTs (users & permissions). */
  readonly jwtSecret: string;
  /** Signs admin session tokens. */
  readonly adminJwtSecret: string;
}

const KEYS: readonly (keyof Secrets)[] = ['apiTokenSalt', 'jwtSecret', 'adminJwtSecret'];

/** Reads the data dir's secrets, creating any that are missing (atomically, readable by the owner only). */
export async function loadSecrets(dataDir: string): Promise<Secrets> {
  const file = join(dataDir, 'secrets.json');
  let stored: Partial<Record<keyof Secrets, unknown>> = {};
  try {
    stored = JSON.parse(await readFile(file, 'utf8')) as typeof stored;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw new Error(`cannot read ${file}: ${(err as Error).message}`, { cause: err });
  }
  const secrets: Record<string, string> = {};
  let changed = false;
  for (const key of KEYS) {
    const value = stored[key];
    if (typeof value === 'string' && value.length >= 32) {
      secrets[key] = value;
    } else {
      secrets[key] = randomBytes(32).toString('base64url');
      changed = true;
    }
  }
  if (changed) {
    const temporary = `${file}.${process.pid}.tmp`;
    await writeFile(temporary, `${JSON.stringify({ ...stored, ...secrets }, null, 2)}\n`, { mode: 0o600 });
    await rename(temporary, file);
  }
  return secrets as unknown as Secrets;
}
