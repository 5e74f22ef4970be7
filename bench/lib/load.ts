import autocannon from 'autocannon';
import { NOISE_CORES } from './common.js';
import { waitForQuiet, waitServerIdle, watchCpu, type CpuUse } from './cpu.js';

/** What one autocannon run measured. */
export interface LoadResult {
  /** Mean requests per second. */
  readonly rps: number;
  /** Latency in ms (autocannon's histogram, 1 ms resolution). */
  readonly p50: number;
  readonly p90: number;
  readonly p99: number;
  readonly max: number;
  readonly mean: number;
  /** Mean response bytes per second. */
  readonly bytesPerSec: number;
  readonly requests: number;
  /** Length of the measured run (longer than asked for slow scenarios). */
  readonly seconds: number;
  readonly non2xx: number;
  readonly errors: number;
  readonly timeouts: number;
  /** CPU used during the measured run (cores). */
  readonly cpu: CpuUse;
}

export interface LoadArgs {
  /** Origin, e.g. http://127.0.0.1:1234 */
  readonly origin: string;
  /** Paths (with query), used in turn, one per request. */
  readonly paths: readonly string[];
  readonly method?: 'GET' | 'PUT' | 'POST';
  /** Request bodies (JSON text), used in turn with the paths. */
  readonly bodies?: readonly string[];
  readonly headers?: Record<string, string>;
  readonly connections: number;
  readonly seconds: number;
  /** The server process, for its CPU use. */
  readonly serverPid: number;
  /** Called as the measured run's last request is answered (before waiting for the server to be idle). */
  readonly ended?: () => void;
}

function fire(args: LoadArgs, seconds: number): Promise<autocannon.Result> {
  const [first] = args.paths;
  if (first === undefined) throw new Error('no path to load');
  let k = 0;
  const headers = { ...args.headers, ...(args.bodies ? { 'content-type': 'application/json' } : {}) };
  const cycling = args.paths.length > 1 || (args.bodies?.length ?? 0) > 1;
  const request: autocannon.Request = {
    method: args.method ?? 'GET',
    path: first,
    headers,
    ...(args.bodies?.[0] !== undefined ? { body: args.bodies[0] } : {}),
    ...(cycling
      ? {
          setupRequest: (req: autocannon.Request) => {
            const i = k++;
            const path = args.paths[i % args.paths.length] ?? first;
            const body = args.bodies ? args.bodies[i % args.bodies.length] : undefined;
            return { ...req, path, ...(body !== undefined ? { body } : {}) };
          },
        }
      : {}),
  };
  return autocannon({ url: args.origin, connections: args.connections, duration: seconds, requests: [request], timeout: 30 });
}


/**
 * `measure`, repeated (up to `attempts` times) while other processes on the machine used more than
 * NOISE_CORES during the run; keeps the least perturbed attempt.
 */
export async function measureQuietly(args: LoadArgs, warmupSeconds: number, attempts: number, log: (m: string) => void): Promise<LoadResult> {
  let best: LoadResult | null = null;
  for (let i = 1; i <= attempts; i++) {
    const r = await measure(args, warmupSeconds);
    if (best === null || r.cpu.others < best.cpu.others) best = r;
    if (r.cpu.others <= NOISE_CORES) break;
    if (i < attempts) {
      log(`    other processes used ${r.cpu.others.toFixed(2)} cores: waiting for a quieter moment (up to 60 s), then measuring again (${i + 1}/${attempts})`);
      await waitForQuiet(args.serverPid, NOISE_CORES, 60);
    }
  }
  if (best === null) throw new Error('no measurement');
  return best;
}

/** Fewer completed requests than this make percentiles meaningless: the run is repeated for longer. */
const MIN_SAMPLES = 100;
/** Longest measured run when a slow scenario needs more time to collect MIN_SAMPLES. */
const MAX_SECONDS = 60;

/**
 * A warm-up run (discarded), then the measured run, each followed by a wait until the server is
 * idle again (abandoned requests). A run that completed fewer than MIN_SAMPLES requests is
 * repeated for long enough to get them (up to MAX_SECONDS).
 */
export async function measure(args: LoadArgs, warmupSeconds: number): Promise<LoadResult> {
  if (warmupSeconds > 0) {
    await fire(args, warmupSeconds);
    await waitServerIdle(args.serverPid, 120);
  }
  let seconds = args.seconds;
  for (;;) {
    const cpu = await watchCpu(args.serverPid);
    const r = await fire(args, seconds);
    args.ended?.();
    const used = await cpu();
    await waitServerIdle(args.serverPid, 120);
    if (r.requests.total < MIN_SAMPLES && seconds < MAX_SECONDS) {
      seconds = Math.min(MAX_SECONDS, Math.ceil((seconds * MIN_SAMPLES * 1.2) / Math.max(r.requests.total, 1)));
      continue;
    }
    return {
      rps: r.requests.total / r.duration,
      p50: r.latency.p50,
      p90: r.latency.p90,
      p99: r.latency.p99,
      max: r.latency.max,
      mean: r.latency.average,
      bytesPerSec: r.throughput.average,
      requests: r.requests.total,
      seconds: r.duration,
      non2xx: r.non2xx,
      errors: r.errors,
      timeouts: r.timeouts,
      cpu: used,
    };
  }
}

/** Sequential requests (one at a time) with sub-millisecond timing: the unloaded latency of a path. */
export async function sequentialLatency(send: () => Promise<number>, opts: { requests: number; warmup: number }): Promise<{ p50: number; p90: number; p99: number; mean: number }> {
  for (let i = 0; i < opts.warmup; i++) await send();
  const times: number[] = [];
  for (let i = 0; i < opts.requests; i++) {
    const t0 = performance.now();
    const status = await send();
    times.push(performance.now() - t0);
    if (status < 200 || status > 299) throw new Error(`request answered ${status}`);
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? NaN;
  return { p50: at(0.5), p90: at(0.9), p99: at(0.99), mean: times.reduce((a, b) => a + b, 0) / times.length };
}
