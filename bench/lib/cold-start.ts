import { request } from 'node:http';
import { createServer } from 'node:net';
import { MiB, NOISE_CORES, SCHEMAS, log, median } from './common.js';
import { waitForQuiet } from './cpu.js';
import type { ColdStartSet } from './report.js';
import { memoryOf, spawnServe, stopChild, type SpawnArgs } from './server.js';

/** A TCP port free right now on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const srv = createServer();
    srv.once('error', fail);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => done(port));
    });
  });
}

/** One GET with a fresh connection; the status, or null when the connection failed. */
export function probe(url: string, timeoutMs = 1000): Promise<number | null> {
  return new Promise((done) => {
    const req = request(url, { agent: false, timeout: timeoutMs }, (res) => {
      res.resume();
      res.on('end', () => done(res.statusCode ?? null));
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => done(null));
    req.end();
  });
}

export interface ColdStart {
  /** Milliseconds from spawn() to the first 204 from `/_health`. */
  readonly ms: number;
  /** RSS one second after the first health answer, no other request made. */
  readonly idleRss: number;
}

/** Spawns `hearth serve` on a known free port and polls `/_health` until 204; then measures idle RSS and stops it. */
export async function coldStart(args: Omit<SpawnArgs, 'port'>, idleMs = 1000): Promise<ColdStart> {
  const port = await freePort();
  const start = performance.now();
  const child = spawnServe({ ...args, port });
  let err = '';
  child.stderr?.setEncoding('utf8').on('data', (t: string) => {
    err = (err + t).slice(-5000);
  });
  child.stdout?.resume();
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`hearth serve exited (${child.exitCode}) during a cold start:\n${err}`);
      const status = await probe(`http://127.0.0.1:${port}/_health`, 2000);
      if (status === 204) break;
      if (status !== null) throw new Error(`/_health answered ${status}`);
      if (performance.now() - start > 30_000) throw new Error('hearth serve did not answer /_health within 30 s');
      await new Promise((r) => setTimeout(r, 2));
    }
    const ms = performance.now() - start;
    await new Promise((r) => setTimeout(r, idleMs));
    const pid = child.pid;
    const idleRss = pid === undefined ? NaN : (await memoryOf(pid)).rss;
    return { ms, idleRss };
  } finally {
    await stopChild(child);
  }
}

/** `count` cold starts (each after a quiet moment); the median time and idle RSS. */
export async function coldStarts(label: string, dirs: () => Promise<string>, count: number, env: NodeJS.ProcessEnv, cpu: number | null): Promise<ColdStartSet> {
  const runs: number[] = [];
  const rss: number[] = [];
  for (let k = 0; k < count; k++) {
    await waitForQuiet(0, NOISE_CORES, 30);
    const r = await coldStart({ dataDir: await dirs(), schemas: SCHEMAS, env, cpu });
    runs.push(r.ms);
    rss.push(r.idleRss);
  }
  const set = { label, runsMs: runs, medianMs: median(runs), idleRssMedian: median(rss) };
  log(`cold start, ${label}: median ${set.medianMs.toFixed(0)} ms (${runs.map((x) => x.toFixed(0)).join(', ')}), idle RSS ${(set.idleRssMedian / MiB).toFixed(1)} MB`);
  return set;
}
