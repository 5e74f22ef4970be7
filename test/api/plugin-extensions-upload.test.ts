import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropDatabaseFor } from '../helpers/database.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { collection, expectJson, writeProject } from '../helpers/project.js';
import { fileExtension, STRAPI_FILE_ATTRIBUTES } from '../helpers/strapi-plugin-schemas.js';

/**
 * `src/extensions/upload/content-types/file/schema.json`: Strapi's file schema copied whole, plus
 * the project's attributes (a photo credit, a licence). The extension replaces the plugin's schema
 * as Strapi's `applyUserExtension` merges it; the extra attributes are served by every route that
 * answers files, and media populated into entries. Strapi never writes them from a request
 * (its `fileInfo` validator strips unknown keys): new files get their defaults, other values come
 * from the database (here written directly, as a project's own code or an import would).
 */

const EXTENDED_FILE = fileExtension({
  ...STRAPI_FILE_ATTRIBUTES,
  credit: { type: 'string' },
  license: { type: 'enumeration', enum: ['cc-by', 'cc0', 'all-rights-reserved'], default: 'cc-by' },
  approved: { type: 'boolean', default: false },
  rating: { type: 'integer' },
  meta: { type: 'json' },
});

const EXTRA_KEYS = ['credit', 'license', 'approved', 'rating', 'meta'];

/** The keys of a file answer in order, as Strapi prints a file whose table was created with the extension. */
const FILE_KEYS = [
  'id',
  'documentId',
  ...Object.keys(STRAPI_FILE_ATTRIBUTES).filter((k) => !['related', 'folder', 'folderPath'].includes(k)),
  ...EXTRA_KEYS,
  'createdAt',
  'updatedAt',
  'publishedAt',
];

async function writeFileExtension(root: string, schema: unknown): Promise<void> {
  const dir = join(root, 'src', 'extensions', 'upload', 'content-types', 'file');
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'schema.json'), JSON.stringify(schema, null, 2));
}

async function projectWith(file: unknown): Promise<string> {
  const root = await writeProject({
    types: { article: collection('article', 'articles', { title: { type: 'string' }, cover: { type: 'media', multiple: false, allowedTypes: ['images', 'files'] } }) },
  });
  await writeFileExtension(root, file);
  return root;
}

type File = Record<string, unknown> & { id: number; documentId: string };

function uploadForm(name: string, fileInfo?: unknown): FormData {
  const form = new FormData();
  form.append('files', new Blob([`bytes of ${name}`], { type: 'text/plain' }), name);
  if (fileInfo !== undefined) form.append('fileInfo', JSON.stringify(fileInfo));
  return form;
}

describe('an extended upload file', () => {
  let server: TestServer;
  let dataDir = '';
  let admin = '';
  let uploaded: File;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'hearth-file-extensions-'));
    server = await startTestServer({ schemas: await projectWith(EXTENDED_FILE), dataDir });
    admin = await server.token('full-access');
    [uploaded = { id: 0, documentId: '' }] = await expectJson<File[]>(await server.request('/api/upload', { method: 'POST', token: admin, body: uploadForm('photo.txt') }), 201);
    await expectJson<File[]>(await server.request('/api/upload', { method: 'POST', token: admin, body: uploadForm('other.txt') }), 201);
    // Strapi writes these only from a project's own code: set them in the database.
    // The extension's columns are not among the typed built-in ones: the table is addressed as a content table.
    await server.server.services.database.db
      .updateTable<string>('hearth_files')
      .set({ credit: 'Ann Example', license: 'cc0', rating: 4, meta: JSON.stringify({ camera: 'X100' }) })
      .where('id', '=', uploaded.id)
      .execute();
    await server.request('/api/articles', { method: 'POST', token: admin, json: { data: { title: 'With a cover', cover: uploaded.id } } });
  });
  afterAll(async () => {
    await server.close();
    await rm(dataDir, { recursive: true, force: true });
    await dropDatabaseFor(dataDir);
  });

  it('answers an upload with the extra attributes, at their defaults, in schema order', () => {
    expect(Object.keys(uploaded)).toEqual([...FILE_KEYS, 'isUrlSigned']);
    expect(uploaded).toMatchObject({ name: 'photo.txt', credit: null, license: 'cc-by', approved: false, rating: null, meta: null });
  });

  it('serves them through GET /api/upload/files and /api/upload/files/:id', async () => {
    const list = await expectJson<File[]>(await server.request('/api/upload/files?sort=id', { token: admin }), 200);
    expect(list.map((f) => [f.name, f.credit, f.license, f.approved, f.rating, f.meta])).toEqual([
      ['photo.txt', 'Ann Example', 'cc0', false, 4, { camera: 'X100' }],
      ['other.txt', null, 'cc-by', false, null, null],
    ]);
    const one = await expectJson<File>(await server.request(`/api/upload/files/${uploaded.id}`, { token: admin }), 200);
    expect(Object.keys(one)).toEqual([...FILE_KEYS, 'isUrlSigned']);
    expect(one).toMatchObject({ credit: 'Ann Example', license: 'cc0', meta: { camera: 'X100' } });
  });

  it('filters, sorts and selects fields on them', async () => {
    const filtered = await expectJson<File[]>(await server.request('/api/upload/files?filters[license][$eq]=cc0&fields[0]=name&fields[1]=credit', { token: admin }), 200);
    expect(filtered).toEqual([{ id: uploaded.id, documentId: uploaded.documentId, name: 'photo.txt', credit: 'Ann Example', isUrlSigned: false }]);
    const sorted = await expectJson<File[]>(await server.request('/api/upload/files?sort=rating:desc&fields[0]=rating', { token: admin }), 200);
    expect(sorted.map((f) => f.rating)).toEqual([4, null]);
  });

  it('serves them in media populated into entries, and filters entries by them', async () => {
    const { data } = await expectJson<{ data: Record<string, unknown>[] }>(await server.request('/api/articles?populate=cover', { token: admin }), 200);
    expect(data[0]?.cover).toMatchObject({ id: uploaded.id, credit: 'Ann Example', license: 'cc0', approved: false, rating: 4, meta: { camera: 'X100' } });
    const picked = await expectJson<{ data: Record<string, unknown>[] }>(await server.request('/api/articles?populate[cover][fields][0]=credit', { token: admin }), 200);
    expect(picked.data[0]?.cover).toEqual({ id: uploaded.id, documentId: uploaded.documentId, credit: 'Ann Example' });
    const byCredit = await expectJson<{ data: Record<string, unknown>[] }>(await server.request('/api/articles?filters[cover][credit][$eq]=Ann%20Example', { token: admin }), 200);
    expect(byCredit.data.map((a) => a.title)).toEqual(['With a cover']);
  });

  it('ignores them in fileInfo as Strapi does (its validator strips unknown keys), and keeps them through updates and replacements', async () => {
    const form = new FormData();
    form.append('fileInfo', JSON.stringify({ caption: 'A new caption', credit: 'Bob', license: 'cc0' }));
    const updated = await expectJson<File>(await server.request(`/api/upload?id=${uploaded.id}`, { method: 'POST', token: admin, body: form }), 200);
    expect(updated).toMatchObject({ caption: 'A new caption', credit: 'Ann Example', license: 'cc0', rating: 4 });
    const replaced = await expectJson<File>(await server.request(`/api/upload?id=${uploaded.id}`, { method: 'POST', token: admin, body: uploadForm('photo-2.txt', { credit: 'Bob' }) }), 200);
    expect(replaced).toMatchObject({ name: 'photo-2.txt', credit: 'Ann Example', license: 'cc0', meta: { camera: 'X100' } });
    const [added] = await expectJson<File[]>(await server.request('/api/upload', { method: 'POST', token: admin, body: uploadForm('third.txt', { credit: 'Bob', license: 'cc0' }) }), 201);
    expect(added).toMatchObject({ name: 'third.txt', credit: null, license: 'cc-by' });
  });

  it('keeps the extra values across a restart on the same data dir', async () => {
    const schemas = await projectWith(EXTENDED_FILE);
    await server.close();
    server = await startTestServer({ schemas, dataDir });
    admin = await server.token('full-access');
    const one = await expectJson<File>(await server.request(`/api/upload/files/${uploaded.id}`, { token: admin }), 200);
    expect(one).toMatchObject({ credit: 'Ann Example', license: 'cc0', rating: 4 });
  });
});

describe('a file extension Hearth cannot serve', () => {
  const { hash: _hash, ...withoutHash } = STRAPI_FILE_ATTRIBUTES;
  const { related: _related, ...withoutRelated } = STRAPI_FILE_ATTRIBUTES;
  it.each([
    ['drops a plugin attribute', fileExtension({ ...withoutHash, credit: { type: 'string' } }), 'attribute "hash" is missing'],
    ['drops the related links', fileExtension(withoutRelated), 'attribute "related" is missing'],
    ['retypes a plugin attribute', fileExtension({ ...STRAPI_FILE_ATTRIBUTES, size: { type: 'string' } }), 'attribute "size" must stay as the plugin declares it {"type":"decimal"'],
    ['retypes the folder relation', fileExtension({ ...STRAPI_FILE_ATTRIBUTES, folder: { type: 'string' } }), 'attribute "folder" must stay as the plugin declares it'],
    ['moves the table', { ...fileExtension(STRAPI_FILE_ATTRIBUTES), collectionName: 'media' }, '"collectionName" must stay "files"'],
    ['turns on draft & publish', { ...fileExtension(STRAPI_FILE_ATTRIBUTES), options: { draftAndPublish: true } }, '"options.draftAndPublish" must stay false'],
    [
      'adds a relation',
      fileExtension({ ...STRAPI_FILE_ATTRIBUTES, article: { type: 'relation', relation: 'manyToOne', target: 'api::article.article' } }),
      'attribute "article" is a relation; Hearth adds only scalar attributes (string, text, number, boolean, date, json, enumeration...) to plugin::upload.file',
    ],
    ['adds a media attribute', fileExtension({ ...STRAPI_FILE_ATTRIBUTES, thumbnail: { type: 'media', multiple: false } }), 'attribute "thumbnail" is a media; Hearth adds only scalar attributes'],
    ['takes the folder column', fileExtension({ ...STRAPI_FILE_ATTRIBUTES, folder_id: { type: 'integer' } }), 'attribute "folder_id" would take the column "folder_id" Hearth keeps in hearth_files'],
  ])('refuses to start when it %s, naming the file', async (_what, schema, message) => {
    const schemas = await projectWith(schema);
    await expect(startTestServer({ schemas })).rejects.toThrow(message);
    await expect(startTestServer({ schemas })).rejects.toThrow('src/extensions/upload/content-types/file/schema.json');
  });
});
