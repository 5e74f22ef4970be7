import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH, MAX_PAGINATION_VALUE } from '../../server/limits.js';
import { registerOwner } from '../admin/helpers.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

/**
 * Hostile sizes: JSON nested past MAX_JSON_DEPTH (in any body, in a multipart `fileInfo`) and
 * pagination values past MAX_PAGINATION_VALUE are 400 ValidationErrors, and no failure, in any
 * NODE_ENV, ever answers Express's own HTML error page or a stack.
 */

const nest = (depth: number, inner = '') => '['.repeat(depth) + inner + ']'.repeat(depth);
const DEEP = nest(100_000);
const tooDeep = (what: string) => ({
  data: null,
  error: { status: 400, name: 'ValidationError', message: `${what} is nested too deeply: at most ${MAX_JSON_DEPTH} levels of arrays and objects`, details: {} },
});
const BODY_TOO_DEEP = tooDeep('The request body');
const syntaxError = (message: string) => ({ data: null, error: { status: 400, name: 'SyntaxError', message } });

/** Status, content type and parsed body of an answer that must be Strapi's JSON envelope. */
async function envelope(res: Response): Promise<{ status: number; body: unknown }> {
  const text = await res.text();
  expect(res.headers.get('content-type'), text.slice(0, 200)).toBe('application/json; charset=utf-8');
  expect(text).not.toMatch(/<html|<!DOCTYPE| at \S+ \(|node_modules/i);
  return { status: res.status, body: JSON.parse(text) as unknown };
}

/** Starts a server with NODE_ENV set while Express reads it (app creation). */
async function startIn(nodeEnv: string): Promise<TestServer> {
  const before = process.env.NODE_ENV;
  process.env.NODE_ENV = nodeEnv;
  try {
    return await startTestServer();
  } finally {
    process.env.NODE_ENV = before;
  }
}

function multipart(fileInfo: string): FormData {
  const form = new FormData();
  form.append('files', new Blob(['hello']), 'hello.txt');
  form.append('fileInfo', fileInfo);
  return form;
}

for (const nodeEnv of ['development', 'production']) {
  describe(`hostile bodies with NODE_ENV=${nodeEnv}`, () => {
    let server: TestServer;
    let token: string;
    let admin: string;
    let tagId: string;

    beforeAll(async () => {
      server = await startIn(nodeEnv);
      token = await server.token('full-access');
      admin = await registerOwner(server);
      const tag = await server.request('/api/tags', { method: 'POST', token, json: { data: { label: 'x' } } });
      tagId = ((await tag.json()) as { data: { documentId: string } }).data.documentId;
    });
    afterAll(async () => {
      await server?.close();
    });

    const send = (path: string, body: string | FormData, init: { method?: string; auth?: 'token' | 'admin' | 'none' } = {}) => {
      const headers: Record<string, string> = typeof body === 'string' ? { 'Content-Type': 'application/json' } : {};
      const auth = init.auth ?? 'token';
      if (auth !== 'none') headers.Authorization = `Bearer ${auth === 'admin' ? admin : token}`;
      return fetch(`${server.url}${path}`, { method: init.method ?? 'POST', headers, body });
    };

    it('a body nested past the limit is a 400 on content, auth, upload and admin routes', async () => {
      const cases: [string, string, { method?: string; auth?: 'token' | 'admin' | 'none' }][] = [
        ['/api/articles', `{"data":{"title":"t","body":${DEEP}}}`, {}],
        ['/api/articles', `{"data":{"title":${DEEP}}}`, {}],
        ['/api/tags/x', `{"data":{"label":${DEEP}}}`, { method: 'PUT' }],
        ['/api/auth/local/register', `{"username":${DEEP},"email":"a@example.com","password":"Secret123"}`, { auth: 'none' }],
        ['/api/upload?id=1', `{"fileInfo":{"name":${DEEP}}}`, {}],
        ['/admin/api/login', `{"email":${DEEP},"password":"x"}`, { auth: 'none' }],
        ['/admin/api/upload/folders', `{"name":${DEEP}}`, { auth: 'admin' }],
        ['/admin/api/api-tokens', `{"name":"n","type":"custom","permissions":${DEEP}}`, { auth: 'admin' }],
      ];
      for (const [path, body, init] of cases) {
        expect(await envelope(await send(path, body, init)), path).toEqual({ status: 400, body: BODY_TOO_DEEP });
      }
      expect(await envelope(await send(`/api/tags/${tagId}`, `{"data":{"label":${nest(MAX_JSON_DEPTH)}}}`, { method: 'PUT' }))).toEqual({ status: 400, body: BODY_TOO_DEEP });
    });

    it('a multipart fileInfo nested past the limit is a 400, and no file is kept', async () => {
      expect(await envelope(await send('/api/upload', multipart(`{"name":${DEEP}}`)))).toEqual({ status: 400, body: tooDeep('fileInfo') });
      expect(await envelope(await send('/api/upload', multipart(`{"caption":"c","name":${nest(MAX_JSON_DEPTH)}}`)))).toEqual({ status: 400, body: tooDeep('fileInfo') });
      const files = await fetch(`${server.url}/api/upload/files`, { headers: { Authorization: `Bearer ${token}` } });
      expect(await envelope(files)).toEqual({ status: 200, body: [] });
    });

    it('JSON nested exactly to the limit is parsed; brackets inside strings do not count', async () => {
      const specimen = (json: string) => send('/api/specimens', `{"data":{"s_required":"r","s_json":${json}}}`);
      expect((await envelope(await specimen(nest(MAX_JSON_DEPTH - 2, '1')))).status).toBe(201);
      expect(await envelope(await specimen(nest(MAX_JSON_DEPTH - 1, '1')))).toEqual({ status: 400, body: BODY_TOO_DEEP });
      const inString = `"${'['.repeat(5000)}\\"{{"`;
      expect((await envelope(await send('/api/tags', `{"data":{"label":${inString}}}`))).status).toBe(201);
    });

    it('malformed JSON is a 400 SyntaxError on content, auth, upload and admin routes', async () => {
      const cases: [string, { auth?: 'token' | 'admin' | 'none' }][] = [
        ['/api/articles', {}],
        ['/api/auth/local', { auth: 'none' }],
        ['/api/upload?id=1', {}],
        ['/admin/api/login', { auth: 'none' }],
        ['/admin/api/upload/folders', { auth: 'admin' }],
        ['/admin/api/api-tokens', { auth: 'admin' }],
      ];
      for (const [path, init] of cases) {
        const { status, body } = await envelope(await send(path, '{"data":', init));
        expect({ path, status, body }).toEqual({ path, status: 400, body: syntaxError('Unexpected end of JSON input') });
      }
    });

    it('unknown paths and undecodable paths answer the envelope, never a page', async () => {
      const statuses: Record<string, number> = {};
      for (const path of ['/nothing', '/uploads/%ZZ', '/uploads/nothing.png', '/api/articles/%ZZ', '/admin/api/nothing', '/admin/api/%ZZ']) {
        statuses[path] = (await envelope(await fetch(`${server.url}${path}`, { headers: { Authorization: `Bearer ${admin}` } }))).status;
      }
      expect(statuses).toEqual({
        '/nothing': 404,
        '/uploads/%ZZ': 404,
        '/uploads/nothing.png': 404,
        '/api/articles/%ZZ': 404,
        '/admin/api/nothing': 404,
        '/admin/api/%ZZ': 404,
      });
    });
  });
}

describe('pagination values past MAX_PAGINATION_VALUE', () => {
  let server: TestServer;
  let token: string;
  let admin: string;

  beforeAll(async () => {
    server = await startTestServer();
    token = await server.token('full-access');
    admin = await registerOwner(server);
  });
  afterAll(async () => {
    await server?.close();
  });

  const tooLarge = (name: string, value: string) => ({
    data: null,
    error: { status: 400, name: 'ValidationError', message: `Invalid parameter at '${name}'. Expected integer <= ${MAX_PAGINATION_VALUE}, received: ${value}`, details: {} },
  });

  it('are a 400 ValidationError on every list route', async () => {
    const cases: [string, 'token' | 'admin', ReturnType<typeof tooLarge>][] = [
      ['/api/articles?pagination[page]=9223372036854775807', 'token', tooLarge('start', '230584300921369400000')],
      ['/api/articles?pagination[start]=1e20', 'token', tooLarge('start', '100000000000000000000')],
      ['/api/upload/files?start=1e20', 'token', tooLarge('start', '100000000000000000000')],
      ['/api/upload/files?limit=1e20', 'token', tooLarge('limit', '100000000000000000000')],
      ['/api/upload/files/page?pagination[page]=1e20', 'token', tooLarge('start', '2.5e+21')],
      ['/api/users?pagination[page]=1e20', 'token', tooLarge('start', '2.5e+21')],
      ['/api/users?start=1e20', 'token', tooLarge('start', '100000000000000000000')],
      ['/admin/api/content-manager/api::article.article/documents?page=1e20', 'admin', tooLarge('start', '1e+21')],
      ['/admin/api/upload/files?page=1e20', 'admin', tooLarge('start', '90071992547409900')],
    ];
    for (const [path, auth, expected] of cases) {
      const res = await server.request(path, { token: auth === 'admin' ? admin : token });
      expect(await envelope(res), path).toEqual({ status: 400, body: expected });
    }
  });

  it('values up to the bound are pages past the end, not errors', async () => {
    const page = await server.request(`/api/articles?pagination[start]=${MAX_PAGINATION_VALUE}&pagination[limit]=1`, { token });
    expect(await envelope(page)).toEqual({ status: 200, body: { data: [], meta: { pagination: { start: MAX_PAGINATION_VALUE, limit: 1, total: 0 } } } });
    const files = await server.request(`/api/upload/files?start=${MAX_PAGINATION_VALUE}`, { token });
    expect(await envelope(files)).toEqual({ status: 200, body: [] });
  });
});
