import { ResourceListChangedNotificationSchema, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, describe, expect, it } from 'vitest';
import { SHUTDOWN_GRACE_MS } from '../../server/limits.js';
import { fixtureCopy, registerOwner } from '../admin/helpers.js';
import { collection, expectJson, writeProject } from '../helpers/project.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { call, httpClient, toolNames } from './helpers.js';

const servers: TestServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

describe('/mcp with an admin session and HEARTH_MCP_DESTRUCTIVE', () => {
  it('lists delete_document, and a builder change reaches the session as list_changed; the new type works', async () => {
    const srv = await startTestServer({ schemas: await fixtureCopy(), env: { HEARTH_MCP_DESTRUCTIVE: 'true' } });
    servers.push(srv);
    const session = await registerOwner(srv);
    const client = await httpClient(srv.url, session);
    expect(await toolNames(client)).toContain('delete_document');
    expect((await toolNames(client)).length).toBe(12);
    const changed = new Set<string>();
    let done = (): void => undefined;
    const both = new Promise<void>((resolve) => (done = resolve));
    const note = (what: string) => {
      changed.add(what);
      if (changed.size === 2) done();
    };
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => note('tools'));
    client.setNotificationHandler(ResourceListChangedNotificationSchema, () => note('resources'));
    const schema = { ...collection('book', 'books', { title: { type: 'string', required: true } }), info: { singularName: 'book', pluralName: 'books', displayName: 'Book', description: '' } };
    await expectJson(await srv.request('/admin/api/content-types', { method: 'POST', token: session, json: { contentType: schema } }), 201);
    await both;
    const created = await call(client, 'create_document', { contentType: 'books', data: { title: 'Dune' } });
    const { documentId } = created.structuredContent.data as { documentId: string };
    expect((await call(client, 'get_document', { contentType: 'api::book.book', documentId })).structuredContent.data).toMatchObject({ title: 'Dune' });
    const deleted = await call(client, 'delete_document', { contentType: 'books', documentId });
    expect(deleted.structuredContent).toEqual({ data: null, meta: {} });
    expect((await call(client, 'get_document', { contentType: 'books', documentId })).structuredContent.error).toMatchObject({ status: 404, name: 'NotFoundError' });
    await client.close();
  });

  it('a session answers only the caller that opened it', async () => {
    const srv = await startTestServer();
    servers.push(srv);
    const client = await httpClient(srv.url, await srv.token('full-access'));
    const other = await srv.token('full-access');
    await client.listTools();
    const sessionId = (client.transport as { sessionId?: string } | undefined)?.sessionId;
    expect(sessionId).toEqual(expect.any(String));
    const res = await fetch(`${srv.url}/mcp`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${other}`, 'Mcp-Session-Id': String(sessionId), 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list' }),
    });
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ data: null, error: { status: 403, message: 'This MCP session belongs to another caller' } });
    await client.close();
  });
});

describe('private and password attributes', () => {
  it('never appear in schemas, descriptions, resources or answers', async () => {
    const project = await writeProject({
      types: {
        member: collection('member', 'members', { name: { type: 'string', required: true }, secretNote: { type: 'string', private: true }, pin: { type: 'password' } }),
      },
    });
    const srv = await startTestServer({ schemas: project });
    servers.push(srv);
    const token = await srv.token('full-access');
    const client = await httpClient(srv.url, token);
    const created = await call(client, 'create_document', { contentType: 'members', data: { name: 'Ada', secretNote: 'hidden', pin: 'hunter22' } });
    const seen = [
      JSON.stringify(created.structuredContent),
      JSON.stringify(await client.listTools()),
      JSON.stringify((await call(client, 'get_content_type', { contentType: 'members' })).structuredContent),
      JSON.stringify((await call(client, 'find_documents', { contentType: 'members' })).structuredContent),
      JSON.stringify(await client.readResource({ uri: 'hearth://api::member.member' })),
    ].join('\n');
    expect(seen).toContain('Ada');
    for (const hidden of ['secretNote', 'hidden', 'pin', 'hunter22']) expect(seen).not.toContain(hidden);
    await client.close();
  });
});

describe('stopping the server', () => {
  it('ends open MCP sessions instead of waiting out the shutdown grace period for their event streams', async () => {
    const srv = await startTestServer();
    const client = await httpClient(srv.url, await srv.token('full-access'));
    await client.listTools();
    // Give the client time to open its event stream (GET /mcp).
    await new Promise((resolve) => setTimeout(resolve, 300));
    const started = Date.now();
    await srv.close();
    expect(Date.now() - started).toBeLessThan(SHUTDOWN_GRACE_MS / 2);
  });
});
