import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { collection, dataOf, listOf, writeProject, type Doc } from '../helpers/project.js';

// The last REST differences with Strapi 5.54 (issue 16), on a project of their own.
let server: TestServer;
let token: string;

beforeAll(async () => {
  const schemas = await writeProject({
    types: {
      testimonial: collection('testimonial', 'testimonials', { quote: { type: 'string' } }, { draftAndPublish: true }),
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
