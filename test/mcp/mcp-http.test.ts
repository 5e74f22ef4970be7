import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'node:http';
import qs from 'qs';
import { MCP_MAX_RESULT_BYTES } from '../../server/limits.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { call, httpClient, toolNames } from './helpers.js';

const READ_TOOLS = ['find_documents', 'find_files', 'get_content_type', 'get_document', 'list_content_types'];
const WRITE_TOOLS = ['create_document', 'discard_draft', 'publish_document', 'unpublish_document', 'update_document', 'upload_file'];

describe('MCP over Streamable HTTP (/mcp)', () => {
  let srv: TestServer;
  let full: string;

  beforeAll(async () => {
    srv = await startTestServer();
    full = await srv.token('full-access');
    const tech = await srv.request('/api/categories', { method: 'POST', token: full, json: { data: { name: 'Tech' } } });
    const category = ((await tech.json()) as { data: { documentId: string } }).data.documentId;
    for (const [title, views] of [['Hello MCP', 3], ['Another post', 7], ['Hello again', 11]] as const) {
      const res = await srv.request('/api/articles', { method: 'POST', token: full, json: { data: { title, views, category } } });
      expect(res.status).toBe(201);
    }
  });
  afterAll(async () => {
    await srv.close();
  });

  it('lists every tool but delete_document to a full-access token (destructive mode off)', async () => {
    const client = await httpClient(srv.url, full);
    expect(await toolNames(client)).toEqual([...READ_TOOLS, ...WRITE_TOOLS].sort());
    await client.close();
  });

  it('find_documents with filters and populate answers the body REST answers for the same query', async () => {
    const client = await httpClient(srv.url, full);
    const query = { filters: { title: { $containsi: 'hello' }, views: { $gt: 5 } }, populate: { category: { fields: ['name'] } }, sort: 'views:desc', fields: ['title', 'views'] };
    const result = await call(client, 'find_documents', { contentType: 'articles', ...query });
    const rest = await srv.request(`/api/articles?${qs.stringify(query)}`, { token: full });
    expect(rest.status).toBe(200);
    const body = (await rest.json()) as { data: unknown[] };
    expect(body.data).toHaveLength(1);
    expect(result.structuredContent).toEqual(body);
    expect(result.isError).toBeFalsy();
    // By uid too, and get_document equals GET /api/articles/:documentId.
    const [first] = body.data as { documentId: string }[];
    const one = await call(client, 'get_document', { contentType: 'api::article.article', documentId: first?.documentId, populate: '*' });
    const restOne = await srv.request(`/api/articles/${first?.documentId}?populate=*`, { token: full });
    expect(one.structuredContent).toEqual(await restOne.json());
    await client.close();
  });

  it('pages are bounded and say where the next page is', async () => {
    const client = await httpClient(srv.url, full);
    const result = await call(client, 'find_documents', { contentType: 'articles', pagination: { page: 1, pageSize: 2 } });
    expect(result.structuredContent.meta).toEqual({ pagination: { page: 1, pageSize: 2, pageCount: 2, total: 3 } });
    expect(result._meta).toEqual({ more: { pagination: { page: 2, pageSize: 2 } } });
    const capped = await call(client, 'find_documents', { contentType: 'articles', pagination: { pageSize: 1000 } });
    expect((capped.structuredContent.meta as { pagination: { pageSize: number } }).pagination.pageSize).toBe(50);
    await client.close();
  });

  it('a read answer over MCP_MAX_RESULT_BYTES is refused with a 400 that says how to ask for less; the write that made it is answered', async () => {
    const client = await httpClient(srv.url, full);
    const summary = 'x'.repeat(MCP_MAX_RESULT_BYTES);
    const created = await call(client, 'create_document', { contentType: 'articles', data: { title: 'Huge', summary }, status: 'published' });
    expect(created.isError).toBeFalsy();
    const big = await call(client, 'find_documents', { contentType: 'articles', filters: { title: { $eq: 'Huge' } } });
    expect(big.isError).toBe(true);
    expect(big.structuredContent.error).toMatchObject({ status: 400, name: 'ValidationError', message: `The answer is larger than ${MCP_MAX_RESULT_BYTES} bytes: ask for a smaller pageSize, fewer fields or less populate` });
    const small = await call(client, 'find_documents', { contentType: 'articles', filters: { title: { $eq: 'Huge' } }, fields: ['title'] });
    expect(small.structuredContent.data).toEqual([expect.objectContaining({ title: 'Huge' })]);
    await srv.request(`/api/articles/${(created.structuredContent.data as { documentId: string }).documentId}`, { method: 'DELETE', token: full });
    await client.close();
  });

  it('a single type: update saves its draft, publish publishes it, find and get answer GET /api/:singularApiId', async () => {
    const client = await httpClient(srv.url, full);
    const missing = await call(client, 'find_documents', { contentType: 'homepage' });
    const restMissing = await srv.request('/api/homepage', { token: full });
    expect(missing.structuredContent).toEqual(await restMissing.json());
    const draft = await call(client, 'update_document', { contentType: 'homepage', data: { headline: 'Welcome' } });
    expect(draft.structuredContent.data).toMatchObject({ headline: 'Welcome', publishedAt: null });
    const published = await call(client, 'publish_document', { contentType: 'api::homepage.homepage' });
    expect(published.structuredContent.data).toMatchObject({ headline: 'Welcome', publishedAt: expect.any(String) });
    const found = await call(client, 'find_documents', { contentType: 'homepage', populate: '*' });
    const rest = await srv.request('/api/homepage?populate=*', { token: full });
    expect(rest.status).toBe(200);
    expect(found.structuredContent).toEqual(await rest.json());
    expect((await call(client, 'get_document', { contentType: 'homepage', populate: '*' })).structuredContent).toEqual(found.structuredContent);
    await client.close();
  });

  it('create saves a draft, publish publishes it, and REST reads it back', async () => {
    const client = await httpClient(srv.url, full);
    const created = await call(client, 'create_document', { contentType: 'articles', data: { title: 'Written by an assistant', views: 1 } });
    const data = created.structuredContent.data as { documentId: string; publishedAt: unknown; title: string };
    expect(data.title).toBe('Written by an assistant');
    expect(data.publishedAt).toBeNull();
    const before = await srv.request(`/api/articles/${data.documentId}`, { token: full });
    expect(before.status).toBe(404);
    const published = await call(client, 'publish_document', { contentType: 'articles', documentId: data.documentId });
    expect((published.structuredContent.data as { publishedAt: unknown }).publishedAt).toEqual(expect.any(String));
    const after = await srv.request(`/api/articles/${data.documentId}`, { token: full });
    expect(after.status).toBe(200);
    expect(((await after.json()) as { data: { title: string } }).data.title).toBe('Written by an assistant');
    const invalid = await call(client, 'create_document', { contentType: 'articles', data: { views: 'many' } });
    expect(invalid.isError).toBe(true);
    expect(invalid.structuredContent.error).toMatchObject({ status: 400, name: 'ValidationError' });
    expect(JSON.stringify(invalid.structuredContent)).not.toMatch(/\bat .*\.(ts|js):\d+/);
    await client.close();
  });

  it('a read-only token lists no write tools, and a write call is refused with 403', async () => {
    const client = await httpClient(srv.url, await srv.token('read-only'));
    expect(await toolNames(client)).toEqual(READ_TOOLS);
    const refused = await call(client, 'create_document', { contentType: 'articles', data: { title: 'No' } });
    expect(refused.isError).toBe(true);
    expect(refused.structuredContent).toEqual({ data: null, error: { status: 403, name: 'ForbiddenError', message: 'Forbidden', details: {} } });
    await client.close();
  });

  it('a custom token sees only its actions and its types', async () => {
    const client = await httpClient(srv.url, await srv.token('custom', ['api::category.category.find']));
    expect(await toolNames(client)).toEqual(['find_documents', 'get_content_type', 'list_content_types']);
    const types = await call(client, 'list_content_types');
    expect((types.structuredContent.data as { uid: string }[]).map((t) => t.uid)).toEqual(['api::category.category']);
    const hidden = await call(client, 'find_documents', { contentType: 'articles' });
    expect(hidden.structuredContent.error).toMatchObject({ status: 404 });
    await client.close();
  });

  it('uploads base64 bytes, refuses a server-side path, and reads no file outside the uploads', async () => {
    const client = await httpClient(srv.url, full);
    const bytes = Buffer.from('hello from an assistant\n');
    const uploaded = await call(client, 'upload_file', { name: 'note.txt', base64: bytes.toString('base64') });
    const [file] = uploaded.structuredContent.data as { id: number; name: string; url: string; size: number }[];
    expect(file?.name).toBe('note.txt');
    const served = await fetch(`${srv.url}${file?.url}`);
    expect(Buffer.from(await served.arrayBuffer())).toEqual(bytes);
    const listed = await call(client, 'find_files', { filters: { name: { $eq: 'note.txt' } } });
    expect((listed.structuredContent.data as { id: number }[]).map((f) => f.id)).toEqual([file?.id]);
    for (const path of ['/etc/passwd', `${srv.dataDir}/hearth.db`, '../../hearth.db']) {
      const refused = await call(client, 'upload_file', { path });
      expect(refused.isError).toBe(true);
      expect(refused.structuredContent.error).toMatchObject({ status: 400, message: 'upload_file over HTTP takes name and base64 only, never a path' });
    }
    const schema = (await client.listTools()).tools.find((t) => t.name === 'upload_file');
    expect(Object.keys(schema?.inputSchema.properties ?? {})).not.toContain('path');
    // Resources address documents only, never files.
    await expect(client.readResource({ uri: 'hearth://../../etc/passwd' })).rejects.toThrow();
    await expect(client.readResource({ uri: 'file:///etc/passwd' })).rejects.toThrow();
    await client.close();
  });

  it('refuses calls without a bearer, with a bad one, or from another origin, in the envelope', async () => {
    const init = { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } }) };
    const none = await fetch(`${srv.url}/mcp`, init);
    expect(none.status).toBe(401);
    expect(await none.json()).toEqual({ data: null, error: { status: 401, name: 'UnauthorizedError', message: 'Missing or invalid credentials', details: {} } });
    const bad = await fetch(`${srv.url}/mcp`, { ...init, headers: { ...init.headers, Authorization: 'Bearer nope' } });
    expect(bad.status).toBe(401);
    const evil = await fetch(`${srv.url}/mcp`, { ...init, headers: { ...init.headers, Authorization: `Bearer ${full}`, Origin: 'http://evil.example' } });
    expect(evil.status).toBe(403);
    // fetch cannot send another Host: node:http can (a DNS-rebinding page's request).
    const url = new URL(srv.url);
    const host = await new Promise<{ code: number; body: string }>((resolve, reject) => {
      const req = request({ host: url.hostname, port: url.port, path: '/mcp', method: 'POST', headers: { ...init.headers, Authorization: `Bearer ${full}`, Host: 'evil.example' } }, (res) => {
        let body = '';
        res.on('data', (d: Buffer) => (body += d.toString()));
        res.on('end', () => resolve({ code: res.statusCode ?? 0, body }));
      });
      req.on('error', reject);
      req.end(init.body);
    });
    expect(host.code).toBe(403);
    expect(JSON.parse(host.body)).toMatchObject({ data: null, error: { status: 403, message: 'Host not allowed' } });
  });

  it('resources: each type schema, and documents by hearth://<uid>/<documentId>', async () => {
    const client = await httpClient(srv.url, full);
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toContain('hearth://api::article.article');
    const schema = await client.readResource({ uri: 'hearth://api::article.article' });
    const [content] = schema.contents;
    expect(JSON.parse(String(content && 'text' in content ? content.text : ''))).toMatchObject({ data: { uid: 'api::article.article', attributes: { title: { type: 'string', required: true } } } });
    const list = await call(client, 'find_documents', { contentType: 'articles', pagination: { pageSize: 1 } });
    const [doc] = list.structuredContent.data as { documentId: string }[];
    const read = await client.readResource({ uri: `hearth://api::article.article/${doc?.documentId}?locale=en` });
    const rest = await srv.request(`/api/articles/${doc?.documentId}?locale=en`, { token: full });
    const [text] = read.contents;
    expect(JSON.parse(String(text && 'text' in text ? text.text : ''))).toEqual(await rest.json());
    await client.close();
  });
});
