import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildClientSchema, buildSchema, getIntrospectionQuery, printSchema, type IntrospectionQuery } from 'graphql';
import { STOCK } from './differential-model.js';
import { FILE, GROUP, LINE, POST_FULL, POST_SCALARS, TITLE, useDifferentialServer } from './differential-harness.js';
import { gqlArgs, gqlSelection, pageInfoOf, reshape, restQuery, type ListArgs, type Selection } from './differential-reshape.js';

/**
 * GraphQL against REST on a content model GraphQL was not built on (differential-model.ts): for
 * each selection, the GraphQL answer equals REST's answer to the equivalent request, reshaped by
 * the rules in differential-reshape.ts. Seeded through REST only. Mutations and errors:
 * differential-mutations.test.ts.
 */
type Json = Record<string, unknown>;
const { state, gql, rest, gqlRoot } = useDifferentialServer();

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
  { name: 'a self relation and a relation to users', root: posts, select: ['title', { name: 'seeAlso', select: ['title', { name: 'seeAlso', select: ['title'] }] }, { name: 'reviewer', select: ['username', 'email'] }], args: { sort: 'title' } },
  { name: 'filters: through a self relation and a user', root: posts, select: TITLE, args: { filters: { $or: [{ seeAlso: { title: { $eq: 'Post 0' } } }, { reviewer: { username: { $eq: 'victor' } } }] } } },
  { name: 'upload files: filters and sort', root: ['uploadFiles', '/api/upload/files'], select: FILE, args: { filters: { mime: { $startsWith: 'image/' } }, sort: 'name:desc' } },
  { name: 'users: filters on the role, sort', root: ['usersPermissionsUsers', '/api/users'], select: ['username', { name: 'role', select: ['type'] }], args: { filters: { role: { type: { $eq: 'authenticated' } } }, sort: 'username:desc' } },
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
    for (const [documentId, args] of [[state().seeded.posts[0], {}], [state().seeded.posts[0], { locale: 'fr' }], [state().seeded.posts[1], { status: 'draft' }], [state().seeded.posts[6], { status: 'draft' }]] as const) {
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
  it('a dynamic zone or a single component selected twice, under aliases with other fields', async () => {
    const zoneA: Selection = [{ zone: 'sections', on: { 'page-blocks.hero-banner': ['heading', { name: 'image', select: ['name'] }] }, all: ['page-blocks.call-to-action'] }];
    const zoneB: Selection = [{ zone: 'sections', on: { 'page-blocks.call-to-action': ['label', { name: 'target', select: ['name'] }] }, all: ['page-blocks.hero-banner'] }];
    const answer = await gqlRoot('{ blogPosts(sort: "title") { title a: sections { __typename ... on ComponentPageBlocksHeroBanner { heading image { name } } } b: sections { __typename ... on ComponentPageBlocksCallToAction { label target { name } } } } }');
    const [ra, rb] = [await rest(`/api/blog-posts?sort=title&fields[0]=title&${restQuery(zoneA)}`), await rest(`/api/blog-posts?sort=title&fields[0]=title&${restQuery(zoneB)}`)];
    const [la, lb] = [reshape(zoneA, ra.data) as Json[], reshape(zoneB, rb.data) as Json[]];
    expect(answer).toEqual(la.map((p, i) => ({ title: ((ra.data as Json[])[i] as Json).title, a: p.sections, b: lb[i]?.sections })));
  });

  it('a relation list inside a dynamic-zone component takes its filters, sort and window', async () => {
    const posts = (await rest('/api/blog-posts?sort=title&fields[0]=title&populate[sections][on][page-blocks.call-to-action][populate][links][fields][0]=label&populate[sections][on][page-blocks.call-to-action][populate][links][sort]=label&populate[sections][on][page-blocks.hero-banner]=true')).data as Array<{ title: string; sections: Array<{ __component: string; links?: Array<{ label: string }> }> }>;
    const labels = (list: Array<{ label: string }>) => list.map((l) => ({ label: l.label }));
    const expected = (links: (all: Array<{ label: string }>) => unknown) => posts.map((p) => ({
      title: p.title,
      sections: p.sections.map((s) => (s.__component === 'page-blocks.hero-banner' ? { __typename: 'ComponentPageBlocksHeroBanner' } : { __typename: 'ComponentPageBlocksCallToAction', ...(links(s.links ?? []) as Json) })),
    }));
    const zone = (inner: string) => `{ blogPosts(sort: "title") { title sections { __typename ... on ComponentPageBlocksCallToAction { ${inner} } } } }`;
    expect(await gqlRoot(zone('links(sort: "label:desc", pagination: { limit: 2 }) { label }'))).toEqual(expected((all) => ({ links: labels([...all].reverse().slice(0, 2)) })));
    expect(await gqlRoot(zone('links_connection(filters: { label: { ne: "beta" } }, sort: "label", pagination: { start: 1 }) { nodes { label } }')))
      .toEqual(expected((all) => ({ links_connection: { nodes: labels(all.filter((l) => l.label !== 'beta').slice(1)) } })));
  });

  it('a single component selected twice, under aliases with other fields', async () => {
    const answer = await gqlRoot('{ productVariants(sort: "sku") { sku a: spec { title icon { name } } b: spec { lines { label } } } }');
    const variants = (await rest('/api/product-variants?sort=sku&fields[0]=sku&populate[spec][populate][icon][fields][0]=name&populate[spec][populate][lines][fields][0]=label')).data as Json[];
    expect(answer).toEqual(variants.map((v) => {
      const spec = v.spec as { title: string; icon: { name: string }; lines: Array<{ label: string }> };
      return { sku: v.sku, a: { title: spec.title, icon: { name: spec.icon.name } }, b: { lines: spec.lines.map((l) => ({ label: l.label })) } };
    }));
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
  it('answer as REST does for 40 generated relation lists with their own filters, sort and window', async () => {
    const windowed = fc.record({
      root: fc.constantFrom<readonly [string, string, string, string]>(['people', '/api/people', 'posts', 'name'], ['tags', '/api/tags', 'blogPosts', 'label']),
      filters: fc.option(filters, { nil: undefined }),
      sort: fc.constantFrom<string | string[]>('views:desc', ['featured', 'title:desc'], 'price', ['stock:desc', 'title'], 'title'),
      pagination: fc.option(pagination, { nil: undefined }),
      status: fc.option(fc.constant('draft' as const), { nil: undefined }),
      connection: fc.boolean(),
    });
    for (const c of fc.sample(windowed, { numRuns: 40, seed: 1812 })) {
      const [root, path, relation, key] = c.root;
      const inner: Selection = ['title', 'views', { name: 'author', select: ['name'] }];
      const field = { name: relation, select: inner, args: { ...(c.filters ? { filters: c.filters } : {}), sort: c.sort }, connection: c.connection };
      const relationArgs = gqlArgs({ ...field.args, ...(c.pagination ? { pagination: c.pagination } : {}) });
      const relationText = c.connection ? `${relation}_connection${relationArgs} { nodes ${gqlSelection(inner)} }` : `${relation}${relationArgs} ${gqlSelection(inner)}`;
      const query = `{ ${root}(sort: "${key}"${c.status ? ', status: DRAFT' : ''}) { ${key} ${relationText} } }`;
      const restAnswer = await rest(`${path}?${restQuery([key, field], { sort: key, ...(c.status ? { status: c.status } : {}) })}`);
      const p = (c.pagination ?? {}) as { page?: number; pageSize?: number; start?: number; limit?: number };
      const [start, limit] = p.pageSize !== undefined ? [((p.page ?? 1) - 1) * p.pageSize, p.pageSize] : [p.start ?? 0, p.limit ?? 25];
      const expected = (reshape([key, field], restAnswer.data) as Json[]).map((parent) => {
        const list = (c.connection ? (parent[`${relation}_connection`] as { nodes: unknown[] }).nodes : parent[relation]) as unknown[];
        const page = list.slice(start, start + limit);
        return { [key]: parent[key], ...(c.connection ? { [`${relation}_connection`]: { nodes: page } } : { [relation]: page }) };
      });
      expect({ query, answer: await gqlRoot(query) }).toEqual({ query, answer: expected });
    }
  });
});
