import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { collection, dataOf, expectJson, listOf, writeProject, type Doc } from '../helpers/project.js';

// The last REST differences with Strapi 5.54 (issue 16), on a project of their own.
let server: TestServer;
let token: string;

beforeAll(async () => {
  const schemas = await writeProject({
    types: {
      testimonial: collection('testimonial', 'testimonials', { quote: { type: 'string' } }, { draftAndPublish: true }),
      item: collection('item', 'items', {
        name: { type: 'string' },
        price: { type: 'integer' },
        rank: { type: 'integer' },
        page: { type: 'relation', relation: 'oneToOne', target: 'api::page.page' },
      }),
      post: collection(
        'post',
        'posts',
        { slug: { type: 'string', pluginOptions: { i18n: { localized: false } } }, title: { type: 'string', pluginOptions: { i18n: { localized: true } } } },
        { draftAndPublish: true, localized: true },
      ),
      page: collection(
        'page',
        'pages',
        {
          slug: { type: 'string' },
          hero: { type: 'component', component: 'blocks.picks' },
          rows: { type: 'component', repeatable: true, component: 'blocks.picks' },
          zone: { type: 'dynamiczone', components: ['blocks.picks', 'blocks.wrap'] },
        },
        { draftAndPublish: true },
      ),
    },
    components: {
      'blocks.picks': { attributes: { title: { type: 'string' }, testimonials: { type: 'relation', relation: 'oneToMany', target: 'api::testimonial.testimonial' } } },
      'blocks.wrap': { attributes: { label: { type: 'string' }, inner: { type: 'component', component: 'blocks.picks' } } },
    },
  });
  server = await startTestServer({ schemas });
  await server.server.services.locales.add({ code: 'fr' });
  token = await server.token('full-access');
});
afterAll(() => server.close());

const req = (path: string, init: Parameters<TestServer['request']>[1] = {}) => server.request(path, { token, ...init });
const post = async (plural: string, data: Record<string, unknown>, query = '') => dataOf(await req(`/api/${plural}${query}`, { method: 'POST', json: { data } }), 201);

describe('relations inside components', () => {
  it('give each target document once, in the status being read, at every depth', async () => {
    const quotes = ['a', 'b', 'c'];
    const targets: string[] = [];
    for (const quote of quotes) targets.push((await post('testimonials', { quote })).documentId);
    const picks = { title: 'p', testimonials: targets };
    const page = await post('pages', {
      slug: 'home',
      hero: picks,
      rows: [picks, picks],
      zone: [{ __component: 'blocks.picks', ...picks }, { __component: 'blocks.wrap', label: 'w', inner: picks }],
    });
    const populate =
      'populate[hero][populate]=*&populate[rows][populate]=*&populate[zone][on][blocks.picks][populate]=*&populate[zone][on][blocks.wrap][populate][inner][populate]=*';
    const lists = (doc: Doc): Doc[][] => {
      const hero = doc.hero as { testimonials: Doc[] };
      const rows = doc.rows as { testimonials: Doc[] }[];
      const [picksEntry, wrapEntry] = doc.zone as [{ testimonials: Doc[] }, { inner: { testimonials: Doc[] } }];
      return [hero.testimonials, ...rows.map((r) => r.testimonials), picksEntry.testimonials, wrapEntry.inner.testimonials];
    };
    for (const status of ['published', 'draft'] as const) {
      const doc = await dataOf(await req(`/api/pages/${page.documentId}?status=${status}&${populate}`));
      const listed = await listOf(await req(`/api/pages?status=${status}&${populate}`));
      for (const read of [doc, ...listed]) {
        for (const list of lists(read)) {
          expect(list.map((t) => t.quote)).toEqual(quotes);
          expect(list.map((t) => t.documentId)).toEqual(targets);
          expect(list.every((t) => (t.publishedAt === null) === (status === 'draft'))).toBe(true);
        }
      }
    }
    // Republishing copies the draft's components again: still once each.
    await req(`/api/pages/${page.documentId}`, { method: 'PUT', json: { data: { slug: 'home' } } });
    const again = await dataOf(await req(`/api/pages/${page.documentId}?${populate}`));
    for (const list of lists(again)) expect(list.map((t) => t.documentId)).toEqual(targets);
    const counted = await dataOf(await req(`/api/pages/${page.documentId}?populate[hero][populate][testimonials][count]=true`));
    expect(counted.hero).toMatchObject({ testimonials: { count: 3 } });
  });
});

describe('filters[locale] without a locale parameter', () => {
  it('replaces the default locale when the root of the filters names locale, with any operator', async () => {
    const en = await post('posts', { slug: 'homepage', title: 'Home' });
    await dataOf(await req(`/api/posts/${en.documentId}?locale=fr`, { method: 'PUT', json: { data: { title: 'Accueil' } } }));
    await post('posts', { slug: 'other', title: 'Other' });
    const titles = async (query: string) => {
      const body = await expectJson<{ data: Doc[]; meta: { pagination: { total: number } } }>(await req(`/api/posts?${query}&sort=title`), 200);
      expect(body.meta.pagination.total).toBe(body.data.length);
      return body.data.map((d) => `${String(d.locale)}:${String(d.title)}`);
    };
    const cases: [string, string[]][] = [
      ['filters[slug]=homepage', ['en:Home']],
      ['filters[slug]=homepage&filters[locale]=fr', ['fr:Accueil']],
      ['filters[locale][$eq]=fr', ['fr:Accueil']],
      ['filters[locale][$eqi]=FR', ['fr:Accueil']],
      ['filters[locale][$ne]=en', ['fr:Accueil']],
      ['filters[locale][$in][0]=en&filters[locale][$in][1]=fr&filters[slug]=homepage', ['fr:Accueil', 'en:Home']],
      ['filters[locale][$startsWith]=f', ['fr:Accueil']],
      ['filters[locale][$null]=true', []],
      ['filters[locale][$notNull]=true', ['fr:Accueil', 'en:Home', 'en:Other']],
      // The filter replaces the locale lookup even when a locale is given (Strapi's `{ ...lookup, ...where }`).
      ['locale=en&filters[locale]=fr', ['fr:Accueil']],
      // Only the root counts: inside $and/$or the default locale still applies.
      ['filters[$and][0][locale]=fr', []],
      ['filters[$or][0][locale]=fr&filters[$or][1][slug]=other', ['en:Other']],
    ];
    for (const [query, expected] of cases) expect([query, await titles(query)]).toEqual([query, expected]);
    const one = await dataOf(await req(`/api/posts/${en.documentId}?filters[locale]=fr`));
    expect(one).toMatchObject({ locale: 'fr', title: 'Accueil' });
  });
});

describe('lists inside $and, $or and $not', () => {
  it('are implicit $and groups at any depth', async () => {
    for (const [name, price, rank] of [['a', 10, 91], ['b', 30, 91], ['c', 30, 5], ['d', 50, 1]] as const) await post('items', { name, price, rank });
    const names = async (query: string) => (await listOf(await req(`/api/items?${query}&sort=name`))).map((d) => d.name);
    const cases: [string, string[]][] = [
      ['filters[$or][0][name]=a&filters[$or][1][0][price][$gt]=28&filters[$or][1][1][rank]=91', ['a', 'b']],
      ['filters[$and][0][0][price]=30&filters[$and][0][1][rank]=5', ['c']],
      ['filters[$and][0][$or][0][0][price][$gt]=28&filters[$and][0][$or][0][1][rank]=91&filters[$and][0][$or][1][name]=d', ['b', 'd']],
      ['filters[$or][0][0][0][price]=30&filters[$or][0][0][1][rank]=5&filters[$or][1][name]=a', ['a', 'c']],
      ['filters[$not][0][price]=30&filters[$not][1][rank]=91', ['a', 'c', 'd']],
      ['filters[$not][$or][0][0][price]=30&filters[$not][$or][0][1][rank]=91&filters[$not][$or][1][name]=d', ['a', 'c']],
    ];
    for (const [query, expected] of cases) expect([query, await names(query)]).toEqual([query, expected]);
    const refused = await expectJson<{ error: { status: number; name: string } }>(await req('/api/items?filters[$or][0]=x'), 400);
    expect(refused.error).toMatchObject({ status: 400, name: 'ValidationError' });
  });
});

describe('a dotted populate path into a dynamic zone', () => {
  it('populates the attribute where the entry has it and keeps the other entries plain', async () => {
    const quote = await post('testimonials', { quote: 'z' });
    const page = await post('pages', {
      slug: 'zoned',
      zone: [{ __component: 'blocks.wrap', label: 'first', inner: { title: 'i' } }, { __component: 'blocks.picks', title: 'p', testimonials: [quote.documentId] }],
    });
    const item = await post('items', { name: 'holder', page: page.documentId });
    const shown = { id: quote.id, documentId: quote.documentId, quote: 'z', createdAt: quote.createdAt, updatedAt: quote.updatedAt, publishedAt: quote.publishedAt };
    const zone = (testimonials: boolean, inner: boolean) => [
      { id: expect.any(Number), label: 'first', ...(inner ? { inner: { id: expect.any(Number), title: 'i' } } : {}), __component: 'blocks.wrap' },
      { id: expect.any(Number), title: 'p', ...(testimonials ? { testimonials: [shown] } : {}), __component: 'blocks.picks' },
    ];
    const zoneOf = async (path: string) => (await dataOf(await req(path))).zone;
    expect(await zoneOf(`/api/pages/${page.documentId}?populate[0]=zone.testimonials`)).toEqual(zone(true, false));
    expect(await zoneOf(`/api/pages/${page.documentId}?populate=zone.testimonials`)).toEqual(zone(true, false));
    expect(await zoneOf(`/api/pages/${page.documentId}?populate[0]=zone.inner&populate[1]=zone.testimonials`)).toEqual(zone(true, true));
    expect(await zoneOf(`/api/pages/${page.documentId}?populate[zone][populate]=*`)).toEqual(zone(true, true));
    const nested = await dataOf(await req(`/api/items/${item.documentId}?populate[page][populate][zone][populate]=*`));
    expect((nested.page as Doc).zone).toEqual(zone(true, true));
    // Key order as Strapi prints it: the entry's fields, then populated attributes, then __component.
    const entries = (await zoneOf(`/api/pages/${page.documentId}?populate[0]=zone.testimonials`)) as Record<string, unknown>[];
    expect(entries.map((e) => Object.keys(e))).toEqual([
      ['id', 'label', '__component'],
      ['id', 'title', 'testimonials', '__component'],
    ]);
  });
});

describe('a dynamic-zone entry without __component on write', () => {
  it("answers Strapi's 400: the required-field error, then the relations-store error", async () => {
    const cases: [unknown[], unknown[]][] = [
      [[{ title: 'no component' }], [{ path: ['zone', '0', '__component'], message: 'zone[0].__component is a required field', name: 'ValidationError' }]],
      [
        [{ __component: 'blocks.picks', title: 'ok' }, { title: 'second' }],
        [{ path: ['zone', '1', '__component'], message: 'zone[1].__component is a required field', name: 'ValidationError' }],
      ],
    ];
    for (const [zone, fieldErrors] of cases) {
      const body = await expectJson(await req('/api/pages', { method: 'POST', json: { data: { slug: 'x', zone } } }), 400);
      const store = { path: [], message: 'Cannot build relations store from dynamiczone, component identifier is undefined', name: 'ValidationError', value: expect.objectContaining({ slug: 'x', zone }) };
      const errors = [...fieldErrors, store];
      expect(body).toEqual({ data: null, error: { status: 400, name: 'ValidationError', message: `${errors.length} errors occurred`, details: { errors } } });
    }
    const page = await post('pages', { slug: 'y' });
    const update = await expectJson(await req(`/api/pages/${page.documentId}`, { method: 'PUT', json: { data: { zone: [{ title: 't' }] } } }), 400);
    expect(update).toMatchObject({ error: { message: '2 errors occurred', details: { errors: [{ path: ['zone', '0', '__component'] }, { path: [], message: 'Cannot build relations store from dynamiczone, component identifier is undefined' }] } } });
  });
});
