import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ResourceListChangedNotificationSchema, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HEARTH_BIN, runHearth } from '../helpers/cli.js';
import { collection, writeProject } from '../helpers/project.js';
import { FIXTURE_PROJECT, startTestServer, type TestServer } from '../helpers/server.js';
import { call, toolNames } from './helpers.js';

// These tests spawn bin/hearth.js, which runs dist/: `npm run build:server` first.
const ENV = { HEARTH_READ_THREADS: '0' };

/** An SDK client speaking to a spawned `hearth mcp`. */
async function stdioClient(args: string[]): Promise<Client> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined && key !== 'DATABASE_URL') env[key] = value;
  const transport = new StdioClientTransport({ command: process.execPath, args: [HEARTH_BIN, 'mcp', ...args], env: { ...env, ...ENV }, stderr: 'ignore' });
  const client = new Client({ name: 'hearth-test', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

describe('hearth mcp over stdio, beside a running server on the same data dir', () => {
  let srv: TestServer;
  let full: string;
  let base: string[];

  beforeAll(async () => {
    srv = await startTestServer({ database: 'sqlite' });
    full = await srv.token('full-access');
    base = ['--data', srv.dataDir, '--schemas', FIXTURE_PROJECT];
    const res = await srv.request('/api/articles', { method: 'POST', token: full, json: { data: { title: 'From REST', views: 2 } } });
    expect(res.status).toBe(201);
  });
  afterAll(async () => {
    await srv.close();
  });

  it('without --token is read-only on everything; with a full-access token and --allow-destructive lists every tool', async () => {
    const reader = await stdioClient(base);
    expect(await toolNames(reader)).toEqual(['find_documents', 'find_files', 'get_content_type', 'get_document', 'list_content_types']);
    const refused = await call(reader, 'create_document', { contentType: 'articles', data: { title: 'No' } });
    expect(refused.structuredContent.error).toMatchObject({ status: 403, name: 'ForbiddenError' });
    await reader.close();
    const writer = await stdioClient([...base, '--token', full, '--allow-destructive']);
    expect(await toolNames(writer)).toContain('delete_document');
    expect((await toolNames(writer)).length).toBe(12);
    await writer.close();
  });

  it('find answers what the running server answers over REST', async () => {
    const client = await stdioClient([...base, '--token', full]);
    const query = { filters: { title: { $eq: 'From REST' } }, populate: '*' };
    const result = await call(client, 'find_documents', { contentType: 'api::article.article', ...query });
    const rest = await srv.request('/api/articles?filters[title][$eq]=From%20REST&populate=*', { token: full });
    expect(result.structuredContent).toEqual(await rest.json());
    await client.close();
  });

  it('creates and publishes; the running server reads it back; delete removes it', async () => {
    const client = await stdioClient([...base, '--token', full, '--allow-destructive']);
    const created = await call(client, 'create_document', { contentType: 'articles', data: { title: 'From stdio' }, status: 'published' });
    const { documentId } = created.structuredContent.data as { documentId: string };
    const read = await srv.request(`/api/articles/${documentId}`, { token: full });
    expect(read.status).toBe(200);
    expect(((await read.json()) as { data: { title: string } }).data.title).toBe('From stdio');
    const draft = await call(client, 'update_document', { contentType: 'articles', documentId, data: { title: 'Draft edit' } });
    expect((draft.structuredContent.data as { title: string }).title).toBe('Draft edit');
    expect(((await (await srv.request(`/api/articles/${documentId}`, { token: full })).json()) as { data: { title: string } }).data.title).toBe('From stdio');
    await call(client, 'publish_document', { contentType: 'articles', documentId });
    expect(((await (await srv.request(`/api/articles/${documentId}`, { token: full })).json()) as { data: { title: string } }).data.title).toBe('Draft edit');
    await call(client, 'delete_document', { contentType: 'articles', documentId });
    expect((await srv.request(`/api/articles/${documentId}`, { token: full })).status).toBe(404);
    await client.close();
  });

  it('uploads a local file by path', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'hearth-mcp-upload-'));
    const path = join(dir, 'notes.txt');
    await writeFile(path, 'local bytes\n');
    const client = await stdioClient([...base, '--token', full]);
    const uploaded = await call(client, 'upload_file', { path, fileInfo: { alternativeText: 'notes' } });
    const [file] = uploaded.structuredContent.data as { name: string; url: string; alternativeText: string }[];
    expect(file).toMatchObject({ name: 'notes.txt', alternativeText: 'notes' });
    expect(await (await fetch(`${srv.url}${file?.url}`)).text()).toBe('local bytes\n');
    expect(await readFile(path, 'utf8')).toBe('local bytes\n');
    const missing = await call(client, 'upload_file', { path: join(dir, 'nope.txt') });
    expect(missing.structuredContent.error).toMatchObject({ status: 404 });
    await client.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('a bad --token fails the command with exit 1', async () => {
    const result = await runHearth(['mcp', ...base, '--token', 'not-a-token'], ENV);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Missing or invalid credentials');
  });
});

describe('hearth mcp: a schema change', () => {
  it('sends tools/list_changed and resources/list_changed, and the new type works', async () => {
    const root = await mkdtemp(join(tmpdir(), 'hearth-mcp-schema-'));
    const project = await writeProject({ types: { book: collection('book', 'books', { title: { type: 'string', required: true } }) } }, join(root, 'project'));
    const data = join(root, 'data');
    const token = (await runHearth(['token', 'create', '--data', data, '--name', 'mcp', '--type', 'full-access'], ENV)).stdout.trim();
    const client = await stdioClient(['--data', data, '--schemas', project, '--token', token]);
    const changed: string[] = [];
    let resolveChange = (): void => undefined;
    const both = new Promise<void>((done) => (resolveChange = done));
    const note = (what: string) => {
      changed.push(what);
      if (changed.includes('tools') && changed.includes('resources')) resolveChange();
    };
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => note('tools'));
    client.setNotificationHandler(ResourceListChangedNotificationSchema, () => note('resources'));
    const before = (await client.listTools()).tools.find((t) => t.name === 'create_document');
    expect(JSON.stringify(before?.inputSchema)).not.toContain('magazines');
    await writeProject({ types: { magazine: collection('magazine', 'magazines', { name: { type: 'string' }, issue: { type: 'integer' } }) } }, project);
    await both;
    const after = (await client.listTools()).tools.find((t) => t.name === 'create_document');
    expect(JSON.stringify(after?.inputSchema)).toContain('magazines');
    expect(after?.description).toContain('magazines (api::magazine.magazine');
    const created = await call(client, 'create_document', { contentType: 'magazines', data: { name: 'Monthly', issue: 3 } });
    expect(created.structuredContent.data).toMatchObject({ name: 'Monthly', issue: 3 });
    const found = await call(client, 'find_documents', { contentType: 'magazines' });
    expect((found.structuredContent.data as unknown[]).length).toBe(1);
    await client.close();
    await rm(root, { recursive: true, force: true });
  });
});

describe('the MCP Inspector CLI against hearth mcp', () => {
  it('lists the tools', async () => {
    const root = await mkdtemp(join(tmpdir(), 'hearth-mcp-inspector-'));
    const inspector = resolve(import.meta.dirname, '../../node_modules/.bin/mcp-inspector-cli');
    // The Inspector CLI v1 finds its own package.json by a path relative to the working directory: test/ has ../package.json.
    const { stdout } = await promisify(execFile)(inspector, ['--cli', process.execPath, HEARTH_BIN, 'mcp', '--data', join(root, 'data'), '--schemas', FIXTURE_PROJECT, '--method', 'tools/list'], {
      cwd: resolve(import.meta.dirname, '..'),
      env: { ...process.env, ...ENV, DATABASE_URL: '' },
      timeout: 60_000,
    });
    const listed = JSON.parse(stdout) as { tools: { name: string }[] };
    expect(listed.tools.map((t) => t.name).sort()).toEqual(['find_documents', 'find_files', 'get_content_type', 'get_document', 'list_content_types']);
    await rm(root, { recursive: true, force: true });
  });
});
