import { rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServeProcess } from '../helpers/cli.js';
import { call, checkDatabase, freshDataDir, fullAccessToken, serveOn, stopGracefully } from './helpers.js';

/**
 * A real `hearth serve` child process takes creates and updates over HTTP, 8 in flight, and is
 * killed with SIGKILL in the middle of them. Restarted on the same data dir, it must hold every
 * acknowledged (2xx) write with the acknowledged content (or, for a document whose next update
 * was in flight, that update's content), and its database must pass `PRAGMA integrity_check`.
 * Runs the compiled CLI: `npm test` builds dist/ first.
 */

const IN_FLIGHT = 8;
const KILL_AFTER_ACKS = 300;

type Plural = 'tags' | 'categories' | 'articles';

/** A write's data, and what reading the document back must show for it. */
interface Sent {
  readonly data: Record<string, unknown>;
  readonly expected: Record<string, unknown>;
}

/** One document the load created: its last acknowledged content and the update in flight, if any. */
interface Tracked {
  readonly plural: Plural;
  readonly documentId: string;
  acked: Sent;
  pending: Sent | null;
}

const POPULATE: Record<Plural, string> = { tags: '', categories: '', articles: '?populate[seo]=true&populate[tags]=true&populate[category]=true' };

/** The comparable view of a document as the API prints it. */
function viewOf(plural: Plural, doc: Record<string, unknown>): Record<string, unknown> {
  if (plural === 'tags') return { label: doc.label };
  if (plural === 'categories') return { name: doc.name };
  const seo = doc.seo as { metaTitle?: unknown } | null;
  const category = doc.category as { documentId?: unknown } | null;
  const tags = (doc.tags as { documentId: string }[] | undefined) ?? [];
  return { title: doc.title, views: doc.views, seo: seo?.metaTitle ?? null, category: category?.documentId ?? null, tags: tags.map((t) => t.documentId).sort() };
}

let dataDir: string;
let token: string;
let serve: ServeProcess;
const tracked: Tracked[] = [];
let inFlightAtKill = 0;

/** The load: each worker creates documents and updates its own (one writer per document, so "last acknowledged" is well defined). */
async function runLoad(base: string, onAck: () => boolean): Promise<void> {
  let serial = 0;
  let inFlight = 0;
  let stop = false;
  const ackedOf = (plural: Plural) => tracked.filter((t) => t.plural === plural);

  function nextWrite(worker: number, step: number, own: Tracked[]): { method: string; path: string; sent: Sent; target: Tracked | null } {
    const n = ++serial;
    const mine = own[step % Math.max(1, own.length)];
    if (step % 3 === 2 && mine) {
      const sent = contentFor(mine.plural, n, ackedOf);
      return { method: 'PUT', path: `/api/${mine.plural}/${mine.documentId}`, sent, target: mine };
    }
    const plural: Plural = (['tags', 'categories', 'articles', 'articles'] as const)[(worker + step) % 4] ?? 'tags';
    return { method: 'POST', path: `/api/${plural}`, sent: contentFor(plural, n, ackedOf), target: null };
  }

  async function worker(w: number): Promise<void> {
    const own: Tracked[] = [];
    for (let step = 0; !stop; step++) {
      const write = nextWrite(w, step, own);
      if (write.target) write.target.pending = write.sent;
      inFlight++;
      let status: number;
      let body: Record<string, unknown>;
      try {
        ({ status, body } = await call(base, token, write.method, write.path, write.sent.data));
      } catch {
        return; // The process died with this write in flight: it may or may not have committed.
      } finally {
        inFlight--;
      }
      if (status >= 300) throw new Error(`${write.method} ${write.path} answered ${status}: ${JSON.stringify(body)}`);
      const doc = body.data as { documentId: string };
      if (write.target) {
        write.target.acked = write.sent;
        write.target.pending = null;
      } else {
        const entry: Tracked = { plural: write.path.split('/')[2] as Plural, documentId: doc.documentId, acked: write.sent, pending: null };
        tracked.push(entry);
        own.push(entry);
      }
      if (!stop && onAck()) {
        stop = true;
        inFlightAtKill = inFlight;
      }
    }
  }

  await Promise.all(Array.from({ length: IN_FLIGHT }, (_, w) => worker(w)));
}

/** Content for a create or update: unique text, and for articles a component and relations to acknowledged documents. */
function contentFor(plural: Plural, n: number, acked: (p: Plural) => Tracked[]): Sent {
  if (plural === 'tags') return { data: { label: `tag ${n}` }, expected: { label: `tag ${n}` } };
  if (plural === 'categories') return { data: { name: `category ${n}` }, expected: { name: `category ${n}` } };
  const tags = acked('tags').slice(-2).map((t) => t.documentId);
  const category = acked('categories').at(-1)?.documentId ?? null;
  return {
    data: { title: `article ${n}`, views: n, seo: { metaTitle: `seo ${n}` }, tags, category },
    expected: { title: `article ${n}`, views: n, seo: `seo ${n}`, category, tags: [...tags].sort() },
  };
}

beforeAll(async () => {
  dataDir = await freshDataDir('crash-writes');
  token = await fullAccessToken(dataDir);
  serve = await serveOn(dataDir);
});
afterAll(async () => {
  serve.child.kill('SIGKILL');
  await rm(dirname(dataDir), { recursive: true, force: true });
});

describe('SIGKILL during concurrent writes', () => {
  it('keeps every acknowledged write, with its content, in a database that passes integrity_check', async () => {
    let acks = 0;
    const killed = runLoad(serve.url, () => {
      if (++acks < KILL_AFTER_ACKS) return false;
      serve.child.kill('SIGKILL');
      return true;
    });
    await killed;
    await serve.exited;
    expect(acks).toBeGreaterThanOrEqual(KILL_AFTER_ACKS);
    // The kill landed mid-load: other writes were on the wire.
    expect(inFlightAtKill).toBeGreaterThan(0);

    serve = await serveOn(dataDir);
    const missing: string[] = [];
    for (const doc of tracked) {
      const { status, body } = await call(serve.url, token, 'GET', `/api/${doc.plural}/${doc.documentId}${POPULATE[doc.plural]}`);
      if (status !== 200) {
        missing.push(`${doc.plural}/${doc.documentId}: ${status}`);
        continue;
      }
      const view = viewOf(doc.plural, body.data as Record<string, unknown>);
      const allowed = [doc.acked.expected, ...(doc.pending ? [doc.pending.expected] : [])];
      if (!allowed.some((e) => JSON.stringify(e) === JSON.stringify(view))) missing.push(`${doc.plural}/${doc.documentId}: ${JSON.stringify(view)} is none of ${JSON.stringify(allowed)}`);
    }
    expect(missing).toEqual([]);
    // The restarted server takes writes again.
    expect((await call(serve.url, token, 'POST', '/api/tags', { label: 'after the crash' })).status).toBe(201);

    expect(await stopGracefully(serve)).toBe(0);
    expect(checkDatabase(dataDir)).toEqual({ integrity: [{ integrity_check: 'ok' }], foreignKeys: [] });
  });
});
