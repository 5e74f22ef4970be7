import { describe, expect, it } from 'vitest';
import { GROUP, LINE, POST_FULL, useDifferentialServer } from './differential-harness.js';
import { gqlSelection, reshape, restQuery, type Selection } from './differential-reshape.js';

/**
 * GraphQL mutations on the differential model (differential-model.ts), each answer compared with
 * what REST then reads (reshaped by differential-reshape.ts's rules), and errors compared with
 * REST's for the same mistake.
 */
type Json = Record<string, unknown>;
const { state, gql, rest } = useDifferentialServer();

/** A mutation's one root field (no errors). */
async function mutate(query: string, variables: Json): Promise<Json> {
  const { status, body } = await gql(query, variables);
  expect({ status, errors: body.errors }).toEqual({ status: 200, errors: undefined });
  return Object.values(body.data as Json)[0] as Json;
}

describe('GraphQL mutations, read back over REST', () => {
  const sel = gqlSelection(POST_FULL);
  const input = (): Json => ({
    title: 'Made by GraphQL', body: '**md**', content: [{ type: 'paragraph', children: [{ type: 'text', text: 'gql' }] }], summary: 'gql summary',
    contactEmail: 'gql@example.com', stock: 'Out_of_stock', views: 77, bigViews: '9000000077', price: 1.5, rating: 0.125, featured: true,
    publishDate: '2025-01-02', readTime: '12:34:56.789', scheduledAt: '2025-01-02T03:04:05.006Z', meta: { a: [1, { b: null }] }, secret: 'pw-123456', internalNote: 'hidden',
    cover: String(state().seeded.files[1]), gallery: [String(state().seeded.files[2]), String(state().seeded.files[0])], author: state().seeded.people[3], tags: [state().seeded.tags[3], state().seeded.tags[0]],
    relatedVariant: state().seeded.variants[2],
    specs: [{ title: 'g1', icon: String(state().seeded.files[0]), lines: [{ label: 'l1', amount: 2, unit: 'in' }, { label: 'l2', amount: 3, unit: 'mm' }] }],
    sections: [{ __typename: 'ComponentPageBlocksCallToAction', label: 'cta', url: 'https://x.test', target: state().seeded.people[0] }, { __typename: 'ComponentPageBlocksHeroBanner', heading: 'h', image: String(state().seeded.files[2]) }],
  });
  const restRead = async (documentId: string, args: { status?: string; locale?: string } = {}) =>
    reshape(POST_FULL, (await rest(`/api/blog-posts/${documentId}?${restQuery(POST_FULL, args)}`)).data);

  it('createX with every attribute kind answers what REST then reads (enum by name, stored by value)', async () => {
    const made = await mutate(`mutation($data: BlogPostInput!) { createBlogPost(data: $data) ${sel} }`, { data: input() });
    expect(made).toEqual(await restRead(String(made.documentId)));
    expect(made).toMatchObject({ stock: 'Out_of_stock', tags: [{ label: 'delta' }, { label: 'alpha' }] });
    const stored = (await rest(`/api/blog-posts/${String(made.documentId)}?fields[0]=stock`)).data as Json;
    expect(stored).toMatchObject({ stock: 'Out of stock' });
  });

  it('updateX in another locale and as a draft; deleteX(locale) deletes that locale only', async () => {
    const made = await mutate(`mutation($data: BlogPostInput!) { createBlogPost(data: $data) { documentId } }`, { data: { ...input(), title: 'Loc base' } });
    const id = String(made.documentId);
    const fr = await mutate(`mutation($id: ID!, $data: BlogPostInput!) { updateBlogPost(documentId: $id, locale: "fr", data: $data) ${sel} }`, { id, data: { title: 'En français', stock: 'pre_order' } });
    expect(fr).toEqual(await restRead(id, { locale: 'fr' }));
    const draft = await mutate(`mutation($id: ID!, $data: BlogPostInput!) { updateBlogPost(documentId: $id, status: DRAFT, data: $data) ${sel} }`, { id, data: { title: 'Draft edit', tags: [] } });
    expect(draft).toEqual(await restRead(id, { status: 'draft' }));
    expect(await restRead(id)).toMatchObject({ title: 'Loc base', tags: [{ label: 'delta' }, { label: 'alpha' }] });
    expect(await mutate(`mutation($id: ID!) { deleteBlogPost(documentId: $id, locale: "fr") { documentId } }`, { id })).toEqual({ documentId: id });
    expect((await state().server.request(`/api/blog-posts/${id}?locale=fr`, { token: state().token })).status).toBe(404);
    expect(await restRead(id)).toMatchObject({ title: 'Loc base' });
  });

  it('updates a nested component in place by id (in the draft: publishing copies components), a single type in a locale', async () => {
    const variant = state().seeded.variants[0] ?? '';
    const before = (await rest(`/api/product-variants/${variant}?status=draft&populate[spec][populate]=lines`)).data as { spec: { id: number; lines: Array<{ id: number }> } };
    const select: Selection = ['documentId', 'sku', 'stock', { name: 'spec', select: GROUP }, { name: 'owners', select: ['name'] }];
    const data = { stock: 'pre_order', owners: [state().seeded.people[2]], spec: { id: String(before.spec.id), title: 'renamed', lines: [{ id: String(before.spec.lines[0]?.id), label: 'kept', amount: 9, unit: 'cm' }] } };
    const updated = await mutate(`mutation($id: ID!, $data: ProductVariantInput!) { updateProductVariant(documentId: $id, status: DRAFT, data: $data) ${gqlSelection(select)} }`, { id: variant, data });
    expect(updated).toEqual(reshape(select, (await rest(`/api/product-variants/${variant}?${restQuery(select, { status: 'draft' })}`)).data));
    expect(updated).toMatchObject({ spec: { id: String(before.spec.id), title: 'renamed', lines: [{ id: String(before.spec.lines[0]?.id), label: 'kept', unit: 'cm' }] } });

    const single: Selection = ['siteName', 'locale', { name: 'footer', select: LINE }];
    const fr = await mutate(`mutation($data: SiteSettingInput!) { updateSiteSetting(locale: "fr", data: $data) ${gqlSelection(single)} }`, { data: { siteName: 'Réglages', footer: { label: 'pied', amount: 2, unit: 'mm' } } });
    expect(fr).toEqual(reshape(single, (await rest(`/api/site-setting?locale=fr&${restQuery(single)}`)).data));
  });

  it('the upload mutations change what REST lists', async () => {
    const file = state().seeded.files[2] ?? 0;
    const info = await mutate(`mutation($id: ID!) { updateUploadFile(id: $id, info: { name: "renamed.jpg", alternativeText: "alt", caption: "cap" }) { name alternativeText caption } }`, { id: String(file) });
    const listed = (await rest(`/api/upload/files/${file}`)) as Json;
    expect(info).toEqual({ name: listed.name, alternativeText: listed.alternativeText, caption: listed.caption });
    expect(info).toEqual({ name: 'renamed.jpg', alternativeText: 'alt', caption: 'cap' });
  });
});

describe('errors answer as REST does', () => {
  /** GraphQL's `extensions.error` for a root field, and REST's `error` without its status. */
  const gqlError = async (query: string, variables: Json = {}): Promise<Json> => {
    const { status, body } = await gql(query, variables);
    expect(status).toBe(200);
    const [first] = body.errors as Array<{ extensions: { code: string; error: Json } }>;
    return { code: first?.extensions.code, ...first?.extensions.error };
  };
  const restError = async (path: string, init: RequestInit & { json?: unknown } = {}): Promise<Json> => {
    const { status, ...error } = ((await (await state().server.request(path, { token: state().token, ...init })).json()) as { error: Json & { status: number } }).error;
    return { status, ...error };
  };

  it.each([
    ['an unknown sort key', '{ blogPosts(sort: "nope") { title } }', '/api/blog-posts?sort=nope'],
    ['a bad sort direction', '{ people(sort: "name:up") { name } }', '/api/people?sort=name:up'],
    ['a private field in filters', '{ blogPosts(filters: { documentId: { eq: "x" }, and: [{ title: { eq: "a" } }] }, sort: "internalNote") { title } }', '/api/blog-posts?filters[documentId][$eq]=x&filters[$and][0][title][$eq]=a&sort=internalNote'],
  ])('query: %s', async (_name, query, path) => {
    const [g, r] = [await gqlError(query), await restError(path)];
    expect({ code: g.code, name: g.name, message: g.message, details: g.details }).toEqual({ code: 'BAD_USER_INPUT', name: r.name, message: r.message, details: r.details });
  });

  it.each([
    ['a missing required field', 'Person', '/api/people', { email: 'x@example.com' }],
    ['an invalid email', 'Person', '/api/people', { name: 'E', email: 'not-an-email' }],
    ['a unique violation', 'Tag', '/api/tags', { label: 'alpha' }],
    ['an unknown relation documentId', 'Person', '/api/people', { name: 'R', badge: 'doesnotexist000000000000' }],
  ])('mutation: %s', async (_name, type, path, data) => {
    const g = await gqlError(`mutation($data: ${type}Input!) { create${type}(data: $data) { documentId } }`, { data });
    const r = await restError(path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ data }) });
    expect({ code: g.code, name: g.name, message: g.message, details: g.details }).toEqual({ code: 'BAD_USER_INPUT', name: r.name, message: r.message, details: r.details });
  });
});
