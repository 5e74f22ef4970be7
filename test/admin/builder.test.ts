import { access, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { dataOf, expectJson, listOf, writeProject } from '../helpers/project.js';
import { adminRequest, registerOwner } from './helpers.js';

let server: TestServer;
let root: string;
let admin: ReturnType<typeof adminRequest>;
let session: string;

beforeAll(async () => {
  root = await writeProject({});
  server = await startTestServer({ schemas: root });
  session = await registerOwner(server);
  admin = adminRequest(server, session);
});
afterAll(() => server.close());

const readJson = async (path: string): Promise<unknown> => JSON.parse(await readFile(join(root, path), 'utf8'));
const exists = (path: string) => access(join(root, path)).then(() => true, () => false);
const api = (path: string, init: RequestInit & { json?: unknown } = {}) => server.request(path, { ...init, token: session });

const book = (attributes: Record<string, unknown>, options: Record<string, unknown> = { draftAndPublish: false }) => ({
  kind: 'collectionType',
  collectionName: 'books',
  info: { singularName: 'book', pluralName: 'books', displayName: 'Book', description: '' },
  options,
  pluginOptions: {},
  attributes,
});

const validation = (path: string[], message: string) => ({ data: null, error: { status: 400, name: 'ValidationError', message, details: { errors: [{ path, message, name: 'ValidationError' }] } } });

describe('creating a content type', () => {
  it('writes the schema and Strapi core files, and the content API serves the type at once', async () => {
    const schema = book({ title: { type: 'string', required: true }, pages: { type: 'integer' } });
    expect(await expectJson(await admin('/admin/api/content-types', { method: 'POST', json: { contentType: schema } }), 201)).toEqual({ data: { uid: 'api::book.book' } });
    expect(await readJson('src/api/book/content-types/book/schema.json')).toEqual(schema);
    for (const folder of ['controllers', 'routes', 'services']) expect(await exists(`src/api/book/${folder}/book.js`)).toBe(true);
    expect(await readFile(join(root, 'src/api/book/routes/book.js'), 'utf8')).toContain("createCoreRouter('api::book.book')");

    const created = await dataOf(await api('/api/books', { method: 'POST', json: { data: { title: 'Dune', pages: 412 } } }), 201);
    expect(created).toMatchObject({ title: 'Dune', pages: 412 });
    expect(await expectJson(await admin('/admin/api/content-types/api::book.book'), 200)).toEqual({ data: { uid: 'api::book.book', apiID: 'book', schema } });
    expect((await expectJson<{ data: { uid: string }[] }>(await admin('/admin/api/content-types'), 200)).data.map((c) => c.uid)).toEqual(['api::book.book']);
  });

  it('refuses invalid schemas with a 400 naming the attribute', async () => {
    const post = (attributes: Record<string, unknown>) => admin('/admin/api/content-types', { method: 'POST', json: { contentType: { ...book(attributes), collectionName: 'films', info: { singularName: 'film', pluralName: 'films', displayName: 'Film' } } } });
    expect(await expectJson(await post({ id: { type: 'string' } }), 400)).toEqual(validation(['contentType', 'attributes', 'id'], 'attribute "id": "id" is a reserved name'));
    expect(await expectJson(await post({ locale: { type: 'string' } }), 400)).toEqual(validation(['contentType', 'attributes', 'locale'], 'attribute "locale": "locale" is a reserved name'));
    expect(await expectJson(await post({ title: { type: 'strin' } }), 400)).toEqual(validation(['contentType', 'attributes', 'title'], 'attribute "title": unknown attribute type "strin"'));
    expect(await expectJson(await post({ title: { type: 'string' }, Title: { type: 'string' } }), 400)).toEqual(
      validation(['contentType', 'attributes', 'Title'], 'api::film.film: attributes "Title" and another differ only in case'),
    );
    const badTarget = await expectJson<{ error: { details: { errors: { path: string[] }[] } } }>(
      await post({ director: { type: 'relation', relation: 'manyToOne', target: 'api::person.person' } }),
      400,
    );
    expect(badTarget.error.details.errors[0]?.path).toEqual(['contentType', 'attributes', 'director']);
    expect(await expectJson(await post({ slug: { type: 'uid', targetField: 'nope' } }), 400)).toEqual(
      validation(['contentType', 'attributes', 'slug', 'targetField'], 'attribute "slug": targetField "nope" is not a string or text attribute'),
    );
    expect(await expectJson(await admin('/admin/api/content-types', { method: 'POST', json: { contentType: book({}) } }), 400)).toEqual(
      validation(['contentType', 'info', 'singularName'], 'A content type named "book" already exists'),
    );
    expect((await admin('/admin/api/content-types', { method: 'POST', json: { contentType: { ...book({}), info: { singularName: 'upload', pluralName: 'upload', displayName: 'x' } } } })).status).toBe(400);
    const hearthTable = { ...book({}), collectionName: 'hearth_films', info: { singularName: 'film', pluralName: 'films', displayName: 'Film' } };
    expect(await expectJson(await admin('/admin/api/content-types', { method: 'POST', json: { contentType: hearthTable } }), 400)).toEqual(
      validation(['contentType', 'collectionName'], '"collectionName" may not start with hearth_'),
    );
    expect(await expectJson(await admin('/admin/api/content-types', { method: 'POST', json: { contentType: { ...hearthTable, collectionName: 'films', extra: true } } }), 400)).toEqual(
      validation(['contentType', 'extra'], 'contentType has an unknown key "extra"'),
    );
    expect(await exists('src/api/film')).toBe(false);
  });
});

describe('editing a content type', () => {
  it('adds an attribute; renames one holding data and keeps the data', async () => {
    await expectJson(await admin('/admin/api/content-types/api::book.book', { method: 'PUT', json: { contentType: book({ title: { type: 'string', required: true }, pages: { type: 'integer' }, summary: { type: 'text' } }) } }), 200);
    const [dune] = await listOf(await api('/api/books'));
    expect(dune).toMatchObject({ title: 'Dune', pages: 412, summary: null });
    await dataOf(await api(`/api/books/${dune?.documentId}`, { method: 'PUT', json: { data: { summary: 'Spice' } } }));

    const renamed = book({ name: { type: 'string', required: true }, pages: { type: 'integer' }, blurb: { type: 'text' } });
    await expectJson(await admin('/admin/api/content-types/api::book.book', { method: 'PUT', json: { contentType: renamed, renames: { title: 'name', summary: 'blurb' } } }), 200);
    const [after] = await listOf(await api('/api/books'));
    expect(after).toMatchObject({ documentId: dune?.documentId, name: 'Dune', pages: 412, blurb: 'Spice' });
    expect(after).not.toHaveProperty('title');
    expect(await readJson('src/api/book/content-types/book/schema.json')).toEqual(renamed);
    expect((await admin('/admin/api/content-types/api::book.book', { method: 'PUT', json: { contentType: renamed, renames: { nope: 'name' } } })).status).toBe(400);
  });

  it('removing an attribute that holds data needs confirmDataLoss', async () => {
    const without = book({ name: { type: 'string', required: true }, blurb: { type: 'text' } });
    expect(await expectJson(await admin('/admin/api/content-types/api::book.book', { method: 'PUT', json: { contentType: without } }), 400)).toEqual({
      data: null,
      error: {
        status: 400,
        name: 'ApplicationError',
        message: 'This change would delete stored data; send confirmDataLoss: true to make it anyway',
        details: { dataLoss: [{ uid: 'api::book.book', attribute: 'pages', rows: 1, documents: 1 }] },
      },
    });
    expect(await readJson('src/api/book/content-types/book/schema.json')).toHaveProperty('attributes.pages');
    expect((await listOf(await api('/api/books')))[0]).toMatchObject({ pages: 412 });

    await expectJson(await admin('/admin/api/content-types/api::book.book', { method: 'PUT', json: { contentType: without, confirmDataLoss: true } }), 200);
    expect((await listOf(await api('/api/books')))[0]).not.toHaveProperty('pages');
    const columns = (await server.server.services.database.db.introspection.getTables()).find((t) => t.name === 'books')?.columns.map((c) => c.name);
    expect(columns).not.toContain('pages');
    // Re-adding the attribute does not bring the dropped values back.
    await expectJson(await admin('/admin/api/content-types/api::book.book', { method: 'PUT', json: { contentType: book({ name: { type: 'string', required: true }, blurb: { type: 'text' }, pages: { type: 'integer' } }) } }), 200);
    expect((await listOf(await api('/api/books')))[0]).toMatchObject({ pages: null });
  });

  it('a retype that keeps values needs no confirmation; one that cannot does', async () => {
    const attrs = (pages: Record<string, unknown>) => book({ name: { type: 'string', required: true }, blurb: { type: 'text' }, pages });
    const [doc] = await listOf(await api('/api/books'));
    await dataOf(await api(`/api/books/${doc?.documentId}`, { method: 'PUT', json: { data: { pages: 300 } } }));
    await expectJson(await admin('/admin/api/content-types/api::book.book', { method: 'PUT', json: { contentType: attrs({ type: 'biginteger' }) } }), 200);
    expect((await listOf(await api('/api/books')))[0]).toMatchObject({ pages: '300' });
    const refused = await expectJson<{ error: { details: unknown } }>(await admin('/admin/api/content-types/api::book.book', { method: 'PUT', json: { contentType: attrs({ type: 'boolean' }) } }), 400);
    expect(refused.error.details).toEqual({ dataLoss: [{ uid: 'api::book.book', attribute: 'pages', rows: 1, documents: 1 }] });
  });
});

describe('relations and components', () => {
  it('declaring one side of a relation writes the other side on the target; removing it removes both', async () => {
    const author = {
      kind: 'collectionType',
      collectionName: 'authors',
      info: { singularName: 'author', pluralName: 'authors', displayName: 'Author' },
      options: {},
      pluginOptions: {},
      attributes: { name: { type: 'string' }, books: { type: 'relation', relation: 'oneToMany', target: 'api::book.book', mappedBy: 'author' } },
    };
    await expectJson(await admin('/admin/api/content-types', { method: 'POST', json: { contentType: author } }), 201);
    const bookFile = (await readJson('src/api/book/content-types/book/schema.json')) as { attributes: Record<string, unknown> };
    expect(bookFile.attributes.author).toEqual({ type: 'relation', relation: 'manyToOne', target: 'api::author.author', inversedBy: 'books' });

    const [doc] = await listOf(await api('/api/books'));
    const frank = await dataOf(await api('/api/authors', { method: 'POST', json: { data: { name: 'Frank', books: [doc?.documentId] } } }), 201);
    expect(await dataOf(await api(`/api/books/${doc?.documentId}?populate=author`))).toMatchObject({ author: { name: 'Frank' } });

    const refused = await expectJson<{ error: { details: unknown } }>(
      await admin('/admin/api/content-types/api::author.author', { method: 'PUT', json: { contentType: { ...author, attributes: { name: { type: 'string' } } } } }),
      400,
    );
    expect(refused.error.details).toEqual({ dataLoss: [{ uid: 'api::book.book', attribute: 'author', rows: 1, documents: 1 }] });
    await expectJson(await admin('/admin/api/content-types/api::author.author', { method: 'PUT', json: { contentType: { ...author, attributes: { name: { type: 'string' } } }, confirmDataLoss: true } }), 200);
    expect((await readJson('src/api/book/content-types/book/schema.json')) as object).not.toHaveProperty('attributes.author');
    expect(await dataOf(await api(`/api/authors/${frank.documentId}`))).toMatchObject({ name: 'Frank' });
  });

  it('creates a component, uses it, and deleting it removes its uses (with confirmation when it holds data)', async () => {
    const component = { category: 'shared', collectionName: 'components_shared_notes', info: { displayName: 'Note', icon: 'pencil' }, options: {}, attributes: { text: { type: 'text' } } };
    expect(await expectJson(await admin('/admin/api/components', { method: 'POST', json: { component } }), 201)).toEqual({ data: { uid: 'shared.note' } });
    const { category: _category, ...file } = component;
    expect(await readJson('src/components/shared/note.json')).toEqual(file);
    expect(await expectJson(await admin('/admin/api/components/shared.note'), 200)).toEqual({ data: { uid: 'shared.note', category: 'shared', schema: file } });

    const withNote = book({ name: { type: 'string', required: true }, blurb: { type: 'text' }, pages: { type: 'biginteger' }, note: { type: 'component', repeatable: false, component: 'shared.note' } });
    await expectJson(await admin('/admin/api/content-types/api::book.book', { method: 'PUT', json: { contentType: withNote } }), 200);
    const [doc] = await listOf(await api('/api/books'));
    await dataOf(await api(`/api/books/${doc?.documentId}`, { method: 'PUT', json: { data: { note: { text: 'signed copy' } } } }));
    expect(await dataOf(await api(`/api/books/${doc?.documentId}?populate=note`))).toMatchObject({ note: { text: 'signed copy' } });

    expect((await admin('/admin/api/components/shared.note', { method: 'DELETE' })).status).toBe(400);
    expect(await expectJson(await admin('/admin/api/components/shared.note?confirmDataLoss=true', { method: 'DELETE' }), 200)).toEqual({ data: { uid: 'shared.note' } });
    expect(await exists('src/components/shared')).toBe(false);
    expect((await readJson('src/api/book/content-types/book/schema.json')) as object).not.toHaveProperty('attributes.note');
    await dataOf(await api(`/api/books/${doc?.documentId}`));
  });
});

describe('draft & publish and single types', () => {
  it('switching draft & publish on gives every document a draft', async () => {
    const current = ((await expectJson<{ data: { schema: Record<string, unknown> } }>(await admin('/admin/api/content-types/api::book.book'), 200)).data.schema);
    await expectJson(await admin('/admin/api/content-types/api::book.book', { method: 'PUT', json: { contentType: { ...current, options: { draftAndPublish: true } } } }), 200);
    const drafts = await listOf(await api('/api/books?status=draft'));
    const published = await listOf(await api('/api/books'));
    expect(drafts.map((d) => d.documentId)).toEqual(published.map((d) => d.documentId));
    expect(drafts[0]).toMatchObject({ name: 'Dune', publishedAt: null });
  });

  it('creates a single type served at its singular name', async () => {
    const home = { kind: 'singleType', collectionName: 'homes', info: { singularName: 'home', pluralName: 'homes', displayName: 'Home' }, options: {}, pluginOptions: {}, attributes: { headline: { type: 'string' } } };
    await expectJson(await admin('/admin/api/content-types', { method: 'POST', json: { contentType: home } }), 201);
    expect(await dataOf(await api('/api/home', { method: 'PUT', json: { data: { headline: 'Welcome' } } }))).toMatchObject({ headline: 'Welcome' });
  });
});

describe('deleting a content type', () => {
  it('needs confirmDataLoss when it holds documents, then drops its tables, files and routes', async () => {
    expect(await expectJson(await admin('/admin/api/content-types/api::author.author', { method: 'DELETE' }), 400)).toEqual({
      data: null,
      error: {
        status: 400,
        name: 'ApplicationError',
        message: 'This change would delete stored data; send confirmDataLoss: true to make it anyway',
        details: { dataLoss: [{ uid: 'api::author.author', rows: 1, documents: 1 }] },
      },
    });
    await expectJson(await api('/api/authors'), 200);
    expect(await expectJson(await admin('/admin/api/content-types/api::author.author?confirmDataLoss=true', { method: 'DELETE' }), 200)).toEqual({ data: { uid: 'api::author.author' } });
    expect((await api('/api/authors')).status).toBe(404);
    expect(await exists('src/api/author')).toBe(false);
    const tables = (await server.server.services.database.db.introspection.getTables()).map((t) => t.name);
    expect(tables).not.toContain('authors');
    expect((await admin('/admin/api/content-types/api::author.author')).status).toBe(404);
  });

  it('an empty type is deleted without confirmation', async () => {
    expect(await expectJson(await admin('/admin/api/content-types/api::home.home', { method: 'DELETE' }), 400)).toMatchObject({ error: { details: { dataLoss: [{ uid: 'api::home.home', rows: 1 }] } } });
    await expectJson(await api('/api/home', { method: 'DELETE' }), 204);
    await expectJson(await admin('/admin/api/content-types/api::home.home', { method: 'DELETE' }), 200);
    expect(await exists('src/api/home')).toBe(false);
  });
});
