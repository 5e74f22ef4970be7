import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

/** The recorded Strapi 5.54 webhook deliveries and admin API exchanges, kept in test/fixtures/strapi/webhooks (see its README). */
const DIR = resolve(import.meta.dirname, '../fixtures/strapi/webhooks');

export interface RecordedDelivery {
  readonly webhookUrlPath: string;
  readonly method: string;
  readonly headers: Record<string, string>;
  readonly body: Record<string, unknown>;
}

export interface RecordedStep {
  readonly step: string;
  readonly receiver: string;
  readonly request: { method: string; path: string; body?: unknown };
  readonly response: { status: number; body?: unknown };
  readonly deliveries: RecordedDelivery[];
}

export interface RecordedExchange {
  readonly note: string;
  readonly request: { method: string; path: string; body?: unknown };
  readonly response: { status: number; body: unknown };
}

const lines = <T>(file: string): T[] =>
  readFileSync(resolve(DIR, file), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as T);

export const recordedSteps = (): RecordedStep[] => lines<RecordedStep>('deliveries.jsonl');
export const recordedAdminApi = (): RecordedExchange[] => lines<RecordedExchange>('admin-api.jsonl');

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
/** Values that differ from run to run: file hashes and the names built from them. */
const VOLATILE = new Set(['hash', 'url']);

/**
 * A body with what differs between two runs replaced: timestamps by `<time>`, documentIds by the
 * order they first appear (`<doc 1>`, ...), file hashes and URLs by `<file>`, component row ids
 * by `<component id>`. Key order is kept.
 */
export function normalise(value: unknown): unknown {
  const docs = new Map<string, string>();
  const walk = (v: unknown, key: string | null): unknown => {
    if (Array.isArray(v)) return v.map((x) => walk(x, null));
    if (v !== null && typeof v === 'object') {
      const out: Record<string, unknown> = {};
      // A component's row id (an object without documentId) is Hearth's own numbering.
      const component = !('documentId' in v);
      for (const [k, x] of Object.entries(v)) out[k] = component && k === 'id' ? '<component id>' : walk(x, k);
      return out;
    }
    if (typeof v === 'string' && ISO.test(v)) return '<time>';
    if (key === 'documentId' && typeof v === 'string') {
      if (!docs.has(v)) docs.set(v, `<doc ${docs.size + 1}>`);
      return docs.get(v);
    }
    if (key !== null && VOLATILE.has(key) && typeof v === 'string') return '<file>';
    return v;
  };
  return walk(value, null);
}

/** Collects recorded documentId -> ours from two bodies of the same shape (the same event). */
export function learnIds(expected: unknown, actual: unknown, into: Map<string, string>): void {
  if (Array.isArray(expected) && Array.isArray(actual)) {
    expected.forEach((e, i) => learnIds(e, actual[i], into));
    return;
  }
  if (expected === null || actual === null || typeof expected !== 'object' || typeof actual !== 'object') return;
  const e = expected as Record<string, unknown>;
  const a = actual as Record<string, unknown>;
  if (typeof e.documentId === 'string' && typeof a.documentId === 'string' && !into.has(e.documentId)) into.set(e.documentId, a.documentId);
  for (const key of Object.keys(e)) learnIds(e[key], a[key], into);
}

/** Replaces recorded documentIds with ours in a path or a body. */
export function mapIds<T>(value: T, ids: ReadonlyMap<string, string>): T {
  let text = JSON.stringify(value);
  for (const [recorded, ours] of ids) text = text.split(recorded).join(ours);
  return JSON.parse(text) as T;
}
