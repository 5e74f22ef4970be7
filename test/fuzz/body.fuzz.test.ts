import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { answerOf, breach, createFingerprint, fuzzOptions, FUZZ_TIMEOUT_MS } from './checks.js';
import { hostileBody, type HostileBody } from './hostile-body.js';
import { hostileQuery } from './hostile-query.js';
import { seedFixture, type Seeded } from './seed.js';

/**
 * Random and hostile bodies (well-formed writes, random JSON, broken JSON, other content types)
 * POSTed and PUT at collection types and the single type: never a 5xx, always JSON, always the
 * error envelope on failure, and a rejected write leaves every table exactly as it was.
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

/** The attributes of each write target, from the fixture project's schemas. */
const ATTRIBUTES: Readonly<Record<string, readonly string[]>> = {
  articles: ['title', 'slug', 'body', 'summary', 'views', 'rating', 'featured', 'publishDate', 'cover', 'gallery', 'category', 'tags', 'seo', 'blocks'],
  categories: ['name', 'articles'],
  tags: ['label'],
  specimens: [
    's_string', 's_text', 's_richtext', 's_blocks', 's_email', 's_password', 's_uid', 's_enum', 's_int', 's_bigint', 's_float', 's_decimal', 's_bool',
    's_date', 's_time', 's_datetime', 's_timestamp', 's_json', 's_regex', 's_required', 's_unique', 's_private', 's_default', 's_comp', 's_media',
  ],
  homepage: ['headline', 'hero'],
};
const PLURALS = ['articles', 'categories', 'tags', 'specimens'] as const;

/** A write (create, update of an existing document, or the single type) and a body aimed at its type. */
function writes(): fc.Arbitrary<{ method: string; path: string; body: HostileBody }> {
  const ids = Object.values(seeded.documentIds).flat();
  const withBody = (method: string, path: string, type: string) => hostileBody(ATTRIBUTES[type] ?? [], ids).map((body) => ({ method, path, body }));
  return fc.oneof(
    fc.constantFrom(...PLURALS).chain((p) => withBody('POST', `/api/${p}`, p)),
    fc.tuple(fc.constantFrom(...PLURALS), fc.nat()).chain(([p, i]) => {
      const list = seeded.documentIds[p];
      return withBody('PUT', `/api/${p}/${list[i % list.length] ?? 'none'}`, p);
    }),
    withBody('PUT', '/api/homepage', 'homepage'),
  );
}

/** Mostly no query, else a plausible one, else a hostile one. */
const query = fc.oneof(
  { weight: 6, arbitrary: fc.constant('') },
  { weight: 3, arbitrary: fc.constantFrom('status=draft', 'locale=fr', 'locale=xx', 'locale=*', 'populate=*', 'fields=title', 'status=published&locale=fr') },
  { weight: 1, arbitrary: hostileQuery },
);

const auth = fc.constantFrom('full', 'full', 'full', 'full', 'full', 'read', 'none');

describe('fuzzing content-API writes with hostile bodies', { timeout: FUZZ_TIMEOUT_MS }, () => {
  it('answers with JSON and the error envelope, never a 5xx, and rejected writes change nothing', async () => {
    await fc.assert(
      fc.asyncProperty(writes(), query, auth, async ({ method, path, body }, q, who) => {
        const url = q === '' ? path : `${path}?${q}`;
        const before = await fingerprint.take();
        const headers: Record<string, string> = body.contentType === null ? {} : { 'Content-Type': body.contentType };
        const token = who === 'full' ? seeded.token : who === 'read' ? seeded.readOnly : undefined;
        // A Blob body keeps fetch from adding a content type of its own when none is wanted.
        const payload = body.contentType === null ? new Blob([body.text]) : body.text;
        const answer = await answerOf(await server.request(url, { method, headers, body: payload, ...(token ? { token } : {}) }));
        const label = `${method} ${url} [${body.contentType}] ${body.text.slice(0, 400)}`;
        expect(breach(answer), label).toBeNull();
        if (answer.status >= 400) expect(await fingerprint.take(), `${label} changed the database: ${answer.text.slice(0, 300)}`).toBe(before);
      }),
      fuzzOptions(0.35),
    );
  });
});
