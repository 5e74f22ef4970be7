import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { errorBody, fixturePart, json, postUpload, type FileObject } from '../uploads/helpers.js';

/** Reading the media library: `/files` (bare array), `/files/page`, `/files/:id`, filters, populate. */

let server: TestServer;
let full: string;
let files: FileObject[];

/** GET with the full-access token, another token, or none (null: the public role). */
const get = async <T = unknown>(path: string, status = 200, token: string | null = full): Promise<T> =>
  json<T>(await server.request(path, token === null ? {} : { token }), status);
const names = (list: readonly { name?: unknown }[]) => list.map((f) => f.name);

beforeAll(async () => {
  // Small page sizes so the defaults and the cap are visible with five files.
  server = await startTestServer({ env: { API_REST_DEFAULT_LIMIT: '2', API_REST_MAX_LIMIT: '3' } });
  full = await server.token('full-access');
  files = await json<FileObject[]>(
    await postUpload(server, full, [
      fixturePart('red-400x300.png'),
      fixturePart('notes.txt'),
      fixturePart('blue-64x48.jpg'),
      { name: 'files', filename: 'alpha.txt', bytes: Buffer.from('a') },
      { name: 'files', filename: 'zulu.txt', bytes: Buffer.from('z') },
    ]),
    201,
  );
});
afterAll(async () => {
  await server?.close();
});

describe('GET /api/upload/files', () => {
  it('answers every file as a bare array, ignoring pagination[...] and unknown parameters', async () => {
    const all = await get<FileObject[]>('/api/upload/files?pagination[pageSize]=1&pagination[page]=2&foo=bar');
    expect(all).toEqual(files);
  });

  it('honours filters, sort and fields, and always prints isUrlSigned', async () => {
    const text = await get('/api/upload/files?filters[mime][$startsWith]=text/&sort=name:desc&fields[0]=name&fields[1]=size');
    expect(text).toEqual([
      { id: files[4]?.id, documentId: files[4]?.documentId, name: 'zulu.txt', size: 0, isUrlSigned: false },
      { id: files[1]?.id, documentId: files[1]?.documentId, name: 'notes.txt', size: 0.01, isUrlSigned: false },
      { id: files[3]?.id, documentId: files[3]?.documentId, name: 'alpha.txt', size: 0, isUrlSigned: false },
    ]);
    expect(names(await get<FileObject[]>('/api/upload/files?filters[$or][0][width][$gt]=100&filters[$or][1][name][$eq]=alpha.txt&fields=name'))).toEqual([
      'red-400x300.png',
      'alpha.txt',
    ]);
  });

  it('honours root start and limit (limit=-1 is no limit), as Strapi does', async () => {
    expect(names(await get<FileObject[]>('/api/upload/files?start=1&limit=2&fields[0]=name'))).toEqual(['notes.txt', 'blue-64x48.jpg']);
    expect(await get<FileObject[]>('/api/upload/files?start=3&limit=-1&fields[0]=name')).toHaveLength(2);
    expect(await get('/api/upload/files?start=abc', 400)).toEqual(errorBody(400, 'ValidationError', 'convertStartQueryParams expected a positive integer got NaN'));
    expect(await get('/api/upload/files?limit=-2', 400)).toEqual(errorBody(400, 'ValidationError', 'convertLimitQueryParams expected a positive integer got -2'));
    expect(await get('/api/upload/files?page=1&start=1', 400)).toEqual(
      errorBody(400, 'PaginationError', 'Invalid pagination attributes. The page parameters are incorrect and must be in the pagination object'),
    );
  });

  it('refuses unknown and private fields in filters, sort and fields', async () => {
    expect(await get('/api/upload/files?filters[nope][$eq]=1', 400)).toEqual(
      errorBody(400, 'ValidationError', 'Invalid key nope', { key: 'nope', path: null, source: 'query', param: 'filters' }),
    );
    expect(await get('/api/upload/files?sort=folderPath:asc', 400)).toMatchObject({ error: { message: 'Invalid key folderPath', details: { param: 'sort' } } });
    expect(await get('/api/upload/files?fields[0]=folderPath', 400)).toMatchObject({ error: { message: 'Invalid key folderPath', details: { param: 'fields' } } });
  });
});

describe('GET /api/upload/files/page', () => {
  it('pages with API_REST_DEFAULT_LIMIT by default and caps pageSize at API_REST_MAX_LIMIT', async () => {
    expect(await get('/api/upload/files/page?fields[0]=name')).toEqual({
      data: files.slice(0, 2).map((f) => ({ id: f.id, documentId: f.documentId, name: f.name, isUrlSigned: false })),
      meta: { pagination: { page: 1, pageSize: 2, pageCount: 3, total: 5 } },
    });
    const capped = await get<{ data: FileObject[]; meta: unknown }>('/api/upload/files/page?pagination[pageSize]=500&fields[0]=name');
    expect(names(capped.data)).toEqual(['red-400x300.png', 'notes.txt', 'blue-64x48.jpg']);
    expect(capped.meta).toEqual({ pagination: { page: 1, pageSize: 3, pageCount: 2, total: 5 } });
    const second = await get<{ data: FileObject[]; meta: unknown }>('/api/upload/files/page?pagination[pageSize]=3&pagination[page]=2&fields[0]=name');
    expect(names(second.data)).toEqual(['alpha.txt', 'zulu.txt']);
    expect(second.meta).toEqual({ pagination: { page: 2, pageSize: 3, pageCount: 2, total: 5 } });
  });

  it('answers offset mode with start/limit meta, and leaves out the count with withCount=false', async () => {
    const offset = await get<{ data: FileObject[]; meta: unknown }>('/api/upload/files/page?pagination[start]=1&pagination[limit]=2&fields[0]=name&sort=id:asc');
    expect(names(offset.data)).toEqual(['notes.txt', 'blue-64x48.jpg']);
    expect(offset.meta).toEqual({ pagination: { start: 1, limit: 2, total: 5 } });
    const uncounted = await get<{ meta: unknown }>('/api/upload/files/page?pagination[withCount]=false&fields[0]=name');
    expect(uncounted.meta).toEqual({ pagination: { page: 1, pageSize: 2 } });
  });

  it('refuses mixed page and offset modes, a bad withCount and root page parameters with 400', async () => {
    expect(await get('/api/upload/files/page?pagination[page]=1&pagination[start]=0', 400)).toEqual(
      errorBody(400, 'PaginationError', 'Cannot use both page & offset pagination in the same query'),
    );
    expect(await get('/api/upload/files/page?pagination[withCount]=nope', 400)).toEqual(
      errorBody(400, 'ValidationError', 'Invalid withCount parameter. Expected "t","1","true","false","0","f"'),
    );
    expect(await get('/api/upload/files/page?page=2', 400)).toMatchObject({ error: { status: 400, name: 'PaginationError' } });
  });
});

describe('GET /api/upload/files/:id', () => {
  it('answers the whole file (fields is ignored, as in Strapi) and 404 file.notFound otherwise', async () => {
    expect(await get(`/api/upload/files/${files[0]?.id}?fields[0]=name`)).toEqual(files[0]);
    const notFound = errorBody(404, 'NotFoundError', 'file.notFound');
    expect(await get('/api/upload/files/99999', 404)).toEqual(notFound);
    expect(await get('/api/upload/files/abc', 404)).toEqual(notFound);
    expect(await get('/api/upload/files/1.5', 404)).toEqual(notFound);
  });

  it('populates `related` with the entries linking the file, each tagged with its __type', async () => {
    const [file] = files;
    expect(await get(`/api/upload/files/${file?.id}?populate=*`)).toEqual({ ...files[0], related: [] });
    const created = await json<{ data: { id: number; documentId: string } }>(
      await server.request('/api/articles?status=draft', { method: 'POST', token: full, json: { data: { title: 'uses red', cover: file?.id } } }),
      201,
    );
    const populated = await get<FileObject & { related: unknown[] }>(`/api/upload/files/${file?.id}?populate[related]=true`);
    expect(Object.keys(populated).slice(-2)).toEqual(['related', 'isUrlSigned']);
    expect(populated.related).toEqual([
      expect.objectContaining({ __type: 'api::article.article', id: created.data.id, documentId: created.data.documentId, title: 'uses red', publishedAt: null, locale: 'en' }),
    ]);
    expect(Object.keys(populated.related[0] as object).at(-1)).toBe('__type');
    expect(await get(`/api/upload/files/${file?.id}?populate[related][count]=true`)).toMatchObject({ related: { count: 1 } });
    const list = await get<{ related: unknown[] }[]>('/api/upload/files?populate=related&fields[0]=name');
    expect(list.map((f) => f.related.length)).toEqual([1, 0, 0, 0, 0]);
  });

  it('leaves out related entries of types the caller may not read, and refuses unknown populate keys', async () => {
    const filesOnly = await server.token('custom', ['plugin::upload.content-api.findOne']);
    expect(await get(`/api/upload/files/${files[0]?.id}?populate=*`, 200, filesOnly)).toMatchObject({ related: [] });
    expect(await get(`/api/upload/files/${files[0]?.id}?populate=folder`, 400)).toEqual(
      errorBody(400, 'ValidationError', 'Invalid key folder', { key: 'folder', path: 'folder', source: 'query', param: 'populate' }),
    );
    expect(await get(`/api/upload/files/${files[0]?.id}?populate[related][fields][0]=title`, 400)).toMatchObject({
      error: { message: 'Invalid nested populate for file.related (plugin::upload.file). Expected a fragment ("on") or "count" but found {"fields":["title"]}' },
    });
  });
});

describe('permissions (plugin::upload.content-api.*)', () => {
  it('lets read-only tokens and granted roles read, and nobody else', async () => {
    const readOnly = await server.token('read-only');
    expect(await get<FileObject[]>('/api/upload/files?fields[0]=name', 200, readOnly)).toHaveLength(5);
    const forbidden = errorBody(403, 'ForbiddenError', 'Forbidden');
    expect(await get('/api/upload/files', 403, null)).toEqual(forbidden);
    expect(await get('/api/upload/files/page', 403, null)).toEqual(forbidden);
    const findOnly = await server.token('custom', ['plugin::upload.content-api.find']);
    expect(await get(`/api/upload/files/${files[0]?.id}`, 403, findOnly)).toEqual(forbidden);
    await server.server.services.permissions.grant('public', ['plugin::upload.content-api.find']);
    expect(await get<FileObject[]>('/api/upload/files?fields[0]=name', 200, null)).toHaveLength(5);
  });
});
