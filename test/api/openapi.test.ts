import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, fixtureCopy, registerOwner } from '../admin/helpers.js';
import { expectJson, listOf } from '../helpers/project.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

type Json = Record<string, unknown>;
interface OpenApiDoc extends Json {
  openapi: string;
  paths: Record<string, Record<string, Json>>;
  components: { schemas: Record<string, Json> };
}

const DOC = '/hearth/openapi.json';
/** The users & permissions auth routes Strapi's public role may call on a fresh install (login, register, password reset ...). */
const PUBLIC_AUTH_PATHS = {
  '/api/auth/forgot-password': ['post'],
  '/api/auth/local': ['post'],
  '/api/auth/local/register': ['post'],
  '/api/auth/refresh': ['post'],
  '/api/auth/reset-password': ['post'],
  '/api/auth/send-email-confirmation': ['post'],
};
const USERS_PERMISSIONS_PATHS = {
  ...PUBLIC_AUTH_PATHS,
  '/api/auth/change-password': ['post'],
  '/api/auth/logout': ['post'],
};
const ALL_PATHS = {
  '/api/articles': ['get', 'post'],
  '/api/articles/{documentId}': ['delete', 'get', 'put'],
  '/api/categories': ['get', 'post'],
  '/api/categories/{documentId}': ['delete', 'get', 'put'],
  '/api/homepage': ['delete', 'get', 'put'],
  '/api/specimens': ['get', 'post'],
  '/api/specimens/{documentId}': ['delete', 'get', 'put'],
  '/api/tags': ['get', 'post'],
  '/api/tags/{documentId}': ['delete', 'get', 'put'],
  '/api/upload': ['post'],
  '/api/upload/files': ['get'],
  '/api/upload/files/page': ['get'],
  '/api/upload/files/{id}': ['delete', 'get'],
  ...USERS_PERMISSIONS_PATHS,
  '/api/users': ['get', 'post'],
  '/api/users-permissions/permissions': ['get'],
  '/api/users-permissions/roles': ['get', 'post'],
  '/api/users-permissions/roles/{id}': ['delete', 'get', 'put'],
  '/api/users/count': ['get'],
  '/api/users/me': ['get'],
  '/api/users/{id}': ['delete', 'get', 'put'],
  '/hearth/events': ['get'],
};

let server: TestServer;
let fullAccess: string;

beforeAll(async () => {
  server = await startTestServer();
  fullAccess = await server.token('full-access');
});
afterAll(() => server.close());

async function openApi(token?: string): Promise<OpenApiDoc> {
  return expectJson<OpenApiDoc>(await server.request(DOC, token === undefined ? {} : { token }), 200);
}

/** Each path with its methods, sorted. */
const operations = (doc: OpenApiDoc) => Object.fromEntries(Object.entries(doc.paths).map(([path, item]) => [path, Object.keys(item).sort()]));

describe('GET /hearth/openapi.json', () => {
  it('is a valid OpenAPI 3.1 document for the public fixture (checked by a real validator)', async () => {
    const doc = await openApi(fullAccess);
    const validator = new Validator();
    const result = await validator.validate(doc);
    expect(validator.version).toBe('3.1');
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    // The validator does refuse a broken document (a response without its description).
    const broken = structuredClone(doc);
    broken.paths['/api/tags'] = { get: { responses: { 200: { content: {} } } } };
    expect((await new Validator().validate(broken)).valid).toBe(false);
  });

  it('gives openapi-typescript types that compile and constrain a frontend', async () => {
    const doc = await openApi(fullAccess);
    const dir = await mkdtemp(join(tmpdir(), 'hearth-openapi-'));
    try {
      await writeFile(join(dir, 'strapi.d.ts'), astToString(await openapiTS(doc as unknown as Parameters<typeof openapiTS>[0])));
      const use = [
        "import type { components, paths } from './strapi';",
        "type ArticleList = paths['/api/articles']['get']['responses'][200]['content']['application/json'];",
        "type Query = NonNullable<paths['/api/articles']['get']['parameters']['query']>;",
        "export const query: Query = { pagination: { page: 1, pageSize: 10 }, status: 'draft', fields: ['title', 'slug'] };",
        'export const list: ArticleList = {',
        "  data: [{ id: 1, documentId: 'a1', title: 'Hello', tags: [{ id: 2, documentId: 't1', label: 'x' }],",
        "    blocks: [{ __component: 'shared.quote', id: 3, text: 'q' }, { __component: 'shared.rich-text', id: 4, body: [] }] }],",
        '  meta: { pagination: { page: 1, pageSize: 25, pageCount: 1, total: 1 } },',
        '};',
        "export const body: paths['/api/articles']['post']['requestBody']['content']['application/json'] = {",
        "  data: { title: 'x', category: 3, tags: { connect: [{ documentId: 't1', position: { start: true } }], disconnect: ['t2'] }, seo: { metaTitle: 'm' }, gallery: [1, 2] },",
        '};',
        "export const failure: paths['/api/articles/{documentId}']['get']['responses'][404]['content']['application/json'] =",
        "  { data: null, error: { status: 404, name: 'NotFoundError', message: 'Not Found', details: {} } };",
        '// @ts-expect-error a dynamic zone entry must name one of its components',
        "export const badEntry: components['schemas']['Article'] = { id: 1, documentId: 'a', blocks: [{ __component: 'shared.seo', id: 1 }] };",
        '// @ts-expect-error an enumeration takes only its values',
        "export const badEnum: components['schemas']['SpecimenInput'] = { s_enum: 'delta' };",
        '',
      ].join('\n');
      await writeFile(join(dir, 'use.ts'), use);
      const program = ts.createProgram([join(dir, 'use.ts')], {
        strict: true,
        noEmit: true,
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.ESNext,
        moduleResolution: ts.ModuleResolutionKind.Bundler,
        skipLibCheck: false,
        types: [],
      });
      const messages = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      expect(messages).toEqual([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('describes a dynamic zone as a oneOf discriminated by __component, and components with their id', async () => {
    const { components } = await openApi(fullAccess);
    const blocks = (components.schemas.Article?.properties as Record<string, Json>).blocks;
    expect(blocks).toEqual({
      type: 'array',
      items: {
        oneOf: [{ $ref: '#/components/schemas/SharedQuoteEntry' }, { $ref: '#/components/schemas/SharedRichTextEntry' }],
        discriminator: {
          propertyName: '__component',
          mapping: { 'shared.quote': '#/components/schemas/SharedQuoteEntry', 'shared.rich-text': '#/components/schemas/SharedRichTextEntry' },
        },
      },
    });
    expect(components.schemas.SharedQuoteEntry).toMatchObject({
      required: ['__component', 'id'],
      properties: { __component: { type: 'string', const: 'shared.quote' }, id: { type: 'integer' } },
    });
    const specimen = components.schemas.Specimen?.properties as Record<string, Json>;
    expect(specimen.s_comp).toEqual({ type: 'array', items: { $ref: '#/components/schemas/SharedQuoteComponent' } });
    expect(specimen.s_enum).toEqual({ type: ['string', 'null'], enum: ['alpha', 'beta', 'gamma', null] });
    expect(specimen.s_bigint).toMatchObject({ type: ['string', 'null'] });
    expect(specimen.s_required).toEqual({ type: 'string' });
    expect((components.schemas.Article?.properties as Record<string, Json>).category).toEqual({
      oneOf: [{ $ref: '#/components/schemas/Category' }, { type: 'null' }],
    });
  });

  it('never shows private or password attributes', async () => {
    const doc = await openApi(fullAccess);
    expect(Object.keys(components(doc, 'Specimen'))).not.toContain('s_private');
    expect(Object.keys(components(doc, 'SpecimenInput'))).not.toContain('s_password');
    const text = JSON.stringify(doc);
    expect(text).not.toContain('s_private');
    expect(text).not.toContain('s_password');
    expect(text).not.toContain('folderPath');
  });

  it('lists only what the caller may call: the auth routes for a bare public role, one GET (and the change stream) once find is granted, everything for a full-access token', async () => {
    expect(operations(await openApi())).toEqual(PUBLIC_AUTH_PATHS);
    const readOnly = await server.token('custom', ['api::article.article.find']);
    expect(operations(await openApi(readOnly))).toEqual({ '/api/articles': ['get'], '/hearth/events': ['get'] });
    await server.server.services.permissions.grant('public', ['api::tag.tag.find']);
    try {
      const doc = await openApi();
      expect(operations(doc)).toEqual({ ...PUBLIC_AUTH_PATHS, '/api/tags': ['get'], '/hearth/events': ['get'] });
      // Only the schemas the listed operations reach.
      expect(Object.keys(doc.components.schemas)).not.toContain('Article');
    } finally {
      await server.server.services.permissions.revoke('public', ['api::tag.tag.find']);
    }
    expect(operations(await openApi(fullAccess))).toEqual(ALL_PATHS);
  });

  it('answers 401 in the error envelope for a credential no strategy accepts', async () => {
    expect(await expectJson(await server.request(DOC, { token: 'nope' }), 401)).toEqual({
      data: null,
      error: { status: 401, name: 'UnauthorizedError', message: 'Missing or invalid credentials', details: {} },
    });
  });

  it('lists no path the live server answers with a 404', async () => {
    const api = (path: string, init: RequestInit & { json?: unknown } = {}) => server.request(path, { ...init, token: fullAccess });
    await expectJson(await api('/api/articles', { method: 'POST', json: { data: { title: 'Hello' } } }), 201);
    await expectJson(await api('/api/categories', { method: 'POST', json: { data: { name: 'News' } } }), 201);
    await expectJson(await api('/api/specimens', { method: 'POST', json: { data: { s_required: 'r' } } }), 201);
    await expectJson(await api('/api/tags', { method: 'POST', json: { data: { label: 'x' } } }), 201);
    await expectJson(await api('/api/homepage', { method: 'PUT', json: { data: { headline: 'Hi' } } }), 200);
    const form = new FormData();
    form.append('files', new Blob(['hello']), 'hello.txt');
    const [file] = await expectJson<{ id: number }[]>(await api('/api/upload', { method: 'POST', body: form }), 201);
    const doc = await openApi(fullAccess);
    const answered: Record<string, number> = {};
    const roleId = 1; // one of the two roles every install has
    for (const [path, item] of Object.entries(doc.paths)) {
      if (!item.get) continue;
      if (path === '/hearth/events') {
        // A stream: its status and type, then it is let go.
        const stop = new AbortController();
        const res = await server.request(path, { token: fullAccess, signal: stop.signal });
        expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
        answered[path] = res.status;
        stop.abort();
        continue;
      }
      let url = path.replace('/roles/{id}', `/roles/${roleId}`).replace('{id}', String(file?.id));
      if (url.includes('{documentId}')) {
        const [first] = await listOf(await api(path.slice(0, path.indexOf('/{'))));
        url = url.replace('{documentId}', first?.documentId ?? 'none');
      }
      answered[path] = (await api(url)).status;
    }
    expect(Object.keys(answered).sort()).toEqual(
      Object.entries(ALL_PATHS)
        .filter(([, methods]) => methods.includes('get'))
        .map(([path]) => path)
        .sort(),
    );
    // An API token has no user: /api/users/me is a 401, and a file id names no user (204), as in Strapi.
    expect(Object.fromEntries(Object.entries(answered).filter(([, status]) => status !== 200))).toEqual({ '/api/users/me': 401, '/api/users/{id}': 204 });
    expect((await server.request('/api/nothing-here', { token: fullAccess })).status).toBe(404);
  });
});

describe('a schema change', () => {
  let dir: string;
  let builderServer: TestServer;
  beforeAll(async () => {
    dir = await fixtureCopy();
    builderServer = await startTestServer({ schemas: dir });
  });
  afterAll(async () => {
    await builderServer.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("shows in the next request's document (content-type builder, then a hand edit the watcher picks up)", async () => {
    const session = await registerOwner(builderServer);
    const get = async () => expectJson<OpenApiDoc>(await builderServer.request(DOC, { token: session }), 200);
    expect(Object.keys((await get()).paths)).not.toContain('/api/books');
    const contentType = {
      kind: 'collectionType',
      collectionName: 'books',
      info: { singularName: 'book', pluralName: 'books', displayName: 'Book', description: '' },
      options: { draftAndPublish: false },
      pluginOptions: {},
      attributes: { title: { type: 'string', required: true }, pages: { type: 'integer' } },
    };
    await expectJson(await builderServer.request('/admin/api/content-types', { method: 'POST', token: session, json: { contentType } }), 201);
    const doc = await get();
    expect(operations(doc)['/api/books']).toEqual(['get', 'post']);
    expect(doc.components.schemas.Book).toMatchObject({ properties: { title: { type: 'string' }, pages: { type: ['integer', 'null'] } } });

    // A hand edit of the schema file, picked up by the watcher.
    const file = join(dir, 'src/api/book/content-types/book/schema.json');
    const schema = JSON.parse(await readFile(file, 'utf8')) as { attributes: Json };
    await writeFile(
      file,
      JSON.stringify({ ...schema, attributes: { ...schema.attributes, format: { type: 'enumeration', enum: ['paperback', 'hardcover'] } } }, null, 2),
    );
    await eventually(async () => 'format' in components(await get(), 'Book'));
    expect(components(await get(), 'Book').format).toEqual({ type: ['string', 'null'], enum: ['paperback', 'hardcover', null] });
  });
});

function components(doc: OpenApiDoc, name: string): Json {
  return (doc.components.schemas[name]?.properties ?? {}) as Json;
}
