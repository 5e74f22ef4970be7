import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInProcess } from '../backup/helpers.js';
import { stage, STRAPI_DIR } from '../backup/strapi-helpers.js';
import { FIXTURE_PROJECT, startTestServer, type TestServer } from '../helpers/server.js';
import { connect, refusal, transferToken } from './client.js';
import { strictSchemaDiffs } from './strapi-schema-diff.js';

/**
 * Strapi's transfer endpoints on Hearth: the upgrade's refusals (Strapi's bodies), the command
 * and framing rules of its handlers, one transfer at a time, and getSchemas as the CLI's strict
 * schema check reads it.
 */

let server: TestServer;
let pull: string;
let push: string;
let full: string;

beforeAll(async () => {
  server = await startTestServer({ database: 'sqlite' });
  [pull, push, full] = [await transferToken(server.dataDir, 'pull'), await transferToken(server.dataDir, 'push'), await transferToken(server.dataDir, 'full')];
});

afterAll(async () => {
  await server?.close();
});

const FORBIDDEN = { data: null, error: { status: 403, name: 'ForbiddenError', message: 'Forbidden', details: {} } };
const UNAUTHORIZED = { data: null, error: { status: 401, name: 'UnauthorizedError', message: 'Missing or invalid credentials', details: {} } };

describe('the upgrade', () => {
  it.each([
    ['a wrong token', 'pull', 'not-a-token', {}, 401, UNAUTHORIZED],
    ['no token', 'push', '', {}, 401, UNAUTHORIZED],
    ['an API token', 'pull', 'api', {}, 401, UNAUTHORIZED],
    ['a pull token on push', 'push', 'pull', {}, 403, FORBIDDEN],
    ['a push token on pull', 'pull', 'push', {}, 403, FORBIDDEN],
    ['another method', 'sideways', 'full', {}, 404, { data: null, error: { status: 404, name: 'NotFoundError', message: 'Not Found', details: {} } }],
    ['a foreign Host', 'pull', 'full', { Host: 'evil.example:1337' }, 403, { data: null, error: { status: 403, name: 'ForbiddenError', message: 'Host not allowed', details: {} } }],
    ['a page on another origin', 'pull', 'full', { Origin: 'http://evil.example' }, 403, { data: null, error: { status: 403, name: 'ForbiddenError', message: 'Origin not allowed', details: {} } }],
  ])('refuses %s', async (_name, kind, which, headers, status, body) => {
    const tokens: Record<string, string> = { pull, push, full, api: await server.token('full-access') };
    expect(await refusal(server.url, kind, tokens[which] ?? which, headers)).toEqual({ status, body });
  });

  it('opens for the right direction', async () => {
    for (const [kind, token] of [['pull', pull], ['push', push], ['pull', full], ['push', full]] as const) {
      const client = await connect(server.url, kind, token);
      client.ws.close();
    }
  });

  it('hearth token create --type transfer checks --access', async () => {
    const run = await runInProcess(['token', 'create', '--type', 'transfer', '--access', 'sideways', '--name', 'x', '--data', server.dataDir]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--access must be one of push, pull, full');
  });
});

describe('commands and framing', () => {
  it('answers a transfer message before init with Invalid Transfer Process', async () => {
    const client = await connect(server.url, 'pull', pull);
    const reply = await client.request({ type: 'transfer', kind: 'action', action: 'bootstrap', uuid: 'u-1', transferID: 'x' });
    expect(reply).toEqual({ uuid: 'u-1', data: null, error: { code: 'Error', message: 'Invalid Transfer Process', details: {} } });
    expect(client.diagnostics[0]).toMatchObject({ kind: 'info', details: { message: 'received transfer action:bootstrap step:action uuid:u-1', origin: 'pull-handler' } });
    client.ws.close();
  });

  it('closes the socket on a frame that is not a message', async () => {
    for (const frame of ['{"uuid":"a","type":"other"}', '{"type":"command"}', 'not json']) {
      const client = await connect(server.url, 'push', push);
      client.ws.send(frame);
      expect(await client.closed).toBe(1006);
    }
  });

  it('status, init, a second init, end with a wrong and the right transferID', async () => {
    const client = await connect(server.url, 'push', push);
    expect((await client.request({ type: 'command', command: 'status' })).data).toEqual({ active: false, kind: null, elapsed: null, startedAt: null });
    const init = await client.request({ type: 'command', command: 'init', params: { options: { strategy: 'restore' }, transfer: 'push', checksums: true, assetEncoding: 'base64' } });
    const { transferID } = init.data as { transferID: string };
    expect(init.data).toEqual({ transferID: expect.any(String), checksums: true, assetEncoding: 'base64' });
    expect((await client.request({ type: 'command', command: 'status' })).data).toMatchObject({ active: true, kind: 'push' });
    const again = await client.request({ type: 'command', command: 'init', params: { transfer: 'push' } });
    expect(again.error).toEqual({ code: 'Error', message: 'Transfer already in progress', details: {} });
    // A second connection, while this one transfers: refused too (one restore at a time).
    const other = await connect(server.url, 'pull', pull);
    expect((await other.request({ type: 'command', command: 'init', params: { transfer: 'pull' } })).error).toEqual({ code: 'Error', message: 'Transfer already in progress', details: {} });
    expect((await client.request({ type: 'command', command: 'end', params: { transferID: 'wrong' } })).error).toEqual({ code: 'ProviderTransferError', message: 'Bad transfer ID provided', details: {} });
    expect((await client.request({ type: 'command', command: 'end', params: { transferID } })).data).toEqual({ ok: true });
    expect((await other.request({ type: 'command', command: 'init', params: { transfer: 'pull', checksums: true } })).data).toEqual({ transferID: expect.any(String), checksums: true });
    other.ws.close();
    client.ws.close();
  });

  it('a closed socket lets its transfer go', async () => {
    const first = await connect(server.url, 'pull', pull);
    await first.request({ type: 'command', command: 'init', params: { transfer: 'pull' } });
    first.ws.close();
    await first.closed;
    const next = await connect(server.url, 'pull', pull);
    await expect.poll(async () => (await next.request({ type: 'command', command: 'init', params: { transfer: 'pull' } })).error).toBeNull();
    next.ws.close();
  });
});

/** getSchemas of a push to `url`. */
async function schemasOf(url: string, token: string): Promise<Record<string, unknown>> {
  const client = await connect(url, 'push', token);
  const init = await client.request({ type: 'command', command: 'init', params: { transfer: 'push', options: { strategy: 'restore' } } });
  const { transferID } = init.data as { transferID: string };
  const reply = await client.request({ type: 'transfer', kind: 'action', action: 'getSchemas', transferID });
  await client.request({ type: 'command', command: 'end', params: { transferID } });
  client.ws.close();
  return reply.data as Record<string, unknown>;
}

describe("getSchemas, as the CLI's strict schema check reads it", () => {
  it('matches the schemas of the Strapi the fixture was exported from: a push from it goes ahead', async () => {
    const strapi = Object.fromEntries((await stage(STRAPI_DIR, 'schemas')).map((s) => [String(s.uid), s as unknown]));
    expect(strictSchemaDiffs(strapi, await schemasOf(server.url, push))).toEqual({});
  });

  it('differs where the project differs: a push from the unchanged Strapi is refused by the CLI', async () => {
    const root = await mkdtemp(join(tmpdir(), 'hearth-transfer-schemas-'));
    const project = join(root, 'project');
    await cp(FIXTURE_PROJECT, project, { recursive: true });
    const file = join(project, 'src/api/tag/content-types/tag/schema.json');
    const schema = JSON.parse(await readFile(file, 'utf8')) as { attributes: Record<string, unknown> };
    schema.attributes.colour = { type: 'string' };
    await writeFile(file, JSON.stringify(schema));
    const changed = await startTestServer({ schemas: project, database: 'sqlite' });
    try {
      const strapi = Object.fromEntries((await stage(STRAPI_DIR, 'schemas')).map((s) => [String(s.uid), s as unknown]));
      const diffs = strictSchemaDiffs(strapi, await schemasOf(changed.url, await transferToken(changed.dataDir, 'push')));
      expect(Object.keys(diffs)).toEqual(['api::tag.tag']);
      expect(diffs['api::tag.tag']).toEqual([{ kind: 'added', path: ['attributes', 'colour'], value: { type: 'string' } }]);
    } finally {
      await changed.close();
      await rm(root, { recursive: true, force: true });
    }
  });
});
