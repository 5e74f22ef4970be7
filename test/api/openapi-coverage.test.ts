import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collection, expectJson, writeProject } from '../helpers/project.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

/**
 * The OpenAPI document beyond the generated content routes: users & permissions, the paged file
 * list, morph relations and the change stream. Real answers of the live server are checked
 * against the document by compiling them as values of the types openapi-typescript generates
 * from it (object literals: a key the document does not describe is an error too).
 */

type Json = Record<string, unknown>;
interface OpenApiDoc extends Json {
  paths: Record<string, Record<string, Json>>;
  components: { schemas: Record<string, Json> };
}

let server: TestServer;
let fullAccess: string;
/** May read notes and tags, not secrets. */
let notesAndTags: string;

beforeAll(async () => {
  const schemas = await writeProject({
    types: {
      note: collection('note', 'notes', {
        body: { type: 'text' },
        targets: { type: 'relation', relation: 'morphToMany' },
        subject: { type: 'relation', relation: 'morphToOne' },
      }),
      tag: collection('tag', 'tags', {
        name: { type: 'string' },
        notes: { type: 'relation', relation: 'morphMany', target: 'api::note.note', morphBy: 'targets' },
        lead: { type: 'relation', relation: 'morphOne', target: 'api::note.note', morphBy: 'subject' },
      }),
      secret: collection('secret', 'secrets', { code: { type: 'string' } }),
    },
  });
  server = await startTestServer({ schemas });
  fullAccess = await server.token('full-access');
  notesAndTags = await server.token('custom', ['api::note.note.find', 'api::tag.tag.find']);
});
afterAll(() => server.close());

const openApi = async (token?: string): Promise<OpenApiDoc> => expectJson<OpenApiDoc>(await server.request('/hearth/openapi.json', token === undefined ? {} : { token }), 200);
const api = async (path: string, init: RequestInit & { json?: unknown; token?: string } = {}, status = 200): Promise<unknown> =>
  expectJson<unknown>(await server.request(path, { token: fullAccess, ...init }), status);

/** Compiles `lines` against the types generated from `doc`; returns the compiler's messages. */
async function compileAgainst(doc: OpenApiDoc, lines: string[]): Promise<string[]> {
  const dir = await mkdtemp(join(tmpdir(), 'hearth-openapi-'));
  try {
    await writeFile(join(dir, 'api.d.ts'), astToString(await openapiTS(doc as unknown as Parameters<typeof openapiTS>[0])));
    await writeFile(join(dir, 'use.ts'), ["import type { components, paths } from './api';", ...lines, ''].join('\n'));
    const program = ts.createProgram([join(dir, 'use.ts')], {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      types: [],
    });
    return ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const answer = (path: string, method: string, status: number) => `paths['${path}']['${method}']['responses'][${status}]['content']['application/json']`;
const literal = (value: unknown) => JSON.stringify(value);

describe('GET /hearth/openapi.json beyond the content routes', () => {
  it('is valid OpenAPI 3.1 with users & permissions, the paged file list, morph relations and the change stream', async () => {
    for (const token of [fullAccess, notesAndTags, undefined]) {
      const result = await new Validator().validate(await openApi(token));
      expect(result.errors).toBeUndefined();
      expect(result.valid).toBe(true);
    }
  });

  it('describes users & permissions so the live answers of login, register, users and roles type-check against it', async () => {
    const registered = await api('/api/auth/local/register', { token: '', json: { username: 'ada', email: 'ada@example.com', password: 'Secret-123' }, method: 'POST' });
    const login = await api('/api/auth/local', { token: '', json: { identifier: 'ada', password: 'Secret-123' }, method: 'POST' });
    const users = await api('/api/users?populate=role');
    const count = await api('/api/users/count');
    const roles = await api('/api/users-permissions/roles');
    const doc = await openApi(fullAccess);
    const user = doc.components.schemas.UsersPermissionsUser as { properties: Json };
    expect(Object.keys(user.properties)).toEqual(expect.arrayContaining(['id', 'documentId', 'username', 'email', 'provider', 'confirmed', 'blocked', 'role']));
    expect(JSON.stringify(doc)).not.toMatch(/resetPasswordToken|confirmationToken/);
    expect(doc.paths['/api/auth/local']?.post?.requestBody).toMatchObject({ content: { 'application/json': { schema: { required: ['identifier', 'password'] } } } });
    const messages = await compileAgainst(doc, [
      `export const registered: ${answer('/api/auth/local/register', 'post', 200)} = ${literal(registered)};`,
      `export const login: ${answer('/api/auth/local', 'post', 200)} = ${literal(login)};`,
      `export const users: ${answer('/api/users', 'get', 200)} = ${literal(users)};`,
      `export const count: ${answer('/api/users/count', 'get', 200)} = ${literal(count)};`,
      `export const roles: ${answer('/api/users-permissions/roles', 'get', 200)} = ${literal(roles)};`,
      "export const body: paths['/api/auth/local']['post']['requestBody']['content']['application/json'] = { identifier: 'ada', password: 'x' };",
      '// @ts-expect-error a login needs its password',
      "export const noPassword: paths['/api/auth/local']['post']['requestBody']['content']['application/json'] = { identifier: 'ada' };",
      "export const me: components['schemas']['UsersPermissionsUser']['username'] = 'ada';",
    ]);
    expect(messages).toEqual([]);
  });

  it('lists each users & permissions route by its own action (a token with users find sees GET /api/users only)', async () => {
    const readUsers = await server.token('custom', ['plugin::users-permissions.user.find']);
    const { paths } = await openApi(readUsers);
    expect(Object.fromEntries(Object.entries(paths).map(([path, item]) => [path, Object.keys(item)]))).toEqual({ '/api/users': ['get'] });
  });

  it('describes GET /api/upload/files/page: a live page of files type-checks against it', async () => {
    const form = new FormData();
    form.append('files', new Blob(['hello']), 'hello.txt');
    await api('/api/upload', { method: 'POST', body: form }, 201);
    const page = await api('/api/upload/files/page?pagination[pageSize]=1');
    expect(await compileAgainst(await openApi(fullAccess), [`export const page: ${answer('/api/upload/files/page', 'get', 200)} = ${literal(page)};`])).toEqual([]);
  });

  it('describes morph relations: morph-to entries discriminated by __type over the types the caller may read, inverse sides as relations, and their inputs', async () => {
    const tag = (await api('/api/tags', { method: 'POST', json: { data: { name: 'soup' } } }, 201)) as { data: { documentId: string } };
    const secret = (await api('/api/secrets', { method: 'POST', json: { data: { code: 'x' } } }, 201)) as { data: { documentId: string } };
    const input = { body: 'hot', targets: [{ __type: 'api::tag.tag', documentId: tag.data.documentId }], subject: { __type: 'api::secret.secret', documentId: secret.data.documentId } };
    await api('/api/notes', { method: 'POST', json: { data: input } }, 201);

    const full = await openApi(fullAccess);
    const note = full.components.schemas.Note as { properties: Record<string, Json> };
    const entries = ['Note', 'Secret', 'Tag'].map((name) => `#/components/schemas/${name}MorphEntry`);
    expect(note.properties.targets).toEqual({
      type: 'array',
      items: {
        oneOf: entries.map(($ref) => ({ $ref })),
        discriminator: { propertyName: '__type', mapping: { 'api::note.note': entries[0], 'api::secret.secret': entries[1], 'api::tag.tag': entries[2] } },
      },
    });
    expect(note.properties.subject).toMatchObject({ oneOf: [{ oneOf: entries.map(($ref) => ({ $ref })) }, { type: 'null' }] });
    expect((full.components.schemas.Tag as { properties: Json }).properties).toMatchObject({
      notes: { type: 'array', items: { $ref: '#/components/schemas/Note' } },
      lead: { oneOf: [{ $ref: '#/components/schemas/Note' }, { type: 'null' }] },
    });
    const fullNotes = await api('/api/notes?populate[0]=targets&populate[1]=subject');
    const fullTags = await api('/api/tags?populate[0]=notes&populate[1]=lead');
    expect(
      await compileAgainst(full, [
        `export const notes: ${answer('/api/notes', 'get', 200)} = ${literal(fullNotes)};`,
        `export const tags: ${answer('/api/tags', 'get', 200)} = ${literal(fullTags)};`,
        `export const input: paths['/api/notes']['post']['requestBody']['content']['application/json'] = ${literal({ data: input })};`,
        "export const ops: components['schemas']['NoteInput']['targets'] = { connect: [{ __type: 'api::tag.tag', id: 1 }], disconnect: [] };",
        '// @ts-expect-error an entry names its type with __type',
        "export const untyped: components['schemas']['NoteInput']['targets'] = [{ documentId: 'x' }];",
        '// @ts-expect-error a morph-to entry answered is of a type the document names',
        "export const unknownType: NonNullable<components['schemas']['Note']['targets']>[number] = { __type: 'api::nothing.nothing', id: 1, documentId: 'x' };",
      ]),
    ).toEqual([]);

    // A caller that may not read secrets: the secret subject is left out of the answer and of the document.
    const partial = await openApi(notesAndTags);
    expect(Object.keys(partial.components.schemas)).not.toContain('Secret');
    expect(Object.keys(partial.components.schemas)).not.toContain('SecretMorphEntry');
    const notes = await api('/api/notes?populate[0]=targets&populate[1]=subject', { token: notesAndTags });
    expect((notes as { data: Json[] }).data[0]).toMatchObject({ subject: null, targets: [{ __type: 'api::tag.tag', name: 'soup' }] });
    expect(await compileAgainst(partial, [`export const notes: ${answer('/api/notes', 'get', 200)} = ${literal(notes)};`])).toEqual([]);
  });

  it('describes GET /hearth/events as text/event-stream with Last-Event-ID, for callers it can send something', async () => {
    const { paths, components } = await openApi(notesAndTags);
    expect(paths['/hearth/events']?.get).toMatchObject({
      operationId: 'followChanges',
      parameters: [{ name: 'Last-Event-ID', in: 'header' }, { name: 'lastEventId', in: 'query' }],
      responses: { 200: { content: { 'text/event-stream': { schema: { type: 'string' } } } }, 429: {} },
    });
    expect(components.schemas.ChangeEvent).toMatchObject({ required: ['event', 'createdAt'] });
    // The public role of this project may find nothing: no stream to describe.
    expect(Object.keys((await openApi()).paths)).not.toContain('/hearth/events');
  });
});
