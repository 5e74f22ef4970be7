import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCHEMA_POLL_MS } from '../../server/limits.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

/**
 * Team mode reads the database's schema-set version every SCHEMA_POLL_MS (schema/schema-follow.ts).
 * That poll runs on the LISTEN connection, not on the pool the requests use: an idle server runs
 * no statement of its own between requests, so statement counts stay what requests ran (the
 * statement-count tests read them) and the pool's connections stay free for requests. On SQLite
 * (no poll) the same holds.
 */
describe('an idle server', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('runs no statement on the server\'s connections across three schema-poll periods', async () => {
    // Let start-up work settle, then watch three poll periods.
    await new Promise((resolve) => setTimeout(resolve, SCHEMA_POLL_MS * 2));
    const before = server.server.services.database.queryCount();
    await new Promise((resolve) => setTimeout(resolve, SCHEMA_POLL_MS * 3 + 100));
    expect(server.server.services.database.queryCount() - before).toBe(0);
  });
});
