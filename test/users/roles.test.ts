import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DataDir } from '../../server/data-dir.js';
import { openTestDataDir } from '../helpers/database.js';
import { AppError } from '../../server/errors/app-error.js';
import { loadProject } from '../../server/schema/load.js';
import { USERS_PERMISSIONS } from '../../server/users/models.js';
import { buildRegistry, type Registry } from '../../server/schema/registry.js';
import { actionGroups } from '../../server/users/actions.js';
import { roleTypeOf } from '../../server/users/role-input.js';
import { createRoleService, type RoleService } from '../../server/users/roles.js';
import { collection, writeProject } from '../helpers/project.js';

/** The roles service on a real data dir: defaults, custom roles, permission sets, deletion. */

let dataDir = '';
let dir: DataDir;
let registry: Registry;
let roles: RoleService;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'hearth-roles-'));
  dir = await openTestDataDir(dataDir);
  registry = buildRegistry(await loadProject(await writeProject({ types: { article: collection('article', 'articles', { title: { type: 'string' } }) } }), USERS_PERMISSIONS));
  roles = createRoleService({ db: dir.database.db, permissions: dir.permissions, now: () => new Date(Date.UTC(2026, 0, 2)), registry: () => registry });
  await roles.ensureDefaults();
});
afterAll(async () => {
  await dir.database.close();
  await rm(dataDir, { recursive: true, force: true });
});

/** The error a promise rejects with, as the envelope's error object. */
async function failure(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof AppError) return err.toBody().error;
    throw err;
  }
  throw new Error('expected a failure');
}

describe('built-in roles', () => {
  it('are created once, with Strapi\'s names and default permissions', async () => {
    await roles.ensureDefaults();
    const list = await roles.list();
    expect(list.map((r) => [r.type, r.name, r.description, r.nb_users])).toEqual([
      ['public', 'Public', 'Default role given to unauthenticated user.', 0],
      ['authenticated', 'Authenticated', 'Default role given to authenticated user.', 0],
    ]);
    expect(await dir.permissions.list('public')).toEqual(
      [
        'plugin::users-permissions.auth.callback',
        'plugin::users-permissions.auth.connect',
        'plugin::users-permissions.auth.emailConfirmation',
        'plugin::users-permissions.auth.forgotPassword',
        'plugin::users-permissions.auth.refresh',
        'plugin::users-permissions.auth.register',
        'plugin::users-permissions.auth.resetPassword',
        'plugin::users-permissions.auth.sendEmailConfirmation',
      ],
    );
    expect(await dir.permissions.list('authenticated')).toEqual([
      'plugin::users-permissions.auth.changePassword',
      'plugin::users-permissions.auth.getSessions',
      'plugin::users-permissions.auth.logout',
      'plugin::users-permissions.auth.revokeSession',
      'plugin::users-permissions.user.me',
    ]);
  });

  it('keep a revoked default revoked across restarts', async () => {
    await dir.permissions.revoke('public', ['plugin::users-permissions.auth.register']);
    await roles.ensureDefaults();
    expect(await dir.permissions.list('public')).not.toContain('plugin::users-permissions.auth.register');
    await dir.permissions.grant('public', ['plugin::users-permissions.auth.register']);
  });

  it('cannot be deleted', async () => {
    for (const type of ['public', 'authenticated']) {
      const role = await roles.byType(type);
      expect(await failure(roles.remove(Number(role?.id)))).toEqual({ status: 400, name: 'ApplicationError', message: `Cannot delete ${type} role`, details: {} });
    }
  });
});

describe('custom roles', () => {
  it('derive their type from their name, as Strapi does', () => {
    expect(roleTypeOf('Éditeurs en chef')).toBe('editeurs_en_chef');
    expect(roleTypeOf('  Team-Leads 2 ')).toBe('team_leads_2');
  });

  it('are created with a permission set that update replaces whole', async () => {
    const created = await roles.create({ name: 'Editors', description: 'Write posts', permissions: ['api::article.article.find', 'api::article.article.create'] });
    expect(created).toMatchObject({ name: 'Editors', description: 'Write posts', type: 'editors', permissions: ['api::article.article.create', 'api::article.article.find'] });
    const updated = await roles.update(created.id, { name: 'Chief editors', permissions: ['plugin::upload.content-api.upload'] });
    expect(updated).toMatchObject({ name: 'Chief editors', type: 'editors', description: 'Write posts', permissions: ['plugin::upload.content-api.upload'] });
    expect((await roles.list()).map((r) => r.type)).toEqual(['public', 'authenticated', 'editors']);
  });

  it('refuse a taken name, a short name and unknown action names, naming each', async () => {
    expect(await failure(roles.create({ name: 'editors' }))).toEqual({
      status: 400,
      name: 'ValidationError',
      message: 'Name already taken',
      details: { errors: [{ path: ['name'], message: 'Name already taken', name: 'ValidationError' }] },
    });
    expect(await failure(roles.create({ name: 'ab', permissions: ['api::article.article.find', 'api::nope.nope.find', 'bad'] }))).toEqual({
      status: 400,
      name: 'ValidationError',
      message: '3 errors occurred',
      details: {
        errors: [
          { path: ['name'], message: 'name must be at least 3 characters', name: 'ValidationError' },
          { path: ['permissions', 1], message: 'Unknown action: api::nope.nope.find', name: 'ValidationError' },
          { path: ['permissions', 2], message: 'Unknown action: bad', name: 'ValidationError' },
        ],
      },
    });
    expect(await failure(roles.get(9999))).toEqual({ status: 404, name: 'NotFoundError', message: 'Role not found', details: {} });
  });

  it('on deletion hand their users to the public role and forget their permissions', async () => {
    const role = await roles.create({ name: 'Temporary', permissions: ['api::article.article.find'] });
    const at = new Date().toISOString();
    const user = await dir.database.db
      .insertInto('up_users')
      .values({ documentId: 'u1aaaaaaaaaaaaaaaaaaaaaa', username: 'temp', email: 't@example.com', provider: 'local', confirmed: 1, blocked: 0, createdAt: at, updatedAt: at, publishedAt: at })
      .returning('id')
      .executeTakeFirstOrThrow();
    await roles.assign(Number(user.id), role.id);
    expect((await roles.list()).find((r) => r.type === 'temporary')?.nb_users).toBe(1);
    expect(await roles.remove(role.id)).toMatchObject({ type: 'temporary', permissions: ['api::article.article.find'] });
    expect((await roles.ofUser(Number(user.id)))?.type).toBe('public');
    expect(await dir.permissions.list('temporary')).toEqual([]);
  });
});

describe('the action catalogue', () => {
  it('lists content types, then upload, then users & permissions', () => {
    const groups = actionGroups(registry);
    expect(groups.map((g) => g.uid)).toEqual([
      'api::article.article',
      'plugin::upload.content-api',
      'plugin::users-permissions.auth',
      'plugin::users-permissions.user',
      'plugin::users-permissions.role',
      'plugin::users-permissions.permissions',
    ]);
    expect(groups[0]).toEqual({
      uid: 'api::article.article',
      displayName: 'article',
      kind: 'collectionType',
      actions: ['find', 'findOne', 'create', 'update', 'delete'].map((a) => `api::article.article.${a}`),
    });
  });
});
