import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { localFilesWarning } from '../../server/db/instances.js';
import { INSTANCES_TABLE } from '../../server/db/system-tables.js';
import { databaseUrlFor, dropDatabaseFor, onPostgres } from '../helpers/database.js';
import { expectJson } from '../helpers/project.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { registerOwner } from '../admin/helpers.js';

/**
 * Team mode (issue 22, item 5): instances on one PostgreSQL database keep a heartbeat, and one
 * that stores uploads in its own folder warns, at start and in GET /admin/api/information, that
 * the other live instances cannot serve its files.
 */

const dirs: string[] = [];
const servers: TestServer[] = [];

async function newDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'hearth-instances-'));
  dirs.push(dir);
  return dir;
}

afterAll(async () => {
  for (const server of servers) await server.close();
  for (const dir of dirs) await dropDatabaseFor(dir);
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

async function warningsOf(server: TestServer, session: string): Promise<unknown> {
  return (await expectJson<{ data: { warnings: unknown } }>(await server.request('/admin/api/information', { token: session }), 200)).data.warnings;
}

describe('GET /admin/api/information warnings', () => {
  it('is empty for an instance alone on its database', async () => {
    const server = await startTestServer({ dataDir: await newDir() });
    servers.push(server);
    expect(await warningsOf(server, await registerOwner(server))).toEqual([]);
    expect(server.logs.join('\n')).not.toContain('cannot serve the files');
  });
});

if (onPostgres()) {
  describe('instances with the local upload provider on one PostgreSQL database', () => {
    it('warn at start and in the admin API while another is live, and stop once it has stopped', async () => {
      const url = await databaseUrlFor(await newDir());
      const start = async () => {
        const server = await startTestServer({ dataDir: await newDir(), database: 'sqlite', env: { DATABASE_URL: url ?? '' } });
        servers.push(server);
        return server;
      };
      const a = await start();
      expect(a.logs.join('\n')).not.toContain('cannot serve the files');
      const session = await registerOwner(a);
      expect(await warningsOf(a, session)).toEqual([]);
      const b = await start();
      expect(b.logs).toContain(`warning: ${localFilesWarning(1)}`);
      expect(await warningsOf(a, session)).toEqual([localFilesWarning(1)]);
      expect(await warningsOf(b, session)).toEqual([localFilesWarning(1)]);
      const c = await start();
      expect(await warningsOf(a, session)).toEqual([localFilesWarning(2)]);
      await c.close();
      await b.close();
      // Stopped instances remove their heartbeat: the one left is alone again.
      expect(await warningsOf(a, session)).toEqual([]);
      const rows = await a.server.services.database.db.selectFrom(INSTANCES_TABLE).select('id').execute();
      expect(rows.map((r) => r.id)).toEqual([a.server.services.instances.id]);
    });
  });
}
