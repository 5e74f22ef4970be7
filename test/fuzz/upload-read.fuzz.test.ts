import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { answerOf, breach, fuzzOptions, FUZZ_TIMEOUT_MS } from './checks.js';
import { hostileQuery } from './hostile-query.js';
import { seedFixture, type Seeded } from './seed.js';

/**
 * Hostile query strings and ids against the upload plugin's read routes (the bare list, the
 * paginated list, one file): never a 5xx, always JSON, always the error envelope on failure.
 */

let server: TestServer;
let seeded: Seeded;

beforeAll(async () => {
  server = await startTestServer();
  seeded = await seedFixture(server);
});
afterAll(() => server.close());

const ODD_IDS = ['0', '-1', '1.5', '1e3', '99999999999999999999', 'abc', '%00', '%ZZ', '..%2F..', '__proto__', '%E2%82', '1%20OR%201%3D1'];

const route = fc.oneof(
  fc.constantFrom('/api/upload/files', '/api/upload/files/page'),
  fc.nat().map((i) => `/api/upload/files/${seeded.fileIds[i % seeded.fileIds.length] ?? 1}`),
  fc.constantFrom(...ODD_IDS).map((id) => `/api/upload/files/${id}`),
);

const auth = fc.constantFrom('full', 'full', 'full', 'read', 'none');

describe('fuzzing the upload API read routes with hostile query strings', { timeout: FUZZ_TIMEOUT_MS }, () => {
  it('answers with JSON and the error envelope, never a 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(route, hostileQuery, auth, async (path, query, who) => {
        const token = who === 'full' ? seeded.token : who === 'read' ? seeded.readOnly : undefined;
        const answer = await answerOf(await server.request(`${path}?${query}`, token ? { token } : {}));
        expect(breach(answer), `GET ${path}?${query}`).toBeNull();
      }),
      fuzzOptions(0.15),
    );
  });
});
