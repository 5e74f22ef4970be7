import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCHEMA_SET_KEY, SCHEMA_SET_VERSION_KEY } from '../../server/db/schema-version.js';
import { META_TABLE } from '../../server/db/system-tables.js';
import { registerOwner } from '../admin/helpers.js';
import { runInProcess } from './helpers.js';
import { databaseEnvFor, dropDatabaseFor, onPostgres } from '../helpers/database.js';
import { collection, expectJson, writeProject } from '../helpers/project.js';
import { startTestServer } from '../helpers/server.js';

/**
 * Team mode (issue 22, item 2) and backups: `hearth import` restores the archive's tables and its
 * schemas folder; the restored folder is the truth of those tables, so the PostgreSQL team's
 * versioned schema set (hearth_meta.schema_set*) is not carried over. The first PostgreSQL start
 * on the restored database writes the restored folder as version 1.
 */

const dirs: string[] = [];
let root: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'hearth-team-schema-restore-'));
  dirs.push(join(root, 'source'), join(root, 'again'));
});

afterAll(async () => {
  if (onPostgres()) for (const dir of dirs) await dropDatabaseFor(dir);
  await rm(root, { recursive: true, force: true });
});

describe('a restored PostgreSQL archive', () => {
  it('carries no schema set: the restored folder becomes the database’s version 1 at the first start, with the restored types served', async () => {
    const source = join(root, 'source');
    const note = (attributes: Record<string, unknown>) => collection('note', 'notes', { title: { type: 'string' }, ...attributes });
    const server = await startTestServer({ dataDir: source, schemas: await writeProject({ types: { note: note({}) } }) });
    const session = await registerOwner(server);
    // A builder change: the source database's set is at version 2 when exported.
    await expectJson(
      await server.request('/admin/api/content-types/api::note.note', {
        method: 'PUT',
        token: session,
        json: { contentType: note({ rank: { type: 'integer' } }) },
      }),
      200,
    );
    expect(server.server.services.schemas.stamp()?.version).toBe(2);
    const token = await server.token('full-access');
    await expectJson(await server.request('/api/notes', { method: 'POST', token, json: { data: { title: 'kept', rank: 3 } } }), 201);
    const file = join(root, 'team.tar.gz');
    expect(await runInProcess(['export', '--file', file, '--data', source], await databaseEnvFor(source))).toMatchObject({ code: 0 });
    await server.close();

    const again = join(root, 'again');
    expect(await runInProcess(['import', '--file', file, '--data', again], await databaseEnvFor(again))).toMatchObject({ code: 0 });
    // Served with the restored schemas folder (the data dir's `schema`), as `hearth serve` after an import.
    const restored = await startTestServer({ dataDir: again, schemas: join(again, 'schema') });
    try {
      expect(restored.logs.some((line) => line.includes('the database had no schema set') && line.includes('is its version 1'))).toBe(true);
      expect(restored.server.services.schemas.stamp()?.version).toBe(1);
      const rows = await restored.server.services.database.db
        .selectFrom(META_TABLE)
        .select(['key', 'value'])
        .where('key', 'in', [SCHEMA_SET_KEY, SCHEMA_SET_VERSION_KEY])
        .execute();
      expect(rows.find((r) => r.key === SCHEMA_SET_VERSION_KEY)?.value).toMatch(/^1:/);
      const { data } = await expectJson<{ data: { title: string; rank: number }[] }>(await restored.request('/api/notes', { token }), 200);
      expect(data).toMatchObject([{ title: 'kept', rank: 3 }]);
    } finally {
      await restored.close();
    }
  });
});
