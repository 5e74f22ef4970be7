import { describe, expect, it } from 'vitest';
import { parseQueryString } from '../../server/http/query-string.js';
import { loadTranscripts, TRANSCRIPTS_DIR } from '../helpers/transcripts.js';
import { select, type RefModel, type Row } from './reference-filter.js';

/**
 * Before the reference evaluator judges Hearth, it must itself agree with Strapi: it is run on the
 * articles as they stood when transcripts 049-077 were recorded and must select what Strapi did.
 */
const tag: RefModel = { scalars: { label: 'string', documentId: 'string' }, relations: {} };
const category: RefModel = { scalars: { name: 'string', documentId: 'string' }, relations: {} };
const article: RefModel = {
  scalars: { title: 'string', slug: 'string', summary: 'string', views: 'integer', rating: 'float', featured: 'boolean', publishDate: 'string', documentId: 'string' },
  relations: { category, tags: tag },
};

const tech = { id: 1, documentId: 'l031uc2sii4rjuvtjqhuebq7', name: 'Tech' };
const life = { id: 2, documentId: 'jcs15ttfkts046jzwrlu9evj', name: 'Life' };
const misc = { id: 3, documentId: 'k4pwfe9p71ffaq8l12bat3xf', name: 'Misc' };
const js = (published: boolean) => ({ id: published ? 2 : 1, documentId: 'ymd2bk1jdggvfs24q18lqfxz', label: 'js' });
const node = (published: boolean) => ({ id: published ? 4 : 3, documentId: 'wgfghl7ec0moul1l5y5qcndi', label: 'node' });

function articles(published: boolean): Row[] {
  const rows: Row[] = [
    { id: published ? 2 : 1, documentId: 'hr9c1la8kj1dvv5szw4daujg', title: 'Hello World', slug: null, summary: 'A first article', views: 10, rating: 4.5, featured: true, publishDate: '2024-05-01', category: tech, tags: [js(published), node(published)] },
    { id: published ? 4 : 3, documentId: 'kap5sh107az52ww4dl4wfiua', title: 'Second Post', slug: null, summary: null, views: 3, rating: 2.25, featured: false, publishDate: null, category: life, tags: [] },
    { id: published ? 6 : 5, documentId: 'vukwqu88uy6ujccmb73yreu2', title: 'Another Story', slug: 'custom-slug', summary: null, views: 50, rating: null, featured: false, publishDate: null, category: misc, tags: [] },
  ];
  if (!published) rows.push({ id: 7, documentId: 'nurglu9m1cgd1nn7zppt7wna', title: 'Draft Only', slug: null, summary: null, views: 7, rating: null, featured: true, publishDate: null, category: null, tags: [node(false)] });
  return rows;
}

describe('the reference evaluator agrees with Strapi on the recorded filter transcripts', () => {
  const filtered = loadTranscripts(TRANSCRIPTS_DIR).filter((t) => t.number >= 49 && t.number <= 77 && t.path.includes('filters') && t.status === 200);
  it('covers the filter transcripts', () => expect(filtered.map((t) => t.number)).toEqual([49, 50, 51, 72, 73, 74, 75, 77]));
  for (const t of filtered) {
    it(t.file, () => {
      const query = parseQueryString(t.path.slice(t.path.indexOf('?') + 1));
      const rows = articles(query.status !== 'draft');
      const expected = (JSON.parse(t.rawBody ?? '{}') as { data: { id: number }[] }).data.map((d) => d.id).sort((a, b) => a - b);
      const actual = select(article, rows, query.filters).map((r) => r.id as number).sort((a, b) => a - b);
      expect(actual).toEqual(expected);
    });
  }
});
