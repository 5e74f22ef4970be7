import { isRecord } from '../../server/errors/is-record.js';

/**
 * Transcript comparison: documentIds, the random part of file hashes and timestamps differ from
 * run to run, so the replay learns which of Hearth's documentIds and hashes stands for each
 * recorded one and blanks timestamps; everything else (ids, values, key order, error messages)
 * must match exactly.
 */
export class IdMap {
  private readonly map = new Map<string, string>();
  /** Recorded file hash -> Hearth's (`red_400x300_de6dc0e6d8` -> `red_400x300_<10 other hex>`). */
  private readonly hashes = new Map<string, string>();

  /** Learns recorded -> actual documentIds from two bodies of the same shape. */
  learn(expected: unknown, actual: unknown): void {
    if (Array.isArray(expected) && Array.isArray(actual)) {
      expected.forEach((e, i) => this.learn(e, actual[i]));
      return;
    }
    if (!isRecord(expected) || !isRecord(actual)) return;
    for (const [key, value] of Object.entries(expected)) {
      const other = actual[key];
      if (key === 'documentId' && typeof value === 'string' && typeof other === 'string') {
        const known = this.map.get(value);
        if (known === undefined) this.map.set(value, other);
      } else if (key === 'hash' && typeof value === 'string' && typeof other === 'string') {
        this.learnHash(value, other);
      } else {
        this.learn(value, other);
      }
    }
  }

  /** Only the 10 random hex digits may differ: the slug before them must be the same. */
  private learnHash(recorded: string, actual: string): void {
    const shape = /^(.*)_[0-9a-f]{10}$/;
    const [, recordedSlug] = shape.exec(recorded) ?? [];
    const [, actualSlug] = shape.exec(actual) ?? [];
    if (recordedSlug === undefined || recordedSlug !== actualSlug || this.hashes.has(recorded)) return;
    this.hashes.set(recorded, actual);
  }

  /** Replaces every recorded documentId and file hash in a text with Hearth's. */
  apply(text: string): string {
    let out = this.applyHashes(text);
    for (const [recorded, actual] of this.map) out = out.split(recorded).join(actual);
    return out;
  }

  /** Replaces recorded file hashes (in hashes, names and URLs) with Hearth's. */
  applyHashes(text: string): string {
    let out = text;
    for (const [recorded, actual] of this.hashes) out = out.split(recorded).join(actual);
    return out;
  }

  actualFor(recorded: string): string | undefined {
    return this.map.get(recorded);
  }
}

const TIMESTAMP_KEYS = new Set(['createdAt', 'updatedAt', 'publishedAt']);

/** Blanks non-null timestamps and maps documentIds and file hashes, keeping key order. */
export function normalize(value: unknown, ids: IdMap | null): unknown {
  if (Array.isArray(value)) return value.map((v) => normalize(v, ids));
  if (typeof value === 'string' && ids) return ids.applyHashes(value);
  if (!isRecord(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    if (TIMESTAMP_KEYS.has(key) && typeof v === 'string') out[key] = '<timestamp>';
    else if (key === 'documentId' && typeof v === 'string' && ids) out[key] = ids.actualFor(v) ?? v;
    else out[key] = normalize(v, ids);
  }
  return out;
}
