import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseEnvFor, openTestDataDir } from '../helpers/database.js';
import { loadProject } from '../../server/schema/load.js';
import { USERS_PERMISSIONS } from '../../server/users/models.js';
import { buildRegistry } from '../../server/schema/registry.js';
import { createRoleService } from '../../server/users/roles.js';
import { runHearth } from '../helpers/cli.js';
import { FIXTURE_PROJECT } from '../helpers/server.js';

/** `hearth permissions grant --role <type>`: the built-in roles and custom ones made with the admin API. */

let data = '';
beforeAll(async () => {
  data = await mkdtemp(join(tmpdir(), 'hearth-cli-roles-'));
});
afterAll(() => rm(data, { recursive: true, force: true }));

async function permissionsOf(role: string): Promise<string[]> {
  const dir = await openTestDataDir(data);
  try {
    return await dir.permissions.list(role);
  } finally {
    await dir.database.close();
  }
}

describe('hearth permissions grant --role', () => {
  it('grants to the authenticated role on a data dir never served (the built-in roles are made first)', async () => {
    const result = await runHearth(['permissions', 'grant', '--role', 'authenticated', '--actions', 'api::tag.tag.find', '--data', data], await databaseEnvFor(data));
    expect(result).toMatchObject({ code: 0, stdout: '' });
    expect(await permissionsOf('authenticated')).toContain('api::tag.tag.find');
    expect(await permissionsOf('authenticated')).toContain('plugin::users-permissions.user.me');
  });

  it('refuses a role type no role has, with a usage error (exit 2)', async () => {
    const result = await runHearth(['permissions', 'grant', '--role', 'editors', '--actions', 'api::tag.tag.find', '--data', data], await databaseEnvFor(data));
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('hearth: --role must be public or authenticated, or the type of a role made with the admin API ("editors" is none)\n');
  });

  it('grants to a custom role by its type, warning about actions that name no content type', async () => {
    const dir = await openTestDataDir(data);
    try {
      const registry = buildRegistry(await loadProject(FIXTURE_PROJECT, USERS_PERMISSIONS));
      await createRoleService({ db: dir.database.db, permissions: dir.permissions, now: () => new Date(), registry: () => registry }).create({ name: 'Editors' });
    } finally {
      await dir.database.close();
    }
    const result = await runHearth(['permissions', 'grant', '--role', 'editors', '--actions', 'api::tag.tag.find,api::nope.nope.find', '--schemas', FIXTURE_PROJECT, '--data', data], await databaseEnvFor(data));
    expect(result.code).toBe(0);
    expect(result.stderr).toBe(`warning: api::nope.nope.find names no content-type in ${FIXTURE_PROJECT}\n`);
    expect(await permissionsOf('editors')).toEqual(['api::nope.nope.find', 'api::tag.tag.find']);
  });
});
