import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { collection, expectJson, writeProject } from '../helpers/project.js';
import { adminRequest, registerOwner, UNAUTHORIZED } from './helpers.js';

const DAY = 24 * 60 * 60 * 1000;
let clock = Date.UTC(2026, 3, 1, 12, 0, 0);
let server: TestServer;
let admin: ReturnType<typeof adminRequest>;

beforeAll(async () => {
  const schemas = await writeProject({
    types: {
      page: collection('page', 'pages', { title: { type: 'string', pluginOptions: { i18n: { localized: true } } } }, { localized: true }),
    },
  });
  server = await startTestServer({ schemas, now: () => new Date(clock) });
  admin = adminRequest(server, await registerOwner(server));
});
afterAll(() => server.close());

type Token = Record<string, unknown> & { id: number; accessKey?: string };

describe('API tokens', () => {
  it('creates a token whose plaintext is shown once and works on the content API at once', async () => {
    const created = await expectJson<{ data: Token }>(
      await admin('/admin/api/api-tokens', { method: 'POST', json: { name: 'site', description: 'the website', type: 'read-only', lifespan: 7 * DAY } }),
      201,
    );
    const { accessKey, ...token } = created.data;
    expect(accessKey).toMatch(/^[0-9a-f]{256}$/);
    expect(token).toEqual({
      id: token.id,
      name: 'site',
      description: 'the website',
      type: 'read-only',
      permissions: [],
      lifespan: 7 * DAY,
      expiresAt: '2026-04-08T12:00:00.000Z',
      lastUsedAt: null,
      createdAt: '2026-04-01T12:00:00.000Z',
      updatedAt: '2026-04-01T12:00:00.000Z',
    });
    await expectJson(await server.request('/api/pages', { token: accessKey }), 200);
    const read = await expectJson<{ data: Token }>(await admin(`/admin/api/api-tokens/${token.id}`), 200);
    expect(read.data).not.toHaveProperty('accessKey');
    expect(read.data.lastUsedAt).toBe('2026-04-01T12:00:00.000Z');
    const listed = await expectJson<{ data: Token[] }>(await admin('/admin/api/api-tokens'), 200);
    expect(JSON.stringify(listed)).not.toContain(String(accessKey));
    expect(JSON.stringify(read)).not.toContain(String(accessKey));
  });

  it('lists tokens by name, refuses duplicates and bad input naming the field', async () => {
    await expectJson(await admin('/admin/api/api-tokens', { method: 'POST', json: { name: 'alpha', type: 'full-access' } }), 201);
    const names = (await expectJson<{ data: Token[] }>(await admin('/admin/api/api-tokens'), 200)).data.map((t) => t.name);
    expect(names).toEqual([...names].sort());
    expect(names).toContain('alpha');
    const error = (path: string[], message: string) => ({ data: null, error: { status: 400, name: 'ValidationError', message, details: { errors: [{ path, message, name: 'ValidationError' }] } } });
    expect(await expectJson(await admin('/admin/api/api-tokens', { method: 'POST', json: { name: 'alpha', type: 'read-only' } }), 400)).toEqual(error(['name'], 'Name already taken'));
    expect(await expectJson(await admin('/admin/api/api-tokens', { method: 'POST', json: { name: 'x', type: 'admin' } }), 400)).toEqual(
      error(['type'], 'type must be one of the following values: read-only, full-access, custom'),
    );
    expect(await expectJson(await admin('/admin/api/api-tokens', { method: 'POST', json: { name: 'x', type: 'custom' } }), 400)).toEqual(
      error(['permissions'], 'a custom token needs at least one action'),
    );
    expect(await expectJson(await admin('/admin/api/api-tokens', { method: 'POST', json: { name: 'x', type: 'custom', permissions: ['nope'] } }), 400)).toEqual(
      error(['permissions', '0'], 'permissions[0] is not an action name (e.g. api::article.article.find)'),
    );
    expect((await admin('/admin/api/api-tokens', { method: 'POST', json: { name: 'x', type: 'read-only', lifespan: 3 * DAY } })).status).toBe(400);
  });

  it('updates a custom token: its new actions apply at once', async () => {
    const { data } = await expectJson<{ data: Token }>(
      await admin('/admin/api/api-tokens', { method: 'POST', json: { name: 'custom', type: 'custom', permissions: ['api::page.page.find'] } }),
      201,
    );
    const key = String(data.accessKey);
    await expectJson(await server.request('/api/pages', { token: key }), 200);
    await expectJson(await server.request('/api/pages', { method: 'POST', token: key, json: { data: { title: 'x' } } }), 403);
    const updated = await expectJson<{ data: Token }>(
      await admin(`/admin/api/api-tokens/${data.id}`, { method: 'PUT', json: { name: 'custom-2', permissions: ['api::page.page.create'] } }),
      200,
    );
    expect(updated.data).toMatchObject({ name: 'custom-2', type: 'custom', permissions: ['api::page.page.create'] });
    await expectJson(await server.request('/api/pages', { token: key }), 403);
    await expectJson(await server.request('/api/pages', { method: 'POST', token: key, json: { data: { title: 'x' } } }), 201);
  });

  it('regenerates (the old plaintext stops working) and deletes (401 from then on)', async () => {
    const { data } = await expectJson<{ data: Token }>(await admin('/admin/api/api-tokens', { method: 'POST', json: { name: 'rotated', type: 'full-access' } }), 201);
    const old = String(data.accessKey);
    const regenerated = await expectJson<{ data: Token }>(await admin(`/admin/api/api-tokens/${data.id}/regenerate`, { method: 'POST' }), 200);
    const fresh = String(regenerated.data.accessKey);
    expect(fresh).not.toBe(old);
    expect(await expectJson(await server.request('/api/pages', { token: old }), 401)).toEqual(UNAUTHORIZED);
    await expectJson(await server.request('/api/pages', { token: fresh }), 200);
    const deleted = await expectJson<{ data: Token }>(await admin(`/admin/api/api-tokens/${data.id}`, { method: 'DELETE' }), 200);
    expect(deleted.data).toMatchObject({ id: data.id, name: 'rotated' });
    expect(deleted.data).not.toHaveProperty('accessKey');
    expect(await expectJson(await server.request('/api/pages', { token: fresh }), 401)).toEqual(UNAUTHORIZED);
    expect((await admin(`/admin/api/api-tokens/${data.id}`)).status).toBe(404);
    expect((await admin('/admin/api/api-tokens/abc')).status).toBe(404);
  });
});

describe('locales', () => {
  it('lists, adds, renames, changes the default and deletes locales (with their content)', async () => {
    const list = async () => (await expectJson<{ data: Record<string, unknown>[] }>(await admin('/admin/api/i18n/locales'), 200)).data;
    expect(await list()).toEqual([{ id: 1, code: 'en', name: 'English (en)', isDefault: true, createdAt: expect.any(String), updatedAt: expect.any(String) }]);
    clock += 60 * 1000;
    const fr = await expectJson<{ data: { id: number } }>(await admin('/admin/api/i18n/locales', { method: 'POST', json: { code: 'fr' } }), 201);
    expect(fr.data).toEqual({ id: 2, code: 'fr', name: 'French (fr)', isDefault: false, createdAt: '2026-04-01T12:01:00.000Z', updatedAt: '2026-04-01T12:01:00.000Z' });
    expect((await admin('/admin/api/i18n/locales', { method: 'POST', json: { code: 'fr' } })).status).toBe(400);
    expect((await admin('/admin/api/i18n/locales', { method: 'POST', json: { code: 'xx' } })).status).toBe(400);
    expect((await admin('/admin/api/i18n/locales', { method: 'POST', json: { code: 'not a code' } })).status).toBe(400);
    const renamed = await expectJson<{ data: Record<string, unknown> }>(await admin('/admin/api/i18n/locales/2', { method: 'PUT', json: { name: 'Français' } }), 200);
    expect(renamed.data).toMatchObject({ code: 'fr', name: 'Français', isDefault: false });

    const token = await server.token('full-access');
    const page = await expectJson<{ data: { documentId: string } }>(await server.request('/api/pages', { method: 'POST', token, json: { data: { title: 'Hello' } } }), 201);
    await expectJson(await server.request(`/api/pages/${page.data.documentId}?locale=fr`, { method: 'PUT', token, json: { data: { title: 'Bonjour' } } }), 200);

    await expectJson(await admin('/admin/api/i18n/locales/2', { method: 'PUT', json: { isDefault: true } }), 200);
    expect((await list()).map((l) => [l.code, l.isDefault])).toEqual([['en', false], ['fr', true]]);
    expect(await expectJson(await admin('/admin/api/i18n/locales/2', { method: 'DELETE' }), 400)).toEqual({
      data: null,
      error: { status: 400, name: 'ApplicationError', message: 'Cannot delete the default locale', details: {} },
    });
    await expectJson(await admin('/admin/api/i18n/locales/1', { method: 'PUT', json: { isDefault: true } }), 200);
    const locales = async () => (await server.server.services.database.db.selectFrom('pages').select('locale').where('documentId', '=', page.data.documentId).execute()).map((r) => r.locale);
    expect(await locales()).toEqual(['en', 'fr']);
    const removed = await expectJson<{ data: Record<string, unknown> }>(await admin('/admin/api/i18n/locales/2', { method: 'DELETE' }), 200);
    expect(removed.data).toMatchObject({ id: 2, code: 'fr' });
    expect((await list()).map((l) => l.code)).toEqual(['en']);
    expect(await locales()).toEqual(['en']);
    expect((await admin('/admin/api/i18n/locales/2', { method: 'DELETE' })).status).toBe(404);
  });
});
