import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { answerOf, breach, createFingerprint, fuzzOptions, FUZZ_TIMEOUT_MS } from './checks.js';
import { hostileQuery } from './hostile-query.js';
import { seedFixture, type Seeded } from './seed.js';

/**
 * Hostile query strings against the content API's read routes (lists, single documents, a
 * single type) and deletes of documents that do not exist: never a 5xx, always JSON, always
 * Strapi's error envelope on failure, and a delete of nothing leaves the database as it was.
 */

let server: TestServer;
let seeded: Seeded;
let fingerprint: ReturnType<typeof createFingerprint>;

beforeAll(async () => {
  server = await startTestServer();
  seeded = await seedFixture(server);
  fingerprint = createFingerprint(server.server.services.database);
});
afterAll(() => server.close());

const PLURALS = ['articles', 'categories', 'tags', 'specimens'] as const;

/** Where a case goes: a list, an existing or made-up document, the single type. */
const route = fc.oneof(
  fc.constantFrom(...PLURALS).map((p) => `/api/${p}`),
  fc.tuple(fc.constantFrom(...PLURALS), fc.nat()).map(([p, i]) => {
    const ids = seeded.documentIds[p];
    return `/api/${p}/${ids[i % ids.length] ?? 'none'}`;
  }),
  fc.constant('/api/homepage'),
  fc.constantFrom('/api/articles/does-not-exist', '/api/articles/%00', '/api/articles/..%2F..', '/api/tags/0'),
);

/** Whose request it is: mostly full access, sometimes read-only, anonymous or a forged token. */
const auth = fc.constantFrom('full', 'full', 'full', 'full', 'read', 'none', 'forged');
const tokenOf = (who: string): string | undefined => (who === 'full' ? seeded.token : who === 'read' ? seeded.readOnly : who === 'forged' ? 'x'.repeat(64) : undefined);

describe('fuzzing the content API with hostile query strings', { timeout: FUZZ_TIMEOUT_MS }, () => {
  it('reads answer with JSON and the error envelope, never a 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(route, hostileQuery, auth, fc.boolean(), async (path, query, who, v4) => {
        const headers: Record<string, string> = v4 ? { 'Strapi-Response-Format': 'v4' } : {};
        const token = tokenOf(who);
        const answer = await answerOf(await server.request(`${path}?${query}`, { headers, ...(token ? { token } : {}) }));
        expect(breach(answer), `GET ${path}?${query}`).toBeNull();
      }),
      fuzzOptions(0.45),
    );
  });

  it('deletes of documents that do not exist answer with the envelope and change nothing', async () => {
    const target = fc.constantFrom('/api/articles/nope', '/api/categories/nope', '/api/tags/nope', '/api/specimens/nope');
    await fc.assert(
      fc.asyncProperty(target, hostileQuery, auth, async (path, query, who) => {
        const before = await fingerprint.take();
        const token = tokenOf(who);
        const answer = await answerOf(await server.request(`${path}?${query}`, { method: 'DELETE', ...(token ? { token } : {}) }));
        // Strapi answers 204 for a document that does not exist (transcript 162): either way nothing changes.
        expect(breach(answer), `DELETE ${path}?${query}`).toBeNull();
        expect(await fingerprint.take(), `DELETE ${path}?${query} changed the database`).toBe(before);
      }),
      fuzzOptions(0.05),
    );
  });
});
