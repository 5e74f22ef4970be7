import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { AddressInfo } from 'node:net';
import { log } from './common.js';
import type { BenchOptions } from './options.js';
import type { ScenarioResult } from './report.js';
import { loadHearth, type Scenario } from './scenarios.js';
import { hearthCli, type HearthProcess } from './server.js';

/** Webhooks the scenario configures (issue 19: update throughput with 3 webhooks configured vs none). */
export const WEBHOOK_COUNT = 3;
export const WEBHOOK_UPDATES = `update, ${WEBHOOK_COUNT} webhooks`;

/** How long the deliveries queued during the run may take to go out after it. */
const SETTLE_MS = 120_000;

/** Deliveries not yet settled, read from the data dir's database (read-only, beside the server). */
function pending(dataDir: string): number {
  const db = new Database(join(dataDir, 'hearth.db'), { readonly: true, fileMustExist: true });
  try {
    const row = db.prepare("select count(*) as n from hearth_webhook_deliveries where status = 'pending'").get() as { n: number };
    return row.n;
  } finally {
    db.close();
  }
}

/** A receiver on loopback that acknowledges every delivery at once and counts them. */
async function receiver(): Promise<{ server: Server; url: string; received: () => number }> {
  let received = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received++;
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { server, url: `http://127.0.0.1:${port}/hook`, received: () => received };
}

/**
 * The update scenario again with WEBHOOK_COUNT webhooks subscribed to entry.update and
 * entry.publish (each PUT of a draft & publish document raises both): the events are written in
 * the update's transaction and delivered after it, so the write path should barely move. The
 * webhooks are added and removed with the CLI on the running server's data dir.
 */
export async function updatesWithWebhooks(update: Scenario, hearth: HearthProcess, dataDir: string, token: string, o: BenchOptions): Promise<ScenarioResult> {
  const hook = await receiver();
  const ids: string[] = [];
  try {
    for (let i = 0; i < WEBHOOK_COUNT; i++) {
      const out = await hearthCli(['webhook', 'add', '--url', hook.url, '--events', 'entry.update,entry.publish', '--name', `bench-${i}`, '--data', dataDir]);
      ids.push(out.trim());
    }
    log(`- ${WEBHOOK_UPDATES}: Hearth...`);
    const h = await loadHearth({ ...update, name: WEBHOOK_UPDATES }, hearth, token, o);
    // Deliveries still queued when the run ended are sent after it: wait until none is pending (at most SETTLE_MS).
    const ended = Date.now();
    while (pending(dataDir) > 0 && Date.now() - ended < SETTLE_MS) await new Promise((r) => setTimeout(r, 250));
    const drained = ((Date.now() - ended) / 1000).toFixed(1);
    const left = pending(dataDir);
    const note = `${update.note}, with ${WEBHOOK_COUNT} webhooks on entry.update and entry.publish (a receiver on loopback answering 204): ${hook.received().toLocaleString('en-US')} deliveries received for ${h.requests.toLocaleString('en-US')} updates (and the warm-up's); the last delivered ${drained} s after the run${left > 0 ? `, ${left.toLocaleString('en-US')} still pending then` : ''}`;
    log(`    ${note}`);
    const [first] = update.paths;
    return { name: WEBHOOK_UPDATES, method: update.method, path: first ?? '', read: false, note, bodyBytes: null, hearth: h, ceiling: null, noCache: null };
  } finally {
    for (const id of ids) await hearthCli(['webhook', 'remove', '--id', id, '--data', dataDir]).catch(() => undefined);
    await new Promise<void>((resolve) => hook.server.close(() => resolve()));
  }
}
