import { copyFile, mkdir, readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { RESULTS, SCHEMAS, SQL_TRACE, log } from './common.js';
import { measure, type LoadArgs } from './load.js';
import type { BenchOptions } from './options.js';
import { summarizeProfile } from './profile.js';
import type { ProfileResult, SqlRow } from './report.js';
import { startHearth } from './server.js';

/** SQLite's plan for a statement (parameters bound to NULL: the plan's shape, not its cost). */
function queryPlan(file: string, text: string): string {
  try {
    const db = new Database(file, { readonly: true, fileMustExist: true });
    try {
      const params = new Array<null>((text.match(/\?/g) ?? []).length).fill(null);
      const rows = db.prepare(`EXPLAIN QUERY PLAN ${text}`).all(...params) as { detail: string }[];
      return rows.map((r) => r.detail).join('; ');
    } finally {
      db.close();
    }
  } catch (err) {
    return `(no plan: ${err instanceof Error ? err.message : String(err)})`;
  }
}

export interface ProfileArgs {
  readonly label: string;
  /** HEARTH_RESPONSE_CACHE for the profiled server. */
  readonly cache: boolean;
  /** Also time every SQL statement in a second run (worth it when requests reach the database). */
  readonly sqlTrace: boolean;
  /** Name of the raw profile kept in bench/results/ (git-ignored: it ends in .json). */
  readonly fileName: string;
  readonly dataDir: string;
  readonly token: string;
  readonly env: NodeJS.ProcessEnv;
  readonly options: BenchOptions;
  readonly work: string;
  readonly cpu: number | null;
  readonly path: string;
}

/** Statement timings of a server run with sql-trace.mjs preloaded. */
async function sqlTimings(a: ProfileArgs, env: NodeJS.ProcessEnv, load: Omit<LoadArgs, 'origin' | 'serverPid'>) {
  const traceFile = join(a.work, `sql-trace-${a.cache ? 'cache' : 'nocache'}.json`);
  // Without read threads: the preload times the statements of the server's thread only (each read thread loads its own better-sqlite3).
  const traced = await startHearth({
    dataDir: a.dataDir,
    schemas: SCHEMAS,
    env: { ...env, HEARTH_BENCH_SQL_TRACE: traceFile, HEARTH_READ_THREADS: '0' },
    cpu: a.cpu,
    nodeArgs: ['--import', pathToFileURL(SQL_TRACE).href],
  });
  let wallMsPerRequest: number;
  let completed: number;
  try {
    const r = await measure({ origin: traced.url, serverPid: traced.pid, ...load }, 0);
    wallMsPerRequest = (r.seconds * 1000) / Math.max(r.requests, 1);
    completed = r.requests;
  } finally {
    await traced.stop();
  }
  const stats = JSON.parse(await readFile(traceFile, 'utf8')) as { sql: string; calls: number; ms: number; maxMs: number }[];
  // Requests the load generator completed (a token is resolved once and then remembered, so its lookup no longer counts requests).
  const requests = Math.max(completed, 1);
  const sql: SqlRow[] = stats
    .filter((st) => st.calls >= requests / 2)
    .slice(0, 12)
    .map((st) => ({ sql: st.sql, perRequest: st.calls / requests, msPerRequest: st.ms / requests, avgMs: st.ms / st.calls, maxMs: st.maxMs, plan: queryPlan(join(a.dataDir, 'hearth.db'), st.sql) }));
  return { sql, sqlMsPerRequest: stats.reduce((sum, st) => sum + st.ms, 0) / Math.max(requests, 1), wallMsPerRequest };
}

/** The server under the list load with `node --cpu-prof` (and optionally its SQL timed): where the time goes. */
export async function profileRun(a: ProfileArgs): Promise<ProfileResult> {
  const o = a.options;
  const dir = join(a.work, `cpu-prof-${a.cache ? 'cache' : 'nocache'}`);
  await mkdir(dir, { recursive: true });
  const env = { ...a.env, HEARTH_RESPONSE_CACHE: a.cache ? 'true' : 'false' };
  const load = { paths: [a.path], method: 'GET' as const, headers: { authorization: `Bearer ${a.token}` }, connections: o.connections, seconds: o.duration };
  log(`profiling the server under ${a.path} (${a.label}) ...`);
  const hearth = await startHearth({ dataDir: a.dataDir, schemas: SCHEMAS, env, cpu: a.cpu, nodeArgs: ['--cpu-prof', '--cpu-prof-dir', dir], unbundled: true });
  let rps: number;
  try {
    rps = (await measure({ origin: hearth.url, serverPid: hearth.pid, ...load }, o.warmup)).rps;
  } finally {
    await hearth.stop();
  }
  // One profile per thread (`CPU.<date>.<time>.<pid>.<thread>.<seq>.cpuprofile`): the server's own thread is 0; read threads do SQLite's work.
  const [file] = (await readdir(dir)).filter((f) => /\.0\.\d+\.cpuprofile$/.test(f));
  if (!file) throw new Error("the server wrote no .cpuprofile for its main thread");
  const kept = join(RESULTS, a.fileName);
  await copyFile(join(dir, file), kept);
  const summary = await summarizeProfile(kept, 40);
  if (!a.sqlTrace) return { label: a.label, file: kept, summary, rps, sql: null, sqlMsPerRequest: null, wallMsPerRequest: null };
  log(`timing its SQL statements under the same load (${a.label}) ...`);
  return { label: a.label, file: kept, summary, rps, ...(await sqlTimings(a, env, load)) };
}
