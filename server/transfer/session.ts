import { randomUUID } from 'node:crypto';
import type { RawData, WebSocket } from 'ws';
import type { Services } from '../services.js';
import { createPullSource } from './pull.js';
import { createPushDestination } from './push.js';
import { isRecord, ThenRun, transferAnswer, transferError, type Provider, type Channel } from './protocol.js';

/**
 * One transfer WebSocket, as Strapi's push and pull handlers answer it: `command` messages
 * (init, end, status) and, once a transfer is initialised, `transfer` messages (actions and
 * steps) handed to the provider. Each reply carries the request's uuid; a diagnostic comes
 * before it. A frame that is not such a message closes the socket, as Strapi's handler does.
 */

/** One transfer at a time per server: a restore replaces the content a pull reads. */
export interface TransferLock {
  take(id: string): boolean;
  release(id: string): void;
}

/** The server's transfer lock. */
export function createTransferLock(): TransferLock {
  let holder: string | null = null;
  return {
    take(id) {
      if (holder !== null) return false;
      holder = id;
      return true;
    },
    release(id) {
      if (holder === id) holder = null;
    },
  };
}

interface State {
  transferID: string | null;
  startedAt: number | null;
  provider: Provider | null;
  /** The last reply, re-sent when the client repeats its uuid. */
  last: { uuid: string; payload: string } | null;
}

const VALID_COMMANDS = ['init', 'end', 'status'] as const;

/** Runs the protocol on an upgraded socket until it closes. */
export function runSession(options: { ws: WebSocket; kind: 'push' | 'pull'; services: Services; lock: TransferLock }): void {
  const { ws, kind, services, lock } = options;
  const state: State = { transferID: null, startedAt: null, provider: null, last: null };
  const seen = new Set<string>();
  const acks = new Map<string, () => void>();
  const origin = `${kind}-handler`;
  const send = (message: unknown) => new Promise<void>((resolve, reject) => ws.send(JSON.stringify(message), (err) => (err ? reject(err) : resolve())));
  const channel: Channel = {
    diagnostic: (message, from = origin) => send({ diagnostic: { details: { message, origin: from, createdAt: new Date().toISOString() }, kind: 'info' }, uuid: randomUUID() }),
    confirm: (data) =>
      new Promise<void>((resolve, reject) => {
        const uuid = randomUUID();
        acks.set(uuid, resolve);
        send({ uuid, data }).catch(reject);
      }),
  };

  const teardown = async () => {
    const provider = state.provider;
    if (state.transferID !== null) lock.release(state.transferID);
    state.transferID = null;
    state.startedAt = null;
    state.provider = null;
    await provider?.dispose();
  };

  const commands = {
    async init(params: Record<string, unknown>) {
      const id = randomUUID();
      if (state.transferID !== null || !lock.take(id)) throw transferError('Error', 'Transfer already in progress');
      state.transferID = id;
      state.startedAt = Date.now();
      state.provider = kind === 'pull' ? createPullSource({ services, channel }) : createPushDestination({ services, channel, options: params.options });
      const reply: Record<string, unknown> = { transferID: id };
      if (params.checksums !== undefined) reply.checksums = params.checksums;
      if (kind === 'push' && params.assetEncoding !== undefined) reply.assetEncoding = params.assetEncoding;
      return reply;
    },
    async end(params: Record<string, unknown>) {
      if (state.transferID === null || params.transferID !== state.transferID) throw transferError('ProviderTransferError', 'Bad transfer ID provided');
      await teardown();
      return { ok: true };
    },
    async status() {
      if (state.startedAt === null) return { active: false, kind: null, elapsed: null, startedAt: null };
      return { active: true, kind, startedAt: state.startedAt, elapsed: Date.now() - state.startedAt };
    },
  };
  const respond = async (uuid: string, fn: () => Promise<unknown>) => {
    let payload: string;
    let after: ThenRun | null = null;
    try {
      const result = await fn();
      if (result instanceof ThenRun) after = result;
      payload = JSON.stringify({ uuid, data: (result instanceof ThenRun ? result.reply : result) ?? null, error: null });
    } catch (err) {
      const known = transferAnswer(err);
      if (!known) services.log(`transfer: ${err instanceof Error ? err.message : String(err)}`);
      const error = known ?? { code: 'Error', message: err instanceof Error ? err.message : String(err), details: {} };
      payload = JSON.stringify({ uuid, data: null, error });
    }
    state.last = { uuid, payload };
    await new Promise<void>((resolve, reject) => ws.send(payload, (err) => (err ? reject(err) : resolve())));
    // A pull stream runs beside the message loop: the client's acks must still reach it.
    after?.run().catch((err: unknown) => {
      services.log(`transfer: stream failed: ${err instanceof Error ? err.message : String(err)}`);
      ws.terminate();
    });
  };

  const handle = async (msg: Record<string, unknown> & { uuid: string; type: string }) => {
    const { uuid } = msg;
    if (seen.has(uuid)) {
      if (state.last?.uuid === uuid) ws.send(state.last.payload);
      return;
    }
    seen.add(uuid);
    if (msg.type === 'command') {
      const command = String(msg.command);
      await channel.diagnostic(`received command:${command} uuid:${uuid}`);
      const params = isRecord(msg.params) ? msg.params : {};
      await respond(uuid, async () => {
        if (!(VALID_COMMANDS as readonly string[]).includes(command)) throw transferError('Error', 'Invalid transfer command');
        return commands[command as (typeof VALID_COMMANDS)[number]](params);
      });
      return;
    }
    await channel.diagnostic(`received transfer action:${String(msg.action)} step:${String(msg.kind)} uuid:${uuid}`);
    await respond(uuid, async () => {
      const provider = state.provider;
      if (provider === null || msg.transferID !== state.transferID) throw transferError('Error', 'Invalid Transfer Process');
      if (msg.kind === 'action') return provider.action(String(msg.action));
      if (msg.kind === 'step') return provider.step(String(msg.action), String(msg.step), msg.data);
      throw transferError('Error', 'Invalid Transfer Process');
    });
  };

  let queue: Promise<void> = Promise.resolve();
  ws.on('message', (raw: RawData, isBinary: boolean) => {
    let msg: unknown;
    try {
      msg = isBinary ? undefined : JSON.parse(raw.toString());
    } catch {
      msg = undefined;
    }
    if (isRecord(msg) && typeof msg.uuid === 'string' && msg.type === undefined) {
      const ack = acks.get(msg.uuid);
      if (ack !== undefined) {
        acks.delete(msg.uuid);
        ack();
        return;
      }
    }
    if (!isRecord(msg) || typeof msg.uuid !== 'string' || (msg.type !== 'command' && msg.type !== 'transfer')) {
      ws.terminate();
      return;
    }
    const valid = msg as Record<string, unknown> & { uuid: string; type: string };
    queue = queue.then(() => handle(valid)).catch((err: unknown) => {
      services.log(`transfer: cannot answer, closing: ${err instanceof Error ? err.message : String(err)}`);
      ws.terminate();
    });
  });
  ws.on('close', () => {
    acks.clear();
    void queue.then(teardown).catch(() => {});
  });
  ws.on('error', () => ws.terminate());
}
