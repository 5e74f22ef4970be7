import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { answers, CONTENT_READS, importStrapi, serveImported, stage, STRAPI_DIR, STRAPI_TAR_GZ } from '../backup/strapi-helpers.js';
import { capture, connect, transferToken, type Captured } from './client.js';

/**
 * `strapi transfer --to` into Hearth: the client side of the recorded push capture replayed over
 * a real WebSocket, each stream message carrying the whole stage of the fixture's archive (the
 * capture keeps only its first item); then REST answers as a server that imported the archive.
 */

let root: string;
let pushed: TestServer;
let imported: TestServer;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'hearth-transfer-push-'));
  expect((await importStrapi(STRAPI_TAR_GZ, join(root, 'imported'))).code).toBe(0);
  imported = await serveImported(join(root, 'imported'));
  pushed = await startTestServer({ database: 'sqlite' });
});

afterAll(async () => {
  await pushed?.close();
  await imported?.close();
  await rm(root, { recursive: true, force: true });
});

/** The entity lines as the push client sends them: documentId moved to the end of data (as in the capture). */
async function entityItems(): Promise<unknown[]> {
  return (await stage(STRAPI_DIR, 'entities')).map(({ type, id, data }) => {
    const { documentId, ...rest } = data;
    return { type, id, data: { ...rest, documentId } };
  });
}

/** Each archived file as start, base64 stream and end chunks. */
async function assetItems(): Promise<unknown[]> {
  const out: unknown[] = [];
  for (const filename of await readdir(join(STRAPI_DIR, 'assets', 'uploads'))) {
    const bytes = await readFile(join(STRAPI_DIR, 'assets', 'uploads', filename));
    const metadata = JSON.parse(await readFile(join(STRAPI_DIR, 'assets', 'metadata', `${filename}.json`), 'utf8')) as unknown;
    const assetID = `asset-${filename}`;
    out.push({ action: 'start', assetID, data: { filename, filepath: `/project/public/uploads/${filename}`, stats: { size: bytes.length }, metadata } });
    out.push({ action: 'stream', assetID, encoding: 'base64', data: bytes.toString('base64') });
    out.push({ action: 'end', assetID, checksum: { algorithm: 'sha256', value: createHash('sha256').update(bytes).digest('hex') } });
  }
  return out;
}

describe('push: the recorded client messages replayed with the whole archive', () => {
  it('answers each as Strapi did, and the content then answers REST as the imported archive does', async () => {
    const before = await pushed.token('full-access');
    const created = await pushed.request('/api/tags', { method: 'POST', token: before, json: { data: { label: 'gone after the push' } } });
    expect(created.status).toBe(201);
    const token = await transferToken(pushed.dataDir, 'push');
    const assets = await assetItems();
    const full: Record<string, unknown[]> = {
      entities: await entityItems(),
      assets,
      links: await stage(STRAPI_DIR, 'links'),
      configuration: await stage(STRAPI_DIR, 'configuration'),
    };
    const lines = await capture('push');
    const recorded = new Map(lines.filter((l) => l.dir === 'server->client' && l.message?.error !== undefined).map((l) => [String(l.message?.uuid), l.message]));
    const sent = lines.filter((l): l is Captured & { message: Record<string, unknown> } => l.dir === 'client->server' && l.message !== undefined);
    const client = await connect(pushed.url, 'push', token);
    let transferID = '';
    for (const { message } of sent) {
      const withData = message.action === 'stream' ? { ...message, data: full[String(message.step)] } : message.command === 'end' ? { ...message, params: { transferID } } : message;
      const reply = await client.request(message.transferID === undefined ? withData : { ...withData, transferID });
      const expected = recorded.get(String(message.uuid)) as { data: unknown };
      const what = `${String(message.command ?? message.action)} ${String(message.step ?? '')}`;
      expect(reply.error, what).toBeNull();
      if (message.command === 'init') {
        transferID = String((reply.data as { transferID: string }).transferID);
        expect(reply.data, what).toEqual({ ...(expected.data as object), transferID });
      } else if (message.action === 'getMetadata') {
        expect(reply.data, what).toEqual({ createdAt: expect.any(String), strapi: { version: '5.54.0' } });
      } else if (message.action === 'getSchemas') {
        expect(Object.keys(reply.data as object).length, what).toBe(26);
      } else if (message.action === 'end' && message.step === 'assets') {
        // The capture counts files (3); the archive holds each format as an asset of its own too.
        expect(reply.data, what).toEqual({ ok: true, stats: { started: assets.length / 3, finished: assets.length / 3 } });
      } else if (message.action === 'end' && message.kind === 'step') {
        const count = full[String(message.step)]?.length ?? 0;
        expect(reply.data, what).toEqual({ ok: true, stats: { started: count, finished: count } });
      } else {
        expect(reply.data, what).toEqual(expected.data);
      }
    }
    client.ws.close();
    // Every read of the fixture's content answers as the server that imported the same archive.
    expect(await answers(pushed, CONTENT_READS)).toEqual(await answers(imported, CONTENT_READS));
    // The API token made before the push still works; the tag it created is gone.
    const tags = await pushed.request('/api/tags?status=draft', { token: before });
    expect(tags.status).toBe(200);
    expect(JSON.stringify(await tags.json())).not.toContain('gone after the push');
    // The media are served.
    const [first] = await readdir(join(STRAPI_DIR, 'assets', 'uploads'));
    const media = await pushed.request(`/uploads/${String(first)}`);
    expect(Buffer.from(await media.arrayBuffer()).equals(await readFile(join(STRAPI_DIR, 'assets', 'uploads', String(first))))).toBe(true);
  });
});

describe('push: all or nothing', () => {
  it('a pushed entity of a type not in the schemas fails close with the line, and the content stays', async () => {
    const server = await startTestServer({ database: 'sqlite' });
    try {
      const api = await server.token('full-access');
      expect((await server.request('/api/tags', { method: 'POST', token: api, json: { data: { label: 'kept' } } })).status).toBe(201);
      const client = await connect(server.url, 'push', await transferToken(server.dataDir, 'push'));
      const init = await client.request({ type: 'command', command: 'init', params: { transfer: 'push', options: { strategy: 'restore' } } });
      const { transferID } = init.data as { transferID: string };
      const send = (message: Record<string, unknown>) => client.request({ type: 'transfer', transferID, ...message });
      for (const action of ['bootstrap', 'beforeTransfer']) expect((await send({ kind: 'action', action })).error).toBeNull();
      await send({ kind: 'step', action: 'start', step: 'entities' });
      await send({ kind: 'step', action: 'stream', step: 'entities', data: [{ type: 'api::nope.nope', id: 1, data: { name: 'x' } }] });
      await send({ kind: 'step', action: 'end', step: 'entities' });
      const close = await send({ kind: 'action', action: 'close' });
      expect(close.error).toEqual({ code: 'Error', message: "invalid Strapi archive: entities/entities_00001.jsonl:1: entity of type api::nope.nope, which is not in the archive's schemas", details: {} });
      client.ws.close();
      const tags = (await (await server.request('/api/tags?status=draft', { token: api })).json()) as { data: { label: string }[] };
      expect(tags.data.map((t) => t.label)).toEqual(['kept']);
    } finally {
      await server.close();
    }
  });
});
