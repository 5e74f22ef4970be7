import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { collection, dataOf, expectJson, writeProject, type Doc } from '../helpers/project.js';

let server: TestServer;
let token: string;
const tags: Record<string, Doc> = {};

beforeAll(async () => {
  const schemas = await writeProject({
    types: {
      book: collection('book', 'books', {
        title: { type: 'string' },
        tags: { type: 'relation', relation: 'manyToMany', target: 'api::tag.tag', inversedBy: 'books' },
        author: { type: 'relation', relation: 'manyToOne', target: 'api::author.author', inversedBy: 'books' },
        editor: { type: 'relation', relation: 'oneWay', target: 'api::author.author' },
      }, { draftAndPublish: true }),
      tag: collection('tag', 'tags', {
        label: { type: 'string' },
        books: { type: 'relation', relation: 'manyToMany', target: 'api::book.book', mappedBy: 'tags' },
      }, { draftAndPublish: true }),
      author: collection('author', 'authors', {
        name: { type: 'string' },
        books: { type: 'relation', relation: 'oneToMany', target: 'api::book.book', mappedBy: 'author' },
      }),
    },
  });
  server = await startTestServer({ schemas });
  token = await server.token('full-access');
  for (const label of ['a', 'b', 'c', 'd']) {
    tags[label] = await dataOf(await server.request('/api/tags', { method: 'POST', token, json: { data: { label } } }), 201);
  }
});
afterAll(() => server.close());

const req = (path: string, init: Parameters<TestServer['request']>[1] = {}) => server.request(path, { token, ...init });
const id = (label: string) => tags[label]?.documentId ?? '';
const labelsOf = (doc: Doc) => (doc.tags as Doc[]).map((t) => t.label);

async function bookWith(labels: string[]): Promise<string> {
  const book = await dataOf(await req('/api/books', { method: 'POST', json: { data: { title: 'b', tags: labels.map(id) } } }), 201);
  return book.documentId;
}

describe('relation inputs', () => {
  const cases: { name: string; start: string[]; input: () => unknown; expected: string[] }[] = [
    { name: 'array of documentIds sets in order', start: [], input: () => [id('c'), id('a')], expected: ['c', 'a'] },
    { name: 'connect appends at the end', start: ['a'], input: () => ({ connect: [id('b')] }), expected: ['a', 'b'] },
    { name: 'connect with position start', start: ['a', 'b'], input: () => ({ connect: [{ documentId: id('c'), position: { start: true } }] }), expected: ['c', 'a', 'b'] },
    { name: 'connect with position end', start: ['a', 'b'], input: () => ({ connect: [{ documentId: id('c'), position: { end: true } }] }), expected: ['a', 'b', 'c'] },
    { name: 'connect before', start: ['a', 'b'], input: () => ({ connect: [{ documentId: id('c'), position: { before: id('b') } }] }), expected: ['a', 'c', 'b'] },
    { name: 'connect after', start: ['a', 'b', 'd'], input: () => ({ connect: [{ documentId: id('c'), position: { after: id('a') } }] }), expected: ['a', 'c', 'b', 'd'] },
    { name: 'connect an existing one moves it', start: ['a', 'b', 'c'], input: () => ({ connect: [{ documentId: id('a'), position: { end: true } }] }), expected: ['b', 'c', 'a'] },
    { name: 'disconnect removes', start: ['a', 'b', 'c'], input: () => ({ disconnect: [id('b')] }), expected: ['a', 'c'] },
    { name: 'set replaces', start: ['a', 'b'], input: () => ({ set: [id('d'), id('a')] }), expected: ['d', 'a'] },
    { name: 'null clears', start: ['a'], input: () => null, expected: [] },
    { name: 'an empty list clears', start: ['a', 'b'], input: () => [], expected: [] },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const bookId = await bookWith(c.start);
      const updated = await dataOf(await req(`/api/books/${bookId}?populate=tags`, { method: 'PUT', json: { data: { tags: c.input() } } }));
      expect(labelsOf(updated)).toEqual(c.expected);
      const reread = await dataOf(await req(`/api/books/${bookId}?status=draft&populate=tags`));
      expect(labelsOf(reread)).toEqual(c.expected);
    });
  }

  it('an unknown documentId is Strapi 400', async () => {
    const body = await expectJson(await req('/api/books', { method: 'POST', json: { data: { tags: ['nope'] } } }), 400);
    expect(body).toEqual({
      data: null,
      error: { status: 400, name: 'ValidationError', message: 'Document with id "nope", locale "null" not found', details: {} },
    });
  });

  it('null clears a to-one relation', async () => {
    const author = await dataOf(await req('/api/authors', { method: 'POST', json: { data: { name: 'Ann' } } }), 201);
    const book = await dataOf(await req('/api/books?populate=author', { method: 'POST', json: { data: { author: author.documentId } } }), 201);
    expect((book.author as Doc).name).toBe('Ann');
    const cleared = await dataOf(await req(`/api/books/${book.documentId}?populate=author`, { method: 'PUT', json: { data: { author: null } } }));
    expect(cleared.author).toBeNull();
  });
});

describe('inverse sides and publication states', () => {
  it('keeps both sides consistent and the inverse side sees published versions only', async () => {
    const author = await dataOf(await req('/api/authors', { method: 'POST', json: { data: { name: 'Bea' } } }), 201);
    const book = await dataOf(await req('/api/books', { method: 'POST', json: { data: { title: 'Inverse', author: author.documentId } } }), 201);
    const withBooks = await dataOf(await req(`/api/authors/${author.documentId}?populate=books`));
    expect((withBooks.books as Doc[]).map((b) => [b.documentId, b.publishedAt !== null])).toEqual([[book.documentId, true]]);
    const drafts = await dataOf(await req(`/api/authors/${author.documentId}?populate=books&status=draft`));
    expect((drafts.books as Doc[]).map((b) => [b.documentId, b.publishedAt])).toEqual([[book.documentId, null]]);
  });

  it('writing the inverse side of a to-one moves the book to the new author', async () => {
    const first = await dataOf(await req('/api/authors', { method: 'POST', json: { data: { name: 'First' } } }), 201);
    const book = await dataOf(await req('/api/books', { method: 'POST', json: { data: { title: 'Moved', author: first.documentId } } }), 201);
    const second = await dataOf(await req('/api/authors?populate=books', { method: 'POST', json: { data: { name: 'Second', books: [book.documentId] } } }), 201);
    expect((second.books as Doc[]).map((b) => b.documentId)).toEqual([book.documentId]);
    const firstNow = await dataOf(await req(`/api/authors/${first.documentId}?populate=books`));
    expect(firstNow.books).toEqual([]);
    const bookNow = await dataOf(await req(`/api/books/${book.documentId}?populate=author`));
    expect((bookNow.author as Doc).name).toBe('Second');
  });

  it('a published document leaves out a related document that exists only as a draft; status=draft shows it', async () => {
    const draftTag = await dataOf(await req('/api/tags?status=draft', { method: 'POST', json: { data: { label: 'draft-only' } } }), 201);
    const book = await dataOf(await req('/api/books', { method: 'POST', json: { data: { title: 'Mixed', tags: [draftTag.documentId, id('a')] } } }), 201);
    const published = await dataOf(await req(`/api/books/${book.documentId}?populate=tags`));
    expect(labelsOf(published)).toEqual(['a']);
    const draft = await dataOf(await req(`/api/books/${book.documentId}?status=draft&populate=tags`));
    expect(labelsOf(draft)).toEqual(['draft-only', 'a']);
  });

  it('republishing a related document keeps it linked from published documents', async () => {
    const book = await dataOf(await req('/api/books', { method: 'POST', json: { data: { title: 'Keep', tags: [id('b')] } } }), 201);
    await dataOf(await req(`/api/tags/${id('b')}`, { method: 'PUT', json: { data: { label: 'b2' } } }));
    const published = await dataOf(await req(`/api/books/${book.documentId}?populate=tags`));
    expect(labelsOf(published)).toEqual(['b2']);
    await dataOf(await req(`/api/tags/${id('b')}`, { method: 'PUT', json: { data: { label: 'b' } } }));
  });
});
