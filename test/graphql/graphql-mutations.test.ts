import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

/**
 * Content-type mutations on the fixture project, beyond what the recorded transcripts show: the
 * stored state after relation writes (a list replaces, `[]` clears, `null` unsets), a failed
 * mutation writes nothing, `deleteX(locale)` deletes that locale only, and a mutation's answer is
 * read as the query reads it (localizations list the other locales, each related entry once,
 * nested permissions as in a query).
 */
type Json = Record<string, unknown>;
let server: TestServer;
let token: string;

beforeAll(async () => {
  server = await startTestServer();
  token = await server.token('full-access');
  await server.server.services.locales.add({ code: 'fr' });
});

afterAll(async () => {
  await server.close();
});

const gql = async (query: string, variables: Json = {}, auth: string = token): Promise<{ status: number; body: Json }> => {
  const res = await server.request('/graphql', { method: 'POST', json: { query, variables }, token: auth });
  return { status: res.status, body: (await res.json()) as Json };
};

/** The one root field's value of a 200 answer without errors. */
async function root(query: string, variables: Json = {}, auth: string = token): Promise<Json> {
  const { status, body } = await gql(query, variables, auth);
  expect({ status, errors: body.errors }).toEqual({ status: 200, errors: undefined });
  return Object.values(body.data as Json)[0] as Json;
}

const rest = async (path: string): Promise<Json> => ((await (await server.request(path, { token })).json()) as { data: Json }).data;

const make = async (kind: 'Tag' | 'Category', data: Json): Promise<string> =>
  String((await root(`mutation($data: ${kind}Input!) { create${kind}(data: $data) { documentId } }`, { data })).documentId);

const rowsOf = async (table: string, where: { column: string; value: string }): Promise<number> =>
  (await server.server.services.database.db.selectFrom(table).select('id').where(where.column, '=', where.value).execute()).length;

describe('GraphQL content-type mutations', () => {
  it('replaces a to-many relation with the given list, clears it with [], unsets a to-one with null (as stored, read over REST)', async () => {
    const [a, b] = [await make('Tag', { label: 'm-a' }), await make('Tag', { label: 'm-b' })];
    const category = await make('Category', { name: 'M-cat' });
    const select = '{ documentId tags(sort: "label") { label } category { name } }';
    const created = await root(`mutation($t: [ID], $c: ID) { createArticle(data: { title: "Rel", tags: $t, category: $c }) ${select} }`, { t: [a, b, a], c: category });
    // Each related entry once, though the list named one twice.
    expect(created).toMatchObject({ tags: [{ label: 'm-a' }, { label: 'm-b' }], category: { name: 'M-cat' } });
    const id = String(created.documentId);
    const stored = async () => rest(`/api/articles/${id}?populate[tags][fields][0]=label&populate[tags][sort]=label&populate[category][fields][0]=name`);

    expect(await root(`mutation($id: ID!, $t: [ID]) { updateArticle(documentId: $id, data: { tags: $t }) ${select} }`, { id, t: [b] })).toMatchObject({ tags: [{ label: 'm-b' }], category: { name: 'M-cat' } });
    expect(await stored()).toMatchObject({ tags: [{ label: 'm-b' }], category: { name: 'M-cat' } });

    expect(await root(`mutation($id: ID!) { updateArticle(documentId: $id, data: { tags: [], category: null }) ${select} }`, { id })).toMatchObject({ tags: [], category: null });
    expect(await stored()).toMatchObject({ tags: [], category: null });
  });

  it('writes nothing when a mutation fails (unknown relation, validation error)', async () => {
    const tables = { article: 'articles', specimen: 'specimens' };
    const before = { a: await rowsOf(tables.article, { column: 'title', value: 'Never' }), s: await rowsOf(tables.specimen, { column: 's_required', value: 'never' }) };
    const unknown = await gql('mutation { createArticle(data: { title: "Never", category: "doesnotexist000000000000" }) { documentId } }');
    expect(unknown.body).toMatchObject({ data: { createArticle: null }, errors: [{ extensions: { code: 'BAD_USER_INPUT' } }] });
    const invalid = await gql('mutation { createSpecimen(data: { s_required: "never", s_int: 1000 }) { documentId } }');
    expect(invalid.body).toMatchObject({ data: { createSpecimen: null }, errors: [{ extensions: { code: 'BAD_USER_INPUT', error: { name: 'ValidationError' } } }] });
    expect({ a: await rowsOf(tables.article, { column: 'title', value: 'Never' }), s: await rowsOf(tables.specimen, { column: 's_required', value: 'never' }) }).toEqual(before);
  });

  it('refuses a mutation without the REST action and writes nothing', async () => {
    const readOnly = await server.token('read-only');
    const { status, body } = await gql('mutation { createTag(data: { label: "ro-never" }) { documentId } }', {}, readOnly);
    expect({ status, body }).toEqual({
      status: 200,
      body: { errors: [{ message: 'Forbidden access', path: ['createTag'], extensions: { code: 'FORBIDDEN', error: { name: 'ForbiddenError', message: 'Forbidden access', details: {} } } }], data: { createTag: null } },
    });
    expect(await rowsOf('tags', { column: 'label', value: 'ro-never' })).toBe(0);
  });

  it('deleteArticle(locale) deletes that locale only; the other locale keeps its versions', async () => {
    const id = String((await root('mutation { createArticle(data: { title: "Both" }) { documentId } }')).documentId);
    await root('mutation($id: ID!) { updateArticle(documentId: $id, locale: "fr", data: { title: "Les deux" }) { documentId } }', { id });
    expect(await root('mutation($id: ID!) { deleteArticle(documentId: $id, locale: "fr") { documentId } }', { id })).toEqual({ documentId: id });
    expect(await root('query($id: ID!) { article(documentId: $id, locale: "fr") { title } }', { id })).toBeNull();
    expect(await root('query($id: ID!) { article(documentId: $id) { title locale } }', { id })).toEqual({ title: 'Both', locale: 'en' });
    expect(await root('query($id: ID!) { article(documentId: $id, status: DRAFT) { title } }', { id })).toEqual({ title: 'Both' });
  });

  it("answers a mutation's localizations with the other locales only, as the query does", async () => {
    const selection = '{ locale localizations { locale title } }';
    const id = String((await root('mutation { createArticle(data: { title: "Loc en" }) { documentId } }')).documentId);
    const fr = await root(`mutation($id: ID!) { updateArticle(documentId: $id, locale: "fr", data: { title: "Loc fr" }) ${selection} }`, { id });
    expect(fr).toEqual({ locale: 'fr', localizations: [{ locale: 'en', title: 'Loc en' }] });
    const en = await root(`mutation($id: ID!) { updateArticle(documentId: $id, data: { summary: "s" }) ${selection} }`, { id });
    expect(en).toEqual({ locale: 'en', localizations: [{ locale: 'fr', title: 'Loc fr' }] });
    expect(await root(`query($id: ID!) { article(documentId: $id) ${selection} }`, { id })).toEqual(en);
  });

  it("reads a mutation's nested relations with the caller's permissions, as the same query would, and checks them before writing", async () => {
    const category = await make('Category', { name: 'Hidden cat' });
    const id = String((await root('mutation($c: ID) { createArticle(data: { title: "Perm", category: $c }) { documentId } }', { c: category })).documentId);
    const writer = await server.token('custom', ['api::article.article.update', 'api::article.article.findOne']);
    const selection = '{ title category { name } }';
    const query = await gql(`query($id: ID!) { article(documentId: $id) ${selection} }`, { id }, writer);
    const mutation = await gql(`mutation($id: ID!) { updateArticle(documentId: $id, data: { summary: "p" }) ${selection} }`, { id }, writer);
    expect(mutation.status).toBe(query.status);
    expect(JSON.stringify(mutation.body).replaceAll('updateArticle', 'article')).toBe(JSON.stringify(query.body));
    // The category is not the caller's to read: the same 400 as the query's populate, and the summary was not written.
    expect(query.body).toMatchObject({ data: { article: null }, errors: [{ message: 'Invalid key category', extensions: { code: 'BAD_USER_INPUT' } }] });
    expect(await rest(`/api/articles/${id}`)).toMatchObject({ title: 'Perm', summary: null });
  });

  it('updateX on a single type creates it when missing; deleteX answers its documentId, then NotFoundError', async () => {
    const made = await root('mutation { updateHomepage(data: { headline: "H1" }) { documentId headline } }');
    expect(made).toMatchObject({ headline: 'H1' });
    const { body } = await gql('mutation { a: deleteHomepage { documentId } b: deleteHomepage { documentId } }');
    expect(body).toEqual({
      errors: [{ message: 'Document not found', path: ['b'], extensions: { code: 'STRAPI_NOT_FOUND_ERROR', error: { name: 'NotFoundError', message: 'Document not found', details: {} } } }],
      data: { a: { documentId: made.documentId }, b: null },
    });
  });

  it('updates a component in place by its id and keeps dynamic-zone entries of allowed components only', async () => {
    const created = await root('mutation { createArticle(status: DRAFT, data: { title: "Cmp", seo: { metaTitle: "one" }, blocks: [{ __typename: "ComponentSharedQuote", text: "q" }, { __typename: "ComponentSharedSeo", metaTitle: "dropped" }] }) { documentId seo { id metaTitle } blocks { __typename } } }');
    expect(created).toMatchObject({ seo: { metaTitle: 'one' }, blocks: [{ __typename: 'ComponentSharedQuote' }] });
    const seo = created.seo as Json;
    const updated = await root('mutation($id: ID!, $seo: ComponentSharedSeoInput) { updateArticle(documentId: $id, status: DRAFT, data: { seo: $seo }) { seo { id metaTitle metaDescription } } }', {
      id: created.documentId,
      seo: { id: seo.id, metaTitle: 'two' },
    });
    expect(updated).toEqual({ seo: { id: seo.id, metaTitle: 'two', metaDescription: null } });
  });
});
