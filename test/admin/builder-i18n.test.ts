import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { dataOf, expectJson, writeProject } from '../helpers/project.js';
import { adminRequest, registerOwner } from './helpers.js';

let server: TestServer;
let root: string;
let admin: ReturnType<typeof adminRequest>;
let session: string;

beforeAll(async () => {
  root = await writeProject({});
  server = await startTestServer({ schemas: root });
  await server.server.services.locales.add({ code: 'fr' });
  session = await registerOwner(server);
  admin = adminRequest(server, session);
});
afterAll(() => server.close());

const api = (path: string, init: RequestInit & { json?: unknown } = {}) => server.request(path, { ...init, token: session });

const poem = {
  kind: 'collectionType',
  collectionName: 'poems',
  info: { singularName: 'poem', pluralName: 'poems', displayName: 'Poem' },
  options: { draftAndPublish: false },
  pluginOptions: { i18n: { localized: true } },
  attributes: {
    // No i18n option: shared between locales, as Strapi reads it.
    title: { type: 'string' },
    body: { type: 'text', pluginOptions: { i18n: { localized: true } } },
  },
};

describe('per-field localization through the builder API', () => {
  it('is written as sent: a field sent without the option is not made localized, and is shared across locales', async () => {
    await expectJson(await admin('/admin/api/content-types', { method: 'POST', json: { contentType: poem } }), 201);
    expect(JSON.parse(await readFile(join(root, 'src/api/poem/content-types/poem/schema.json'), 'utf8'))).toEqual(poem);
    expect(await expectJson(await admin('/admin/api/content-types/api::poem.poem'), 200)).toEqual({ data: { uid: 'api::poem.poem', apiID: 'poem', schema: poem } });

    const en = await dataOf(await api('/api/poems', { method: 'POST', json: { data: { title: 'Hello', body: 'Roses' } } }), 201);
    await dataOf(await api(`/api/poems/${en.documentId}?locale=fr`, { method: 'PUT', json: { data: { title: 'Bonjour', body: 'Roses (fr)' } } }));
    expect(await dataOf(await api(`/api/poems/${en.documentId}?locale=en`))).toMatchObject({ title: 'Bonjour', body: 'Roses' });
    expect(await dataOf(await api(`/api/poems/${en.documentId}?locale=fr`))).toMatchObject({ title: 'Bonjour', body: 'Roses (fr)' });
  });
});
