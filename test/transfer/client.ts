import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import WebSocket from 'ws';
import { runInProcess } from '../backup/helpers.js';
import { STRAPI_EXPORT } from '../backup/strapi-helpers.js';

/** A `strapi transfer` client over a real WebSocket: sends messages, awaits replies by uuid, acks stream batches. */

/** One message of a capture (test/fixtures/strapi/export/transfer-*-capture.jsonl). */
export interface Captured {
  readonly seq: number;
  readonly dir?: 'client->server' | 'server->client';
  readonly event?: string;
  readonly message?: Record<string, unknown>;
}

/** Every line of a capture. */
export async function capture(kind: 'push' | 'pull'): Promise<Captured[]> {
  const text = await readFile(join(STRAPI_EXPORT, `transfer-${kind}-capture.jsonl`), 'utf8');
  return text
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Captured);
}

/** A reply `{ uuid, data, error }`. */
export interface Reply {
  readonly uuid: string;
  readonly data: unknown;
  readonly error: { code: string; message: string; details: unknown } | null;
}

/** A stream batch the server sent (pull), in order. */
export interface Batch {
  readonly type: string;
  readonly data: unknown[] | null;
  readonly ended: boolean;
  readonly error: unknown;
  readonly id: string;
}

/** An open transfer socket. */
export interface TransferClient {
  readonly ws: WebSocket;
  /** Sends a message (a uuid is added when missing) and resolves with the server's reply to it. */
  request(message: Record<string, unknown>): Promise<Reply>;
  /** Resolves when the stream `id` has ended, with its batches. */
  streamed(id: string): Promise<Batch[]>;
  readonly diagnostics: Record<string, unknown>[];
  /** Resolves with the close code. */
  readonly closed: Promise<number>;
}

/** Opens `/admin/transfer/runner/<kind>` with a bearer token. */
export function connect(url: string, kind: string, token: string, headers: Record<string, string> = {}): Promise<TransferClient> {
  const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/admin/transfer/runner/${kind}`, { headers: { Authorization: `Bearer ${token}`, ...headers } });
  const waiting = new Map<string, (r: Reply) => void>();
  const batches = new Map<string, Batch[]>();
  const ends = new Map<string, () => void>();
  const diagnostics: Record<string, unknown>[] = [];
  const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
  ws.on('message', (raw) => {
    const msg = JSON.parse(raw.toString()) as Record<string, unknown>;
    if (msg.diagnostic !== undefined) {
      diagnostics.push(msg.diagnostic as Record<string, unknown>);
      return;
    }
    const uuid = String(msg.uuid);
    if (!('error' in msg)) {
      const batch = msg.data as Batch;
      (batches.get(batch.id) ?? batches.set(batch.id, []).get(batch.id))?.push(batch);
      ws.send(JSON.stringify({ uuid }));
      if (batch.ended) ends.get(batch.id)?.();
      return;
    }
    waiting.get(uuid)?.(msg as unknown as Reply);
  });
  const client: TransferClient = {
    ws,
    diagnostics,
    closed,
    request(message) {
      const uuid = typeof message.uuid === 'string' ? message.uuid : randomUUID();
      return new Promise((resolve) => {
        waiting.set(uuid, resolve);
        ws.send(JSON.stringify({ ...message, uuid }));
      });
    },
    streamed(id) {
      const done = () => batches.get(id)?.some((b) => b.ended) === true;
      if (done()) return Promise.resolve(batches.get(id) ?? []);
      return new Promise((resolve) => ends.set(id, () => resolve(batches.get(id) ?? [])));
    },
  };
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve(client));
    ws.once('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => reject(Object.assign(new Error(`upgrade refused: ${res.statusCode}`), { status: res.statusCode, body })));
    });
    ws.once('error', reject);
  });
}

/** The refusal of an upgrade: its status and JSON body. */
export async function refusal(url: string, kind: string, token: string, headers: Record<string, string> = {}): Promise<{ status: number; body: unknown }> {
  try {
    const client = await connect(url, kind, token, headers);
    client.ws.close();
    return { status: 101, body: null };
  } catch (err) {
    const { status, body } = err as { status?: number; body?: string };
    return { status: status ?? 0, body: body ? (JSON.parse(body) as unknown) : null };
  }
}

/** `hearth token create --type transfer --access A --name N --data DIR` in this process: the plaintext. */
export async function transferToken(dataDir: string, access: 'push' | 'pull' | 'full', name = `t-${randomUUID()}`): Promise<string> {
  const run = await runInProcess(['token', 'create', '--type', 'transfer', '--access', access, '--name', name, '--data', dataDir]);
  if (run.code !== 0) throw new Error(`token create failed: ${run.stderr}`);
  return run.stdout.trim();
}
