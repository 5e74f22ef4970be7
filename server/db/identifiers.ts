import { createHash } from 'node:crypto';
import { MAX_IDENTIFIER_LENGTH } from '../limits.js';

/**
 * A deterministic SQL identifier of at most MAX_IDENTIFIER_LENGTH characters: long names keep
 * a readable prefix and end in a short hash, so SQLite and PostgreSQL use the very same names.
 */
export function identifier(name: string): string {
  if (name.length <= MAX_IDENTIFIER_LENGTH) return name;
  const hash = createHash('sha1').update(name).digest('hex').slice(0, 8);
  return `${name.slice(0, MAX_IDENTIFIER_LENGTH - 9)}_${hash}`;
}
