import { FILTER_SORT, FILTER_SORT_QUERY, NOISE_CORES, POPULATE_STAR, log, query } from './common.js';
import { waitForQuiet, watchCpu } from './cpu.js';
import { send } from './http.js';
import { sequentialLatency } from './load.js';
import type { ScalingPoint } from './report.js';

/** The lists timed at each checkpoint: the target's sorted, filtered list, and two for context. */
const LISTS: readonly (readonly [string, string])[] = [
  [FILTER_SORT, FILTER_SORT_QUERY],
  ['list', ''],
  [POPULATE_STAR, query({ populate: '*' })],
];

/**
 * A scaling checkpoint: the first page of each list, one request at a time, with the seeding
 * paused. The seeding server runs with its response cache off, so this times the query itself.
 * Repeated (after a quiet moment) while other processes perturb it.
 */
export async function checkpoint(args: { url: string; token: string; docs: number; serverPid: number; attempts: number }): Promise<ScalingPoint[]> {
  const { url, token, docs } = args;
  const out: ScalingPoint[] = [];
  const at = docs.toLocaleString('en-US');
  for (const [label, q] of LISTS) {
    const path = `/api/recipes${q ? `?${q}` : ''}`;
    const requests = docs >= 50_000 ? 100 : 200;
    let best: { p50: number; p90: number; p99: number; others: number } | null = null;
    for (let i = 1; i <= args.attempts; i++) {
      const cpu = await watchCpu(args.serverPid);
      const lat = await sequentialLatency(async () => (await send(`${url}${path}`, { token })).status, { requests, warmup: 20 });
      const { others } = await cpu();
      if (best === null || others < best.others) best = { ...lat, others };
      if (others <= NOISE_CORES) break;
      if (i < args.attempts) {
        log(`  checkpoint ${at} docs, ${label}: other processes used ${others.toFixed(2)} cores; waiting for a quieter moment (up to 60 s)`);
        await waitForQuiet(args.serverPid, NOISE_CORES, 60);
      }
    }
    if (best === null) continue;
    log(`  checkpoint ${at} docs, ${label}: p50 ${best.p50.toFixed(2)} ms, p99 ${best.p99.toFixed(2)} ms (other processes: ${best.others.toFixed(2)} cores)`);
    out.push({ docs, query: label, p50: best.p50, p90: best.p90, p99: best.p99, othersCores: best.others });
  }
  return out;
}
