import { rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runHearth, type ServeProcess } from '../helpers/cli.js';
import { startReceiver, type Receiver } from '../webhooks/receiver.js';
import { call, freshDataDir, fullAccessToken, killHard, serveOn, stopGracefully, waitFor } from './helpers.js';

/**
 * kill -9 between writes and their deliveries: a real `hearth serve` takes creates (8 in flight)
 * while a receiver acknowledges deliveries, and is killed with SIGKILL mid-stream. Restarted on the
 * same data dir, it delivers the event of every acknowledged create; an event acknowledged by the
 * receiver is sent again at most when its 2xx arrived but the kill came before it was recorded
 * (the one delivery in flight). Runs the compiled CLI (`npm run build:server`).
 */

const IN_FLIGHT = 8;
const KILL_AFTER_ACKS = 40;

let dataDir: string;
let serve: ServeProcess | undefined;
let receiver: Receiver | undefined;

afterAll(async () => {
  serve?.child.kill('SIGKILL');
  await receiver?.close();
  if (dataDir) await rm(dirname(dataDir), { recursive: true, force: true });
});

describe('webhook outbox across kill -9', () => {
  it('loses no event of an acknowledged write', async () => {
    dataDir = await freshDataDir('webhook-crash');
    const token = await fullAccessToken(dataDir);
    receiver = await startReceiver();
    const added = await runHearth(['webhook', 'add', '--url', `${receiver.url}/crash`, '--events', 'entry.create', '--data', dataDir]);
    expect(added.code).toBe(0);
    serve = await serveOn(dataDir);
    const base = serve.url;
    const acked = new Set<string>();
    let next = 0;
    let killed = false;
    const worker = async (): Promise<void> => {
      while (!killed) {
        const label = `t${next++}`;
        try {
          const res = await call(base, token, 'POST', '/api/tags?status=draft', { label });
          if (res.status === 201) acked.add(label);
        } catch {
          return; // the server is gone
        }
        if (acked.size >= KILL_AFTER_ACKS && !killed) {
          killed = true;
          if (serve) await killHard(serve);
        }
      }
    };
    await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
    expect(acked.size).toBeGreaterThanOrEqual(KILL_AFTER_ACKS);

    serve = await serveOn(dataDir);
    const labels = () => receiver?.received.map((r) => String((JSON.parse(r.body) as { entry: { label: string } }).entry.label)) ?? [];
    await waitFor('every acknowledged create delivered', async () => [...acked].every((l) => labels().includes(l)));
    await new Promise((r) => setTimeout(r, 500));
    const seen = labels();
    const repeated = seen.filter((l, i) => seen.indexOf(l) !== i);
    expect(repeated.length).toBeLessThanOrEqual(1);
    expect(await stopGracefully(serve)).toBe(0);
    serve = undefined;
  });
});
