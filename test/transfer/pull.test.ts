import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../helpers/server.js';
import { importStrapi, serveImported, stage, STRAPI_DIR, STRAPI_TAR_GZ, type Line } from '../backup/strapi-helpers.js';
import { capture, connect, transferToken, type Batch, type Captured } from './client.js';

/**
 * `strapi transfer --from` against Hearth: the client side of the recorded pull capture replayed
 * over a real WebSocket against a server holding the imported fixture archive, the batches
 * checked against the archive's lines.
 */

let root: string;
let dataDir: string;
let server: TestServer;
let token: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'hearth-transfer-pull-'));
  dataDir = join(root, 'data');
  expect((await importStrapi(STRAPI_TAR_GZ, dataDir)).code).toBe(0);
  server = await serveImported(dataDir);
  token = await transferToken(dataDir, 'pull');
});

afterAll(async () => {
  await server?.close();
  await rm(root, { recursive: true, force: true });
});

const items = (batches: Batch[]) => batches.flatMap((b) => b.data ?? []);
const key = (l: { type: unknown; id: unknown }) => `${String(l.type)}#${String(l.id)}`;

describe('pull: the recorded client messages replayed', () => {
  it('answers each as Strapi did and streams the archive content in acknowledged batches', async () => {
    const lines = await capture('pull');
    const recorded = new Map(lines.filter((l) => l.dir === 'server->client' && l.message?.error !== undefined).map((l) => [String(l.message?.uuid), l.message]));
    const sent = lines.filter((l): l is Captured & { message: Record<string, unknown> } => l.dir === 'client->server' && l.message !== undefined && l.message.type !== undefined);
    const client = await connect(server.url, 'pull', token);
    let transferID = '';
    const streams: Record<string, Batch[]> = {};
    for (const { message } of sent) {
      const reply = await client.request(message.transferID === undefined ? message : { ...message, transferID });
      const expected = recorded.get(String(message.uuid)) as { data: unknown; error: unknown };
      expect(reply.error, `${String(message.command ?? message.action)} ${String(message.step ?? '')}`).toBeNull();
      if (message.command === 'init') {
        transferID = String((reply.data as { transferID: string }).transferID);
        expect(reply.data).toEqual({ ...(expected.data as object), transferID });
      } else if (message.action === 'getMetadata') {
        expect(reply.data).toEqual({ createdAt: expect.any(String), strapi: { version: '5.54.0' } });
      } else if (message.action === 'getSchemas') {
        const schemas = await stage(STRAPI_DIR, 'schemas');
        expect(Object.keys(reply.data as object).sort()).toEqual(schemas.map((s) => String(s.uid)).sort());
      } else if (message.kind === 'step' && message.action === 'start') {
        const data = reply.data as { ok: boolean; id: string; totals?: unknown };
        const { id: _recordedId, ...rest } = expected.data as { id: string };
        expect({ ...data, id: undefined }).toEqual({ ...rest, id: undefined });
        streams[String(message.step)] = await client.streamed(data.id);
      } else {
        expect(reply.data).toEqual(expected.data);
      }
    }
    // Entities: every archive line, with its documentId (a pull carries it).
    const archived = await stage(STRAPI_DIR, 'entities');
    const pulled = items(streams.entities ?? []) as Line[];
    const contentTypes = (ls: Line[]) => ls.filter((l) => l.type.startsWith('api::') || l.type === 'plugin::upload.file');
    expect(contentTypes(pulled).map(key).sort()).toEqual(contentTypes(archived).map(key).sort());
    for (const line of contentTypes(archived)) {
      expect(pulled.find((p) => key(p) === key(line))?.data.documentId, key(line)).toBe(line.data.documentId);
    }
    expect(streams.entities?.at(-1)).toMatchObject({ type: 'transfer', data: null, ended: true, error: null });
    // Links and configuration come as lines too.
    expect(items(streams.links ?? []).length).toBeGreaterThan(0);
    expect(items(streams.configuration ?? [])).toContainEqual(expect.objectContaining({ type: 'core-store', value: expect.objectContaining({ key: 'plugin_i18n_default_locale' }) }));
    // Assets: one batch per file, start/stream/end, bytes and sha256 as the archive's files.
    const names = await readdir(join(STRAPI_DIR, 'assets', 'uploads'));
    const assets = (streams.assets ?? []).filter((b) => !b.ended).map((b) => (b.data as Record<string, unknown>[][])[0] ?? []);
    expect(assets.map((chunks) => (chunks[0]?.data as { filename: string }).filename).sort()).toEqual(names.sort());
    for (const chunks of assets) {
      const [start, ...rest] = chunks;
      const end = rest.pop();
      const name = (start?.data as { filename: string }).filename;
      const bytes = Buffer.concat(rest.map((c) => Buffer.from(String(c.data), 'base64')));
      const original = await readFile(join(STRAPI_DIR, 'assets', 'uploads', name));
      expect(bytes.equals(original), name).toBe(true);
      expect(end).toMatchObject({ action: 'end', checksum: { algorithm: 'sha256', value: createHash('sha256').update(original).digest('hex') } });
    }
    expect(client.diagnostics.map((d) => (d.details as { message: string }).message)).toContain('creating entities read stream');
    client.ws.close();
  });
});
