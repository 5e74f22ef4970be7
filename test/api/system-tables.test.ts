import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_SESSIONS_TABLE,
  ADMIN_USERS_TABLE,
  API_TOKENS_TABLE,
  COLUMNS_TABLE,
  FILES_RELATED_TABLE,
  FILES_TABLE,
  FOLDERS_TABLE,
  LOCALES_TABLE,
  META_TABLE,
  MODELS_TABLE,
  PERMISSIONS_TABLE,
  ROLES_TABLE,
  USER_ROLE_LINK_TABLE,
  USERS_TABLE,
} from '../../server/db/system-tables.js';
import { registerOwner } from '../admin/helpers.js';
import { expectJson } from '../helpers/project.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { fixturePart, postUpload } from '../uploads/helpers.js';

/**
 * db/system-tables.ts types Hearth's own columns as both drivers return them, and the code reads
 * them without casts: an id, a count, a 0/1 flag is a number and a date is text on SQLite and on
 * PostgreSQL alike (db/pg-values.ts). These rows, written through the APIs, hold the server to it.
 */

type Kind = 'number' | 'string' | 'number?' | 'string?';

/** The runtime kind of every column of the tables checked here (db/system-tables.ts says the same in types). */
const COLUMNS: Record<string, Record<string, Kind>> = {
  [META_TABLE]: { key: 'string', value: 'string' },
  [LOCALES_TABLE]: { id: 'number', code: 'string', name: 'string', is_default: 'number', created_at: 'string', updated_at: 'string' },
  [API_TOKENS_TABLE]: {
    id: 'number', name: 'string', description: 'string', type: 'string', access_key_hash: 'string', permissions: 'string',
    lifespan: 'number?', expires_at: 'string?', last_used_at: 'string?', created_at: 'string', updated_at: 'string',
  },
  [PERMISSIONS_TABLE]: { role: 'string', action: 'string', created_at: 'string' },
  [MODELS_TABLE]: { uid: 'string', table_name: 'string', schema: 'string', updated_at: 'string' },
  [COLUMNS_TABLE]: { table_name: 'string', column_name: 'string', storage: 'string' },
  [FOLDERS_TABLE]: {
    id: 'number', documentId: 'string', name: 'string', pathId: 'number', path: 'string', parent_id: 'number?',
    locale: 'string?', createdAt: 'string', updatedAt: 'string', publishedAt: 'string?',
  },
  [FILES_TABLE]: {
    id: 'number', documentId: 'string', name: 'string', alternativeText: 'string?', caption: 'string?', focalPoint: 'string?',
    width: 'number?', height: 'number?', formats: 'string?', hash: 'string', ext: 'string?', mime: 'string', size: 'number',
    url: 'string', previewUrl: 'string?', provider: 'string', provider_metadata: 'string?', folderPath: 'string', folder_id: 'number?',
    locale: 'string?', createdAt: 'string', updatedAt: 'string', publishedAt: 'string?',
  },
  [FILES_RELATED_TABLE]: { id: 'number', file_id: 'number', related_id: 'number', related_type: 'string', field: 'string', ord: 'number' },
  [ADMIN_USERS_TABLE]: { id: 'number', email: 'string', firstname: 'string?', lastname: 'string?', password_hash: 'string?', created_at: 'string', updated_at: 'string' },
  [ADMIN_SESSIONS_TABLE]: { id: 'number', token_hash: 'string', user_id: 'number', kind: 'string', created_at: 'string', last_used_at: 'string' },
  [ROLES_TABLE]: {
    id: 'number', documentId: 'string', createdAt: 'string', updatedAt: 'string', publishedAt: 'string?', locale: 'string?',
    name: 'string', description: 'string?', type: 'string',
  },
  [USERS_TABLE]: {
    id: 'number', documentId: 'string', createdAt: 'string', updatedAt: 'string', publishedAt: 'string?', locale: 'string?',
    username: 'string', email: 'string', provider: 'string?', password: 'string?', resetPasswordToken: 'string?',
    confirmationToken: 'string?', confirmed: 'number?', blocked: 'number?',
  },
  [USER_ROLE_LINK_TABLE]: { id: 'number', entity_id: 'number', target_id: 'number', ord: 'number?', inv_ord: 'number?' },
};

const kindOf = (value: unknown, kind: Kind): boolean =>
  (kind.endsWith('?') && value === null) || typeof value === kind.replace('?', '');

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({});
  const full = await server.token('full-access');
  await server.server.services.tokens.create({ name: 'with a lifespan', type: 'read-only', lifespanDays: 7 });
  await registerOwner(server);
  await expectJson(await server.request('/api/auth/local/register', { method: 'POST', json: { username: 'sam', email: 'sam@example.com', password: 'first-pass' } }), 200);
  const article = await expectJson<{ data: { id: number } }>(await server.request('/api/articles', { method: 'POST', token: full, json: { data: { title: 'with a cover' } } }), 201);
  const link = [
    { name: 'ref', value: 'api::article.article' },
    { name: 'refId', value: String(article.data.id) },
    { name: 'field', value: 'cover' },
  ];
  await expectJson(await postUpload(server, full, [fixturePart('blue-64x48.jpg'), ...link]), 201);
});
afterAll(() => server.close());

describe("Hearth's own tables", () => {
  it.each(Object.keys(COLUMNS))('%s: every column reads as the kind db/system-tables.ts gives it', async (table) => {
    const rows = await server.server.services.database.db.selectFrom<string>(table).selectAll().execute();
    expect(rows.length).toBeGreaterThan(0);
    const columns = COLUMNS[table] ?? {};
    for (const row of rows) {
      const wrong = Object.entries(columns)
        .filter(([column, kind]) => !kindOf(row[column], kind))
        .map(([column, kind]) => `${column}: ${kind}, read ${typeof row[column]} ${String(row[column])}`);
      expect(wrong).toEqual([]);
    }
  });

  it('reads a token lifespan, a default flag and a count as numbers', async () => {
    const { db } = server.server.services.database;
    const token = await db.selectFrom(API_TOKENS_TABLE).select('lifespan').where('name', '=', 'with a lifespan').executeTakeFirstOrThrow();
    expect(token.lifespan).toBe(7 * 24 * 60 * 60 * 1000);
    const locale = await db.selectFrom(LOCALES_TABLE).select('is_default').where('code', '=', 'en').executeTakeFirstOrThrow();
    expect(locale.is_default).toBe(1);
    const count = await db.selectFrom(FILES_RELATED_TABLE).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect(count.n).toBe(1);
  });
});
