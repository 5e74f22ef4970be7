import { createServer, type Server } from 'node:http';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { AddressInfo } from 'node:net';
import { SCHEMAS, log } from './common.js';
import type { LoadResult } from './load.js';
import type { BenchOptions } from './options.js';
import type { ScenarioResult } from './report.js';
import { loadHearth, scenarios, type Scenario } from './scenarios.js';
import { seedRecipes, seedReferences } from './seed.js';
import { createToken, hearthCli, startHearth, type HearthProcess } from './server.js';

/** Webhooks the scenario configures (issue 19: update throughput with 3 webhooks configured vs none). */
export const WEBHOOK_COUNT = 3;
export const WEBHOOK_UPDATES = `update, ${WEBHOOK_COUNT} webhooks`;
export const WEBHOOK_UPDATES_DOWN = `update, ${WEBHOOK_COUNT} webhooks, receiver down`;

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

/** A loopback URL nothing listens on (a port bound, then closed): every delivery to it is refused. */
async function deadUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/hook`;
}

/**
 * The update scenario again with WEBHOOK_COUNT webhooks subscribed to entry.update and
 * entry.publish (each PUT of a draft & publish document raises both): the events are written in
 * the update's transaction and delivered after it. The webhooks are added and removed with the
 * CLI on the running server's data dir.
 *
 * `down`: the webhooks point at a port nothing listens on, so the run pays for recording the
 * events in the writes (building each event's populated entry, the outbox rows) and nothing for
 * delivering them (each webhook's first delivery is refused and the rest queue behind its retry).
 * Without it a loopback receiver acknowledges every delivery, and the note says how many arrived
 * during the measured run and when the last one did.
 */
export async function updatesWithWebhooks(update: Scenario, hearth: HearthProcess, dataDir: string, token: string, o: BenchOptions, down = false): Promise<ScenarioResult> {
  const hook = down ? null : await receiver();
  const url = hook ? hook.url : await deadUrl();
  const name = down ? WEBHOOK_UPDATES_DOWN : WEBHOOK_UPDATES;
  const ids: string[] = [];
  try {
    for (let i = 0; i < WEBHOOK_COUNT; i++) {
      const out = await hearthCli(['webhook', 'add', '--url', url, '--events', 'entry.update,entry.publish', '--name', `bench-${i}`, '--data', dataDir]);
      ids.push(out.trim());
    }
    log(`- ${name}: Hearth...`);
    let ended = 0;
    let receivedAtEnd = 0;
    const h = await loadHearth({ ...update, name }, hearth, token, o, () => {
      ended = Date.now();
      receivedAtEnd = hook?.received() ?? 0;
    });
    let note: string;
    if (hook) {
      // Deliveries still queued when the measured run ended go out after it: wait until none is pending (at most SETTLE_MS).
      while (pending(dataDir) > 0 && Date.now() - ended < SETTLE_MS) await new Promise((r) => setTimeout(r, 100));
      const drained = ((Date.now() - ended) / 1000).toFixed(1);
      const left = pending(dataDir);
      note = `${update.note}, with ${WEBHOOK_COUNT} webhooks on entry.update and entry.publish (a receiver on loopback answering 204): ${hook.received().toLocaleString('en-US')} deliveries received for ${h.requests.toLocaleString('en-US')} updates (and the warm-up's), ${receivedAtEnd.toLocaleString('en-US')} of them by the end of the measured run; the last ${drained} s after it${left > 0 ? `, ${left.toLocaleString('en-US')} still pending then` : ''}`;
    } else {
      note = `${update.note}, with ${WEBHOOK_COUNT} webhooks on entry.update and entry.publish whose receiver is down (connections refused): the writes record the events (each populated entry, the outbox rows) and nothing is delivered`;
    }
    log(`    ${note}`);
    const [first] = update.paths;
    return { name, method: update.method, path: first ?? '', read: false, note, bodyBytes: null, hearth: h, ceiling: null, noCache: null };
  } finally {
    for (const id of ids) await hearthCli(['webhook', 'remove', '--id', id, '--data', dataDir]).catch(() => undefined);
    if (hook) await new Promise<void>((resolve) => hook.server.close(() => resolve()));
  }
}

/** Rounds of `--only update`: none, receiver down, delivering, then again (interleaved, so a noisy stretch of the machine hits all). */
const ONLY_ROUNDS = 2;

const perRequest = (r: LoadResult): string => `${r.rps.toFixed(0)} req/s, server CPU ${((1000 * r.cpu.server) / Math.max(r.rps, 0.001)).toFixed(2)} ms/request (others ${r.cpu.others.toFixed(2)} cores)`;

/**
 * `npm run bench -- --only update`: seeds `o.docs` recipes on a fresh data dir, then measures the
 * update scenario with no webhook, with WEBHOOK_COUNT webhooks whose receiver is down (the cost of
 * recording the events) and with them delivering, interleaved ONLY_ROUNDS times, and prints req/s
 * and the server's CPU per request of each run and their ratios (no report file).
 */
export async function updatesOnly(o: BenchOptions, work: string, env: NodeJS.ProcessEnv): Promise<number> {
  const dataDir = join(work, 'data');
  await mkdir(dataDir);
  const token = await createToken(dataDir);
  const hearth = await startHearth({ dataDir, schemas: SCHEMAS, env });
  try {
    log(`seeding ${o.docs} recipes on ${hearth.url} (pid ${hearth.pid})...`);
    const refs = await seedReferences(hearth.url, token);
    const seeded = await seedRecipes({ url: hearth.url, token, refs, count: o.docs, concurrency: o.seedConcurrency, slugs: o.slugs, checkpoints: [], onCheckpoint: async () => undefined });
    const update = scenarios(o.docs, seeded.documentIds, []).find((s) => s.name === 'update');
    if (!update) throw new Error('no update scenario');
    const none: LoadResult[] = [];
    const down: LoadResult[] = [];
    const hooked: LoadResult[] = [];
    for (let round = 1; round <= ONLY_ROUNDS; round++) {
      log(`- update, no webhook (round ${round}/${ONLY_ROUNDS})...`);
      none.push(await loadHearth(update, hearth, token, o));
      down.push((await updatesWithWebhooks(update, hearth, dataDir, token, o, true)).hearth);
      hooked.push((await updatesWithWebhooks(update, hearth, dataDir, token, o)).hearth);
    }
    const sum = (rs: LoadResult[], f: (r: LoadResult) => number) => rs.reduce((s, r) => s + f(r), 0);
    const rps = (rs: LoadResult[]) => sum(rs, (r) => r.rps) / rs.length;
    const cpu = (rs: LoadResult[]) => (1000 * sum(rs, (r) => r.cpu.server * r.seconds)) / sum(rs, (r) => r.requests);
    const lines = [
      `update scenario, ${o.docs} docs, ${o.connections} connections, ${o.duration} s per run, ${ONLY_ROUNDS} interleaved rounds`,
      ...none.map((r, i) => `  no webhook         #${i + 1}: ${perRequest(r)}`),
      ...down.map((r, i) => `  receiver down      #${i + 1}: ${perRequest(r)}`),
      ...hooked.map((r, i) => `  ${WEBHOOK_COUNT} webhooks delivering #${i + 1}: ${perRequest(r)}`),
      `  mean: ${rps(none).toFixed(0)} (none) / ${rps(down).toFixed(0)} (events recorded, receiver down: ${((100 * rps(down)) / rps(none)).toFixed(0)}%) / ${rps(hooked).toFixed(0)} req/s (delivering: ${((100 * rps(hooked)) / rps(none)).toFixed(0)}% of none, ${((100 * rps(hooked)) / rps(down)).toFixed(0)}% of receiver down)`,
      `  server CPU ${cpu(none).toFixed(2)} / ${cpu(down).toFixed(2)} / ${cpu(hooked).toFixed(2)} ms/request (the process, send thread included)`,
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
    return 0;
  } finally {
    await hearth.stop();
  }
}
