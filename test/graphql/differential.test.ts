import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildClientSchema, buildSchema, getIntrospectionQuery, printSchema, type IntrospectionQuery } from 'graphql';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { seedDifferential, STOCK, writeDifferentialProject, type Seeded } from './differential-model.js';
import { gqlArgs, gqlSelection, pageInfoOf, reshape, restQuery, setEnumFields, type ListArgs, type Selection } from './differential-reshape.js';

/**
 * GraphQL against REST on a content model GraphQL was not built on (differential-model.ts): for
 * each selection, the GraphQL answer equals REST's answer to the equivalent request, reshaped by
 * the rules in differential-reshape.ts. Seeded through REST only.
 */
type Json = Record<string, unknown>;
let server: TestServer;
let token: string;
let seeded: Seeded;

beforeAll(async () => {
  server = await startTestServer({ schemas: await writeDifferentialProject() });
  token = await server.token('full-access');
  await server.server.services.locales.add({ code: 'fr' });
  seeded = await seedDifferential(server, token);
  setEnumFields(['stock', 'unit']);
});
afterAll(async () => {
  await server?.close();
});

const gql = async (query: string, variables: Json = {}): Promise<{ status: number; body: Json }> => {
  const res = await server.request('/graphql', { method: 'POST', json: { query, variables }, token });
  return { status: res.status, body: (await res.json()) as Json };
};
const rest = async (path: string): Promise<Json> => {
  const res = await server.request(path, { token });
  const body = (await res.json()) as Json;
  expect({ path, status: res.status }).toEqual({ path, status: 200 });
  return body;
};
/** The one root field of a GraphQL answer that must have no errors. */
async function gqlRoot(query: string): Promise<unknown> {
  const { status, body } = await gql(query);
  expect({ query, status, errors: body.errors }).toEqual({ query, status: 200, errors: undefined });
  return Object.values(body.data as Json)[0];
}

const FILE: Selection = ['documentId', 'name', 'mime', 'url', 'width', 'height', 'alternativeText'];
const LINE: Selection = ['id', 'label', 'amount', 'unit'];
const GROUP: Selection = ['id', 'title', { name: 'lines', select: LINE }, { name: 'icon', select: ['name'] }];
const POST_SCALARS: Selection = [
  'documentId', 'title', 'slug', 'body', 'content', 'summary', 'contactEmail', 'stock', 'views', 'bigViews', 'price', 'rating', 'featured',
  'publishDate', 'readTime', 'scheduledAt', 'meta', 'createdAt', 'updatedAt', 'publishedAt', 'locale',
];
const POST_FULL: Selection = [
  ...POST_SCALARS,
  { name: 'cover', select: FILE }, { name: 'gallery', select: FILE }, { name: 'author', select: ['documentId', 'name', 'email', 'age'] },
  { name: 'tags', select: ['documentId', 'label'] }, { name: 'relatedVariant', select: ['documentId', 'sku', 'stock', 'weight'] },
  { name: 'specs', select: GROUP },
  { zone: 'sections', on: { 'page-blocks.hero-banner': ['id', 'heading', { name: 'image', select: ['name'] }], 'page-blocks.call-to-action': ['id', 'label', 'url', { name: 'target', select: ['name'] }] } },
];
const TITLE: Selection = ['documentId', 'title'];

interface ListCase {
  readonly name: string;
  /** `blogPosts` (REST `/api/blog-posts`). */
  readonly root: readonly [gqlRoot: string, restPath: string];
  readonly select: Selection;
  readonly args?: ListArgs & { readonly status?: 'draft'; readonly locale?: string };
  readonly connection?: boolean;
}

const posts = ['blogPosts', '/api/blog-posts'] as const;
const LISTS: ListCase[] = [
  { name: 'every scalar kind', root: posts, select: POST_SCALARS },
  { name: 'relations, media, repeatable components nested two deep, a dynamic zone', root: posts, select: POST_FULL },
  { name: 'filters: $containsi on a string', root: posts, select: TITLE, args: { filters: { title: { $containsi: 'POST 1' } } } },
  { name: 'filters: an odd enumeration value', root: posts, select: ['title', 'stock'], args: { filters: { stock: { $eq: 'Out of stock' } } } },
  { name: 'filters: $gt integer, $lte decimal', root: posts, select: TITLE, args: { filters: { views: { $gt: 10 }, price: { $lte: 13 } } } },
  { name: 'filters: biginteger $gte', root: posts, select: ['title', 'bigViews'], args: { filters: { bigViews: { $gte: '9000000003' } } } },
  { name: 'filters: boolean, date $between', root: posts, select: TITLE, args: { filters: { featured: { $eq: true }, publishDate: { $between: ['2024-02-01', '2024-05-31'] } } } },
  { name: 'filters: time and datetime', root: posts, select: TITLE, args: { filters: { readTime: { $gte: '02:00:00' }, scheduledAt: { $lt: '2024-06-05T00:00:00.000Z' } } } },
  { name: 'filters: $or, $not, $in', root: posts, select: TITLE, args: { filters: { $or: [{ views: { $in: [0, 50] } }, { $not: { summary: { $startsWith: 'Summary' } } }, { title: { $endsWith: '3' } }] } } },
  { name: 'filters: on a relation (manyToOne, manyToMany)', root: posts, select: TITLE, args: { filters: { author: { name: { $eq: 'Brian' } } } } },
  { name: 'filters: on a to-many relation', root: posts, select: TITLE, args: { filters: { tags: { label: { $in: ['gamma'] } } } } },
  { name: 'filters: on a nested component', root: posts, select: TITLE, args: { filters: { specs: { lines: { label: { $eq: 'p2a-1' } } } } } },
  { name: 'filters: $null, $notNull', root: posts, select: TITLE, args: { filters: { relatedVariant: { sku: { $notNull: true } } } } },
  { name: 'filters: documentId $ne, locale', root: posts, select: TITLE, args: { filters: { documentId: { $ne: 'x' }, locale: { $eq: 'en' } } } },
  { name: 'sort: descending', root: posts, select: ['title', 'views'], args: { sort: 'views:desc' } },
  { name: 'sort: two keys', root: posts, select: ['title', 'featured'], args: { sort: ['featured:asc', 'title:desc'] } },
  { name: 'sort: through a relation', root: posts, select: ['title', { name: 'author', select: ['name'] }], args: { sort: ['author.name:desc', 'title'] } },
  { name: 'pagination: page and pageSize', root: posts, select: TITLE, args: { sort: 'title', pagination: { page: 2, pageSize: 2 } }, connection: true },
  { name: 'pagination: start and limit', root: posts, select: TITLE, args: { sort: 'title', pagination: { start: 1, limit: 3 } }, connection: true },
  { name: 'connection: defaults', root: posts, select: TITLE, connection: true },
  { name: 'status: draft', root: posts, select: ['title', 'publishedAt'], args: { status: 'draft', sort: 'title' } },
  { name: 'locale: fr', root: posts, select: ['title', 'summary', 'locale', { name: 'localizations', select: ['title', 'locale'] }], args: { locale: 'fr' } },
  { name: 'locale: every locale', root: posts, select: ['title', 'locale'], args: { locale: '*', sort: ['locale', 'title'] } },
  { name: 'localizations of the en versions', root: posts, select: ['title', { name: 'localizations', select: ['title', 'locale'] }] },
  {
    name: 'relation arguments: filters and sort on a to-many relation',
    root: ['people', '/api/people'],
    select: ['name', { name: 'posts', select: ['title', 'views'], args: { filters: { views: { $gte: 20 } }, sort: 'views:desc' } }, { name: 'badge', select: ['label'] }],
  },
  { name: 'relation _connection', root: ['people', '/api/people'], select: ['name', { name: 'posts', select: ['title'], args: { sort: 'title' }, connection: true }] },
  { name: 'the inverse sides (manyToMany, oneToOne)', root: ['tags', '/api/tags'], select: ['label', { name: 'blogPosts', select: ['title'] }, { name: 'holder', select: ['name'] }] },
  { name: 'a single nested component, a one-way relation', root: ['productVariants', '/api/product-variants'], select: ['sku', 'stock', 'weight', { name: 'spec', select: GROUP }, { name: 'owners', select: ['name'] }] },
  { name: 'draft only entries of a D&P type', root: ['productVariants', '/api/product-variants'], select: ['sku', 'publishedAt'], args: { status: 'draft', sort: 'sku' } },
  { name: 'a filter on an enumeration of another type', root: ['productVariants', '/api/product-variants'], select: ['sku'], args: { filters: { stock: { $in: ['in-stock', 'pre_order'] } } } },
  { name: 'upload files', root: ['uploadFiles', '/api/upload/files'], select: FILE },
  { name: 'filters: $eqi, $nei, $notContainsi, $notIn, $null', root: posts, select: TITLE, args: { filters: { title: { $eqi: 'post 2', $nei: 'x', $notContainsi: 'Z' }, views: { $notIn: [1, 2] }, slug: { $null: true } } } },
  { name: 'filters: email $endsWith', root: posts, select: TITLE, args: { filters: { contactEmail: { $endsWith: '3@example.com' } } } },
  { name: 'sort: through a component', root: posts, select: ['title'], args: { sort: ['specs.title:desc'] } },
  { name: 'publicationFilter', root: posts, select: TITLE, args: { status: 'draft', publicationFilter: 'modified' } as ListArgs },
  { name: 'hasPublishedVersion: false', root: posts, select: TITLE, args: { status: 'draft', hasPublishedVersion: false } as ListArgs },
  {
    name: 'relations three deep',
    root: ['people', '/api/people'],
    select: ['name', { name: 'posts', select: ['title', { name: 'tags', select: ['label', { name: 'blogPosts', select: ['title'], args: { sort: 'title' } }], args: { sort: 'label' } }], args: { sort: 'title' } }],
  },
  { name: 'relations of a draft read are drafts', root: ['people', '/api/people'], select: ['name', { name: 'posts', select: ['title', 'publishedAt'], args: { sort: 'title' } }], args: { status: 'draft' } },
  { name: 'a to-one relation in a component in a dynamic zone, filtered list', root: posts, select: [{ zone: 'sections', on: { 'page-blocks.call-to-action': ['label', { name: 'target', select: ['name', { name: 'badge', select: ['label'] }] }] }, all: ['page-blocks.hero-banner'] }], args: { filters: { views: { $lt: 30 } } } },
  { name: 'users with their role', root: ['usersPermissionsUsers', '/api/users'], select: ['documentId', 'username', 'email', 'confirmed', 'blocked', 'provider', { name: 'role', select: ['name', 'type'] }] },
];

describe('GraphQL answers as REST does, on a model it was not built on', () => {
  it.each(LISTS)('$name', async (c) => {
    const { status, locale, publicationFilter, hasPublishedVersion, ...list } = (c.args ?? {}) as ListCase['args'] & { publicationFilter?: string; hasPublishedVersion?: boolean };
    const extra = {
      ...(status ? { status: 'DRAFT' } : {}), ...(locale ? { locale: JSON.stringify(locale) } : {}),
      ...(publicationFilter ? { publicationFilter: publicationFilter.toUpperCase().replaceAll('-', '_') } : {}),
      ...(hasPublishedVersion !== undefined ? { hasPublishedVersion: String(hasPublishedVersion) } : {}),
    };
    const args = gqlArgs({ ...list, extra });
    const select = gqlSelection(c.select);
    const query = c.connection ? `{ ${c.root[0]}_connection${args} { nodes ${select} pageInfo { total page pageSize pageCount } } }` : `{ ${c.root[0]}${args} ${select} }`;
    const answer = await gqlRoot(query);
    const restAnswer = await rest(`${c.root[1]}?${restQuery(c.select, c.args)}`);
    // The upload and users routes answer a bare list.
    const data = Array.isArray(restAnswer) ? restAnswer : restAnswer.data;
    const expected = c.connection ? { nodes: reshape(c.select, data), pageInfo: pageInfoOf((restAnswer.meta as Json).pagination as Json) } : reshape(c.select, data);
    expect(answer).toEqual(expected);
  });

  it('one document by documentId, in a locale and status', async () => {
    for (const [documentId, args] of [[seeded.posts[0], {}], [seeded.posts[0], { locale: 'fr' }], [seeded.posts[1], { status: 'draft' }], [seeded.posts[6], { status: 'draft' }]] as const) {
      const extra = { documentId: JSON.stringify(documentId), ...('status' in args ? { status: 'DRAFT' } : {}), ...('locale' in args ? { locale: '"fr"' } : {}) };
      const answer = await gqlRoot(`{ blogPost${gqlArgs({ extra })} ${gqlSelection(POST_FULL)} }`);
      const restAnswer = await rest(`/api/blog-posts/${documentId}?${restQuery(POST_FULL, args)}`);
      expect(answer).toEqual(reshape(POST_FULL, restAnswer.data));
    }
  });

  it('the single type', async () => {
    const select: Selection = ['documentId', 'siteName', 'locale', { name: 'footer', select: LINE }, { zone: 'hero', on: { 'page-blocks.hero-banner': ['heading', { name: 'image', select: ['name'] }] } }];
    const answer = await gqlRoot(`{ siteSetting ${gqlSelection(select)} }`);
    expect(answer).toEqual(reshape(select, (await rest(`/api/site-setting?${restQuery(select)}`)).data));
  });
});

describe('the schema of this model', () => {
  it('prints as valid SDL and introspects, with Strapi names', async () => {
    const { status, body } = await gql(getIntrospectionQuery());
    expect({ status, errors: body.errors }).toEqual({ status: 200, errors: undefined });
    const sdl = printSchema(buildClientSchema(body.data as IntrospectionQuery));
    expect(() => buildSchema(sdl)).not.toThrow();
    for (const name of ['type BlogPost ', 'type Person ', 'type ProductVariant ', 'type SiteSetting ', 'type ComponentProductPartsSpecGroup ', 'type ComponentPageBlocksHeroBanner ',
      'union BlogPostSectionsDynamicZone = ComponentPageBlocksHeroBanner | ComponentPageBlocksCallToAction | Error', 'input BlogPostFiltersInput ',
      'type BlogPostEntityResponseCollection ', 'type PersonRelationResponseCollection ', 'scalar BlogPostSectionsDynamicZoneInput',
      'enum ENUM_BLOGPOST_STOCK {\n  in_stock\n  Out_of_stock\n  pre_order\n}', 'enum ENUM_COMPONENTPRODUCTPARTSSPECLINE_UNIT {']) {
      expect(sdl).toContain(name);
    }
    for (const field of ['blogPost(', 'blogPosts(', 'blogPosts_connection(', 'person(', 'people(', 'people_connection(', 'productVariants(', 'siteSetting(']) expect(sdl).toContain(`  ${field}`);
    for (const field of ['createBlogPost(', 'updatePerson(', 'deleteProductVariant(', 'updateSiteSetting(', 'deleteSiteSetting(']) expect(sdl).toContain(`  ${field}`);
    expect(sdl).not.toContain('createSiteSetting');
  });
});

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
    cover: String(seeded.files[1]), gallery: [String(seeded.files[2]), String(seeded.files[0])], author: seeded.people[3], tags: [seeded.tags[3], seeded.tags[0]],
    relatedVariant: seeded.variants[2],
    specs: [{ title: 'g1', icon: String(seeded.files[0]), lines: [{ label: 'l1', amount: 2, unit: 'in' }, { label: 'l2', amount: 3, unit: 'mm' }] }],
    sections: [{ __typename: 'ComponentPageBlocksCallToAction', label: 'cta', url: 'https://x.test', target: seeded.people[0] }, { __typename: 'ComponentPageBlocksHeroBanner', heading: 'h', image: String(seeded.files[2]) }],
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
    expect((await server.request(`/api/blog-posts/${id}?locale=fr`, { token })).status).toBe(404);
    expect(await restRead(id)).toMatchObject({ title: 'Loc base' });
  });

  it('updates a nested component in place by id (in the draft: publishing copies components), a single type in a locale', async () => {
    const variant = seeded.variants[0] ?? '';
    const before = (await rest(`/api/product-variants/${variant}?status=draft&populate[spec][populate]=lines`)).data as { spec: { id: number; lines: Array<{ id: number }> } };
    const select: Selection = ['documentId', 'sku', 'stock', { name: 'spec', select: GROUP }, { name: 'owners', select: ['name'] }];
    const data = { stock: 'pre_order', owners: [seeded.people[2]], spec: { id: String(before.spec.id), title: 'renamed', lines: [{ id: String(before.spec.lines[0]?.id), label: 'kept', amount: 9, unit: 'cm' }] } };
    const updated = await mutate(`mutation($id: ID!, $data: ProductVariantInput!) { updateProductVariant(documentId: $id, status: DRAFT, data: $data) ${gqlSelection(select)} }`, { id: variant, data });
    expect(updated).toEqual(reshape(select, (await rest(`/api/product-variants/${variant}?${restQuery(select, { status: 'draft' })}`)).data));
    expect(updated).toMatchObject({ spec: { id: String(before.spec.id), title: 'renamed', lines: [{ id: String(before.spec.lines[0]?.id), label: 'kept', unit: 'cm' }] } });

    const single: Selection = ['siteName', 'locale', { name: 'footer', select: LINE }];
    const fr = await mutate(`mutation($data: SiteSettingInput!) { updateSiteSetting(locale: "fr", data: $data) ${gqlSelection(single)} }`, { data: { siteName: 'Réglages', footer: { label: 'pied', amount: 2, unit: 'mm' } } });
    expect(fr).toEqual(reshape(single, (await rest(`/api/site-setting?locale=fr&${restQuery(single)}`)).data));
  });

  it('the upload mutations change what REST lists', async () => {
    const file = seeded.files[2] ?? 0;
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
    const { status, ...error } = ((await (await server.request(path, { token, ...init })).json()) as { error: Json & { status: number } }).error;
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

describe('list arguments below the root, against the whole list REST reads', () => {
  type Spec = { id: number; title: string; lines: Array<{ id: number; label: string; amount: number }> };
  const specsOf = async (): Promise<Array<{ documentId: string; specs: Spec[] }>> =>
    (await rest('/api/blog-posts?sort=title&fields[0]=title&populate[specs][populate][lines]=true')).data as Array<{ documentId: string; specs: Spec[] }>;

  it('a repeatable component takes filters, sort and pagination (Strapi applies them to the component list)', async () => {
    const all = await specsOf();
    const answer = (await gqlRoot('{ blogPosts(sort: "title") { documentId a: specs(sort: "title:desc") { title } b: specs(filters: { title: { endsWith: "b" } }) { title } c: specs(pagination: { limit: 1, start: 1 }) { title lines(sort: "amount:desc", pagination: { pageSize: 1 }) { label } } } }')) as Json[];
    expect(answer).toEqual(all.map((p) => ({
      documentId: p.documentId,
      a: [...p.specs].sort((x, y) => y.title.localeCompare(x.title)).map((s) => ({ title: s.title })),
      b: p.specs.filter((s) => s.title.endsWith('b')).map((s) => ({ title: s.title })),
      c: p.specs.slice(1, 2).map((s) => ({ title: s.title, lines: [...s.lines].sort((x, y) => y.amount - x.amount).slice(0, 1).map((l) => ({ label: l.label })) })),
    })));
  });

  it('a relation list takes pagination; the same relation twice with other arguments', async () => {
    const people = (await rest('/api/people?sort=name&fields[0]=name&populate[posts][fields][0]=title&populate[posts][sort]=title')).data as Array<{ name: string; posts: Array<{ title: string }> }>;
    const answer = await gqlRoot('{ people(sort: "name") { name first: posts(sort: "title", pagination: { limit: 1 }) { title } rest: posts(sort: "title", pagination: { start: 1 }) { title } page2: posts_connection(sort: "title", pagination: { page: 2, pageSize: 1 }) { nodes { title } } } }');
    const titles = (list: Array<{ title: string }>) => list.map((p) => ({ title: p.title }));
    expect(answer).toEqual(people.map((p) => ({ name: p.name, first: titles(p.posts.slice(0, 1)), rest: titles(p.posts.slice(1)), page2: { nodes: titles(p.posts.slice(1, 2)) } })));
  });
});

describe('generated queries (fast-check, fixed seed)', () => {
  const scalar = <T>(field: string, ops: readonly string[], values: readonly T[]) =>
    fc.record({ op: fc.constantFrom(...ops), v: fc.constantFrom(...values) }).map(({ op, v }) => ({ [field]: { [op]: op === '$in' || op === '$notIn' ? [v] : op === '$null' || op === '$notNull' ? true : v } }));
  const ORDER = ['$eq', '$ne', '$lt', '$lte', '$gt', '$gte', '$in', '$notIn', '$null', '$notNull'];
  const TEXT = ['$eq', '$eqi', '$ne', '$containsi', '$notContainsi', '$startsWith', '$endsWith', '$contains', '$null', '$notNull'];
  const leaf = fc.oneof(
    scalar('title', TEXT, ['Post 1', 'post', 'Draft', '3', 'Billet 0']),
    scalar('stock', ['$eq', '$ne', '$in'], [...STOCK]),
    scalar('views', ORDER, [0, 10, 25, 40]),
    scalar('price', ORDER, [9.99, 11.99, 12]),
    scalar('bigViews', ORDER, ['9000000002', '9000000005']),
    scalar('featured', ['$eq', '$ne'], [true, false]),
    scalar('publishDate', ORDER, ['2024-03-15', '2024-05-01']),
    scalar('readTime', ORDER, ['02:30:00.000', '04:00:00.000']),
    scalar('scheduledAt', ORDER, ['2024-06-03T10:00:00.000Z']),
    fc.constantFrom('Ada', 'Brian', 'Chloé').map((name) => ({ author: { name: { $eq: name } } })),
    fc.constantFrom('alpha', 'beta', 'gamma').map((label) => ({ tags: { label: { $eq: label } } })),
  );
  const filters = fc.oneof(leaf, fc.array(leaf, { minLength: 2, maxLength: 3 }).map((l) => ({ $or: l })), fc.array(leaf, { minLength: 2, maxLength: 3 }).map((l) => ({ $and: l })), leaf.map((l) => ({ $not: l })));
  const sort = fc.constantFrom<string | string[]>('views:desc', ['featured', 'title:desc'], 'price:asc', 'publishDate:desc', ['stock', 'title'], 'author.name', 'title');
  const pagination = fc.oneof(fc.record({ page: fc.integer({ min: 1, max: 3 }), pageSize: fc.integer({ min: 1, max: 4 }) }), fc.record({ start: fc.integer({ min: 0, max: 5 }), limit: fc.integer({ min: 1, max: 4 }) }));
  const select = fc.subarray(POST_FULL.filter((f) => f !== 'documentId'), { minLength: 1, maxLength: 6 }).map((s) => ['documentId', ...s] as Selection);
  const args = fc.record({ filters: fc.option(filters, { nil: undefined }), sort, pagination: fc.option(pagination, { nil: undefined }), status: fc.option(fc.constant('draft' as const), { nil: undefined }), locale: fc.option(fc.constantFrom('fr', '*'), { nil: undefined }) }, { requiredKeys: ['sort'] });

  it('answer as REST does for 60 generated list queries', async () => {
    const cases = fc.sample(fc.record({ select, args, connection: fc.boolean() }), { numRuns: 60, seed: 4242 });
    for (const c of cases) {
      const { status, locale, ...list } = c.args;
      const extra = { ...(status ? { status: 'DRAFT' } : {}), ...(locale ? { locale: JSON.stringify(locale) } : {}) };
      const query = c.connection
        ? `{ blogPosts_connection${gqlArgs({ ...list, extra })} { nodes ${gqlSelection(c.select)} pageInfo { total page pageSize pageCount } } }`
        : `{ blogPosts${gqlArgs({ ...list, extra })} ${gqlSelection(c.select)} }`;
      const restAnswer = await rest(`/api/blog-posts?${restQuery(c.select, c.args)}`);
      const expected = c.connection ? { nodes: reshape(c.select, restAnswer.data), pageInfo: pageInfoOf((restAnswer.meta as Json).pagination as Json) } : reshape(c.select, restAnswer.data);
      expect({ query, answer: await gqlRoot(query) }).toEqual({ query, answer: expected });
    }
  });
});
