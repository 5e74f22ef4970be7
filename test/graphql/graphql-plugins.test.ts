import { existsSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

/**
 * The plugin parts of `/graphql` the recorded transcripts do not cover: the media mutations on
 * disk, the users & permissions mutations' permissions, validation messages and rate limit (one
 * budget with REST), the user and role CRUD, and the `i18NLocales` filters, sort and pagination.
 */
type Json = Record<string, unknown>;
let server: TestServer;
let full: string;
let readOnly: string;
const clock = { now: Date.UTC(2026, 10, 1, 12, 0, 0) };
const MINUTE = 60_000;

beforeAll(async () => {
  server = await startTestServer({ now: () => new Date(clock.now) });
  full = await server.token('full-access');
  readOnly = await server.token('read-only');
  await server.server.services.locales.add({ code: 'fr' });
  await server.server.services.locales.add({ code: 'de' });
});

afterAll(async () => {
  await server.close();
});

const gql = async (query: string, auth: string | null = full, variables?: Json): Promise<{ status: number; body: Json }> => {
  const res = await server.request('/graphql', { method: 'POST', json: { query, ...(variables ? { variables } : {}) }, ...(auth ? { token: auth } : {}) });
  return { status: res.status, body: (await res.json()) as Json };
};
const errorOf = (body: Json) => (body.errors as Array<{ message: string; extensions: Json }>)[0];

async function upload(name: string): Promise<{ id: number; url: string }> {
  const form = new FormData();
  form.append('files', new Blob(['some text'], { type: 'text/plain' }), name);
  const res = await server.request('/api/upload', { method: 'POST', token: full, body: form });
  const [made] = (await res.json()) as Array<{ id: number; url: string }>;
  if (!made) throw new Error(`upload: ${res.status}`);
  return made;
}

describe('media mutations', () => {
  it('deleteUploadFile removes the row and the object on disk, and answers the file as it was', async () => {
    const file = await upload('gone.txt');
    const onDisk = join(server.server.services.uploads.localDir, basename(file.url));
    expect(existsSync(onDisk)).toBe(true);
    const { body } = await gql(`mutation { deleteUploadFile(id: "${file.id}") { name url } }`);
    expect(body).toEqual({ data: { deleteUploadFile: { name: 'gone.txt', url: file.url } } });
    expect(existsSync(onDisk)).toBe(false);
    expect((await server.request(`/api/upload/files/${file.id}`, { token: full })).status).toBe(404);
    expect((await gql(`mutation { deleteUploadFile(id: "${file.id}") { name } }`)).body).toEqual({ data: { deleteUploadFile: null } });
  });

  it('updateUploadFile keeps what info leaves out, and needs the upload action (read-only: FORBIDDEN, nothing changed)', async () => {
    const file = await upload('keep.txt');
    const first = await gql(`mutation { updateUploadFile(id: "${file.id}", info: { caption: "c1", alternativeText: "a1" }) { name caption alternativeText } }`);
    expect(first.body).toEqual({ data: { updateUploadFile: { name: 'keep.txt', caption: 'c1', alternativeText: 'a1' } } });
    const second = await gql(`mutation { updateUploadFile(id: "${file.id}", info: { name: "kept.txt" }) { name caption alternativeText } }`);
    expect(second.body).toEqual({ data: { updateUploadFile: { name: 'kept.txt', caption: 'c1', alternativeText: 'a1' } } });
    const refused = await gql(`mutation { updateUploadFile(id: "${file.id}", info: { name: "ro" }) { name } }`, readOnly);
    expect(errorOf(refused.body)?.extensions.code).toBe('FORBIDDEN');
    expect(((await (await server.request(`/api/upload/files/${file.id}`, { token: full })).json()) as { name: string }).name).toBe('kept.txt');
    expect((await gql(`mutation { deleteUploadFile(id: "${file.id}") { name } }`, readOnly)).body.data).toEqual({ deleteUploadFile: null });
    expect(existsSync(join(server.server.services.uploads.localDir, basename(file.url)))).toBe(true);
  });
});

describe('UploadFile.related', () => {
  it('answers the entries linking a file, their relations resolved, and leaves out types the caller may not find', async () => {
    const file = await upload('cover.txt');
    const category = (await (await server.request('/api/categories', { method: 'POST', token: full, json: { data: { name: 'Linked' } } })).json()) as { data: { documentId: string } };
    const made = await server.request('/api/articles?status=draft', { method: 'POST', token: full, json: { data: { title: 'With cover', gallery: [file.id], category: category.data.documentId } } });
    expect(made.status).toBe(201);
    const query = `{ uploadFiles(filters: { name: { eq: "cover.txt" } }) { name related { __typename ... on Article { title category { name } } } } }`;
    expect((await gql(query)).body).toEqual({ data: { uploadFiles: [{ name: 'cover.txt', related: [{ __typename: 'Article', title: 'With cover', category: { name: 'Linked' } }] }] } });
    // Every file's related entries in one batched read: as many statements for 1 file as for 5.
    for (let i = 0; i < 5; i++) {
      const more = await upload(`more-${i}.txt`);
      await server.request('/api/articles?status=draft', { method: 'POST', token: full, json: { data: { title: `Also ${i}`, gallery: [more.id], category: category.data.documentId } } });
    }
    const statements = async (limit: number) => {
      const before = server.server.services.database.queryCount();
      const { body } = await gql(`{ uploadFiles(pagination: { limit: ${limit} }, filters: { name: { startsWith: "more-" } }) { name related { __typename ... on Article { title } } } }`);
      expect(body.errors).toBeUndefined();
      expect((body.data as { uploadFiles: unknown[] }).uploadFiles).toHaveLength(limit);
      return server.server.services.database.queryCount() - before;
    };
    await statements(1);
    expect(await statements(5)).toBe(await statements(1));
    // A file linked from more entries than a page answers the first page (API_REST_DEFAULT_LIMIT, 25), as a relation list.
    const popular = await upload('popular.txt');
    for (let i = 0; i < 26; i++) await server.request('/api/articles?status=draft', { method: 'POST', token: full, json: { data: { title: `Uses ${i}`, gallery: [popular.id] } } });
    const page = await gql('{ uploadFiles(filters: { name: { eq: "popular.txt" } }) { related { __typename } } }');
    expect((page.body.data as { uploadFiles: Array<{ related: unknown[] }> }).uploadFiles[0]?.related).toHaveLength(25);
    const filesOnly = await server.token('custom', ['plugin::upload.content-api.find']);
    expect((await gql(query, filesOnly)).body).toEqual({ data: { uploadFiles: [{ name: 'cover.txt', related: [] }] } });
  });
});

describe('users & permissions mutations', () => {
  const register = (username: string, email: string, password: string) =>
    gql(`mutation { register(input: { username: "${username}", email: "${email}", password: "${password}" }) { jwt user { username email } } }`, null);
  const login = (identifier: string, password: string) => gql(`mutation { login(input: { identifier: "${identifier}", password: "${password}" }) { jwt } }`, null);

  it('register answers REST\'s validation message and details for a short password (BAD_USER_INPUT), never the password', async () => {
    const { body } = await register('bob', 'bob@example.com', '12345');
    const error = errorOf(body);
    expect(error?.message).toBe('password must be at least 6 characters');
    expect(error?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', error: { name: 'ValidationError', details: { errors: [{ path: ['password'], message: 'password must be at least 6 characters', name: 'ValidationError' }] } } });
    expect(JSON.stringify(body)).not.toContain('12345');
  });

  it('changePassword needs a signed-in user (public: FORBIDDEN) and the current password', async () => {
    const made = await register('carol', 'carol@example.com', 'first-pass');
    const jwt = String(((made.body.data as Json).register as Json).jwt);
    const anonymous = await gql('mutation { changePassword(currentPassword: "first-pass", password: "second-pass", passwordConfirmation: "second-pass") { jwt } }', null);
    expect(errorOf(anonymous.body)?.extensions.code).toBe('FORBIDDEN');
    const wrong = await gql('mutation { changePassword(currentPassword: "nope-nope", password: "second-pass", passwordConfirmation: "second-pass") { jwt } }', jwt);
    expect(errorOf(wrong.body)?.message).toBe('The provided current password is invalid');
    const changed = await gql('mutation { changePassword(currentPassword: "first-pass", password: "second-pass", passwordConfirmation: "second-pass") { jwt user { username } } }', jwt);
    expect((changed.body.data as Json).changePassword).toMatchObject({ user: { username: 'carol' } });
    expect((await login('carol', 'second-pass')).body.errors).toBeUndefined();
  });

  it('forgotPassword answers ok; emailConfirmation with an unknown code is REST\'s Invalid token', async () => {
    expect((await gql('mutation { forgotPassword(email: "carol@example.com") { ok } }', null)).body).toEqual({ data: { forgotPassword: { ok: true } } });
    const bad = await gql('mutation { emailConfirmation(confirmation: "nope") { jwt } }', null);
    expect(errorOf(bad.body)).toMatchObject({ message: 'Invalid token', extensions: { code: 'BAD_USER_INPUT' } });
  });

  it('login is rate-limited with REST\'s login route: one budget of 10 a minute (a request of aliases stops at the first failed login)', async () => {
    clock.now += 2 * MINUTE;
    for (let i = 0; i < 5; i++) {
      const res = await server.request('/api/auth/local', { method: 'POST', json: { identifier: 'carol', password: 'wrong-pass' } });
      expect(res.status).toBe(400);
    }
    const aliases = Array.from({ length: 3 }, (_, i) => `a${i}: login(input: { identifier: "carol", password: "wrong-pass" }) { jwt }`).join(' ');
    expect((await gql(`mutation { ${aliases} }`, null)).body).toMatchObject({ errors: [{ message: 'Invalid identifier or password', path: ['a0'] }], data: null });
    for (let i = 0; i < 4; i++) expect(errorOf((await login('carol', 'wrong-pass')).body)?.message).toBe('Invalid identifier or password');
    const limited = await login('carol', 'second-pass');
    expect(errorOf(limited.body)).toMatchObject({ message: 'Too many requests, please try again later.', extensions: { code: 'STRAPI_RATE_LIMIT_ERROR' } });
    expect((await server.request('/api/auth/local', { method: 'POST', json: { identifier: 'carol', password: 'second-pass' } })).status).toBe(429);
    clock.now += 2 * MINUTE;
    expect((await login('carol', 'second-pass')).body.errors).toBeUndefined();
  });

  it('creates, updates and deletes users and roles under the REST actions (read-only token: FORBIDDEN)', async () => {
    const listed = (await (await server.request('/api/users-permissions/roles', { token: full })).json()) as { roles: Array<{ id: number; type: string }> };
    const authenticated = listed.roles.find((r) => r.type === 'authenticated')?.id;
    const created = await gql(`mutation { createUsersPermissionsUser(data: { username: "dave", email: "Dave@Example.com", password: "pass-word", role: "${authenticated}" }) { data { documentId username email role { type } } } }`);
    expect(created.body.errors).toBeUndefined();
    const user = ((created.body.data as Json).createUsersPermissionsUser as Json).data as Json;
    expect(user).toMatchObject({ username: 'dave', email: 'dave@example.com', role: { type: 'authenticated' } });
    const users = (await (await server.request('/api/users', { token: full })).json()) as Array<{ id: number; username: string }>;
    const id = users.find((u) => u.username === 'dave')?.id;
    const updated = await gql(`mutation { updateUsersPermissionsUser(id: "${id}", data: { blocked: true }) { data { username blocked } } }`);
    expect(updated.body).toEqual({ data: { updateUsersPermissionsUser: { data: { username: 'dave', blocked: true } } } });
    const missing = await gql('mutation { updateUsersPermissionsUser(id: "99999", data: { blocked: true }) { data { username } } }');
    expect(errorOf(missing.body)).toMatchObject({ message: 'User not found', extensions: { code: 'STRAPI_NOT_FOUND_ERROR' } });
    expect(errorOf((await gql(`mutation { deleteUsersPermissionsUser(id: "${id}") { data { username } } }`, readOnly)).body)?.extensions.code).toBe('FORBIDDEN');
    expect((await gql(`mutation { deleteUsersPermissionsUser(id: "${id}") { data { username } } }`)).body).toEqual({ data: { deleteUsersPermissionsUser: { data: { username: 'dave' } } } });

    expect((await gql('mutation { createUsersPermissionsRole(data: { name: "Editors", description: "edit" }) { ok } }')).body).toEqual({ data: { createUsersPermissionsRole: { ok: true } } });
    const { roles } = (await (await server.request('/api/users-permissions/roles', { token: full })).json()) as { roles: Array<{ id: number; name: string }> };
    const role = roles.find((r) => r.name === 'Editors');
    expect(role).toBeDefined();
    expect((await gql(`mutation { updateUsersPermissionsRole(id: "${role?.id}", data: { description: "changed" }) { ok } }`)).body).toEqual({ data: { updateUsersPermissionsRole: { ok: true } } });
    expect((await gql(`mutation { deleteUsersPermissionsRole(id: "${role?.id}") { ok } }`)).body).toEqual({ data: { deleteUsersPermissionsRole: { ok: true } } });
    expect(errorOf((await gql('mutation { createUsersPermissionsRole(data: { name: "X" }) { ok } }', readOnly)).body)?.extensions.code).toBe('FORBIDDEN');
  });
});

describe('i18NLocales', () => {
  it('filters, sorts and pages the configured locales; i18NLocale reads one by its documentId', async () => {
    const all = await gql('{ i18NLocales { documentId code name } }');
    const locales = (all.body.data as { i18NLocales: Array<{ documentId: string; code: string; name: string }> }).i18NLocales;
    expect(locales.map((l) => l.code)).toEqual(['en', 'fr', 'de']);
    expect(locales.map((l) => l.name)).toEqual(['English (en)', 'French (fr)', 'German (de)']);
    for (const l of locales) expect(l.documentId).toMatch(/^[a-z][a-z0-9]{23}$/);
    expect((await gql('{ i18NLocales(filters: { code: { in: ["fr", "de"] } }, sort: "code:asc") { code } }')).body).toEqual({ data: { i18NLocales: [{ code: 'de' }, { code: 'fr' }] } });
    expect((await gql('{ i18NLocales(filters: { or: [{ name: { containsi: "ENGLISH" } }, { code: { eq: "de" } }] }) { code } }')).body).toEqual({ data: { i18NLocales: [{ code: 'en' }, { code: 'de' }] } });
    const page = await gql('{ i18NLocales_connection(sort: "code:desc", pagination: { page: 2, pageSize: 2 }) { nodes { code } pageInfo { total page pageSize pageCount } } }');
    expect(page.body).toEqual({ data: { i18NLocales_connection: { nodes: [{ code: 'de' }], pageInfo: { total: 3, page: 2, pageSize: 2, pageCount: 2 } } } });
    const fr = locales.find((l) => l.code === 'fr');
    expect((await gql(`{ i18NLocale(documentId: "${fr?.documentId}") { code } }`)).body).toEqual({ data: { i18NLocale: { code: 'fr' } } });
    expect(errorOf((await gql('{ i18NLocales(sort: "nope") { code } }')).body)).toMatchObject({ message: 'Invalid key nope', extensions: { code: 'BAD_USER_INPUT' } });
    expect(errorOf((await gql('{ i18NLocales { code } }', null)).body)?.extensions.code).toBe('FORBIDDEN');
  });
});
