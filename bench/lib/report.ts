import type { CpuUse } from './cpu.js';
import { GRAPHQL_LIST, type GraphqlComparison } from './graphql-rest.js';
import type { ImageBombOutcome } from './upload-images.js';
import type { LoadResult } from './load.js';
import type { Machine } from './machine.js';
import type { BenchOptions } from './options.js';
import type { ProfileSummary } from './profile.js';

export interface ScenarioResult {
  readonly name: string;
  readonly method: string;
  /** The path (first one when requests cycle through several). */
  readonly path: string;
  readonly read: boolean;
  readonly note: string;
  readonly bodyBytes: number | null;
  /** The default configuration (response cache on: repeated GETs are cache hits). */
  readonly hearth: LoadResult;
  readonly ceiling: LoadResult | null;
  /** The same load with HEARTH_RESPONSE_CACHE=false: every request computed (the cost of a miss). */
  readonly noCache: LoadResult | null;
}

/** One statement in the SQL timings of a profile run. */
export interface SqlRow {
  readonly sql: string;
  readonly perRequest: number;
  readonly msPerRequest: number;
  readonly avgMs: number;
  readonly maxMs: number;
  /** EXPLAIN QUERY PLAN, one step per `;`. */
  readonly plan: string;
}

/** A CPU profile of the server under the populate=* list load (with `--profile`). */
export interface ProfileResult {
  readonly label: string;
  /** The raw .cpuprofile (JSON), kept in bench/results/. */
  readonly file: string;
  readonly summary: ProfileSummary;
  readonly rps: number;
  /** The statements of one request by time (a second run with every statement timed), or null. */
  readonly sql: SqlRow[] | null;
  readonly sqlMsPerRequest: number | null;
  /** Wall time per request at the load's throughput (server time per request when it is CPU-bound). */
  readonly wallMsPerRequest: number | null;
}

export interface ScalingPoint {
  readonly docs: number;
  readonly query: string;
  readonly p50: number;
  readonly p90: number;
  readonly p99: number;
  /** Cores used by other processes meanwhile. */
  readonly othersCores: number;
}

export interface ColdStartSet {
  readonly label: string;
  readonly runsMs: number[];
  readonly medianMs: number;
  readonly idleRssMedian: number;
}

export interface UploadFigures {
  readonly sizeMb: number;
  readonly runs: number;
  readonly medianMs: number;
  readonly mbPerSec: number;
  readonly maxRssGrowth: number;
  readonly statuses: number[];
}

export type UploadOutcome =
  | { readonly available: false; readonly status: number }
  | { readonly available: true; readonly small: UploadFigures | null; readonly big: UploadFigures | null; readonly error: string | null };

export interface Target {
  readonly target: string;
  readonly measured: string;
  /** null: not measurable in this run. */
  readonly met: boolean | null;
}

export interface BenchResults {
  readonly startedAt: string;
  readonly finishedAt: string;
  readonly warnings: string[];
  /** UPLOAD_SIZE_LIMIT given to the server (raised for the large upload). */
  readonly uploadLimit: number;
  readonly options: BenchOptions;
  readonly machine: Machine;
  readonly seeding: {
    docs: number;
    seconds: number;
    perSecond: number;
    concurrency: number;
    hearthRows: number | null;
    segments: { from: number; to: number; seconds: number; perSecond: number }[];
    slugs: boolean;
    /** Set when the data of an earlier run was measured again (`--reuse`). */
    reusedFrom: string | null;
  };
  readonly scenarios: ScenarioResult[];
  readonly scaling: ScalingPoint[];
  readonly coldStarts: ColdStartSet[];
  readonly memory: {
    /** The seeding server's RSS when seeding ended (null: not recorded by a reused run). */
    afterSeed: number | null;
    /** The measured server, just started. */
    beforeLoad: number;
    afterLoad: number;
    afterUploads: number | null;
  };
  readonly upload: UploadOutcome;
  /** Decompression-bomb uploads (null: the upload API was not available). */
  readonly imageBombs?: ImageBombOutcome | null;
  readonly targets: Target[];
  readonly profiles: ProfileResult[];
  /** The GraphQL list and its REST twin, computed (null: not run or failed; absent in older reports). */
  readonly graphql?: GraphqlComparison | null;
}

export const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const num = (n: number, digits = 0) => n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
const ms = (n: number) => (n < 10 ? `${n.toFixed(2)} ms` : `${n.toFixed(1)} ms`);
const kb = (n: number | null) => (n === null ? '–' : `${(n / 1024).toFixed(1)} kB`);
/** Markdown-safe text (names contain `*`). */
const esc = (t: string) => t.replace(/\*/g, '\\*');
const mark = (met: boolean | null) => (met === null ? '– (not measured)' : met ? '**met**' : '**not met**');

/** Cores used: server / load generator / other processes. */
const cpu = (c: CpuUse) => `${c.server.toFixed(2)} / ${c.bench.toFixed(2)} / ${c.others.toFixed(2)}`;

/** Hearth / ceiling throughput, when both ran. */
export const ratio = (s: ScenarioResult): number | null => (s.ceiling && s.ceiling.rps > 0 ? s.hearth.rps / s.ceiling.rps : null);

function uploadRows(u: UploadOutcome): string[] {
  if (!u.available) return [`| upload 50 MB | n/a (upload API not available: POST /api/upload answered ${u.status}) |`, '| upload 1 GB | n/a (upload API not available) |'];
  const row = (name: string, f: UploadFigures | null) =>
    f === null
      ? `| ${name} | ${u.error ? `failed: ${u.error}` : 'skipped'} |`
      : `| ${name} | ${f.runs} run(s), median ${num(f.medianMs)} ms (${num(f.mbPerSec, 1)} MB/s), server RSS growth max ${mb(f.maxRssGrowth)}, statuses ${[...new Set(f.statuses)].join('/')} |`;
  return [row('upload 50 MB', u.small), row(`upload ${u.big ? `${u.big.sizeMb} MB` : 'large file'}`, u.big)];
}

function imageBombRows(b: ImageBombOutcome | null | undefined): string[] {
  if (!b) return [];
  const rows = b.runs.map(
    (r) =>
      `| upload ${r.label} (${kb(r.fileBytes)}), ${r.files} at once | ${num(r.ms)} ms, server RSS ${mb(r.rssBefore)} -> peak ${mb(r.rssPeak)}, statuses ${[...new Set(r.statuses)].join('/')}${r.notice ? `; Hearth-Notice: ${r.notice.replace(/^files\[0\] /, '')}` : ''} |`,
  );
  return b.error ? [...rows, `| image bombs | failed: ${b.error} |`] : rows;
}

function profileSection(p: ProfileResult): string[] {
  const lines: string[] = [];
  lines.push('', `## CPU profile: list populate=\\*, ${p.label} (${num(p.rps)} req/s while profiling; ${num(p.summary.totalMs)} ms sampled, idle excluded)`, '');
  lines.push(`Raw profile: \`${p.file.slice(p.file.lastIndexOf('bench/'))}\` (open in Chrome DevTools). The server's own thread; computed answers' SQL runs on read threads (HEARTH_READ_THREADS), profiled apart.`, '');
  lines.push('Self time by area:', '', '| Area | Self % |', '|---|---:|');
  for (const a of p.summary.byArea.slice(0, 15)) lines.push(`| ${a.area} | ${a.pct.toFixed(1)}% |`);
  lines.push('', 'Top functions by self time:', '', '| Function | Self % | Total % |', '|---|---:|---:|');
  for (const f of p.summary.bySelf.slice(0, 20)) lines.push(`| \`${f.name}\` | ${f.selfPct.toFixed(1)}% | ${f.totalPct.toFixed(1)}% |`);
  lines.push('', 'Top functions by inclusive time:', '', '| Function | Total % | Self % |', '|---|---:|---:|');
  for (const f of p.summary.byTotal.slice(0, 25)) lines.push(`| \`${f.name}\` | ${f.totalPct.toFixed(1)}% | ${f.selfPct.toFixed(1)}% |`);
  if (p.sql && p.sqlMsPerRequest !== null && p.wallMsPerRequest !== null) {
    lines.push(
      '',
      `SQL statements of one request (a second run with every better-sqlite3 call timed): ${p.sqlMsPerRequest.toFixed(2)} ms of SQL per request, of ${p.wallMsPerRequest.toFixed(2)} ms of server time per request.`,
      '',
      '| Statement (select list elided) | SQLite plan | Calls / request | ms / request | avg ms | max ms |',
      '|---|---|---:|---:|---:|---:|',
    );
    for (const q of p.sql) {
      const text = q.sql
        .replace(/^select (.{60,}?) from /, 'select … from ')
        .replace(/(, \?)+/g, ', …')
        .replace(/\|/g, '\\|');
      lines.push(`| \`${text}\` | ${q.plan.replace(/\|/g, '\\|')} | ${q.perRequest.toFixed(1)} | ${q.msPerRequest.toFixed(3)} | ${q.avgMs.toFixed(3)} | ${q.maxMs.toFixed(1)} |`);
    }
  }
  return lines;
}

/** The Markdown report (bench/results/latest.md). */
export function toMarkdown(r: BenchResults): string {
  const m = r.machine;
  const o = r.options;
  const lines: string[] = [];
  lines.push('# Hearth benchmark', '');
  lines.push(`Run ${r.startedAt} – ${r.finishedAt} with \`npm run bench -- --docs ${o.docs}\` (${o.connections} connections, ${o.warmup} s warm-up + ${o.duration} s per run${o.pin ? ', server pinned to CPU 1, load generator to CPU 0' : ''}).`, '');
  lines.push(`**Machine:** ${m.cpu}, ${m.cores} cores, ${m.memoryGb} GB RAM, ${m.os}, Node ${m.node}. Hearth ${m.commit ?? '(unknown commit)'}, dist/ built ${m.distBuiltAt ?? '?'}.`, '');
  lines.push(
    `Server: \`node bin/hearth.js serve\` (a snapshot of dist/ taken at the start) as a child process, \`UPLOAD_SIZE_LIMIT=${r.uploadLimit}\`, read threads as by default (two on two cores or more); seeding and its scaling checkpoints on a server of their own with \`HEARTH_RESPONSE_CACHE=false\` (the checkpoints time the queries, not the cache); load: autocannon in the bench process; ceiling: a plain \`node:http\` process answering the exact bytes Hearth returned for the same URL. ` +
      (r.seeding.reusedFrom ? `Data reused from ${r.seeding.reusedFrom} (\`--reuse\`): no seeding in this run; seeding figures and scaling checkpoints are from that run. ` : '') +
      `Seeded ${num(r.seeding.docs)} recipes through \`POST /api/recipes\` in ${num(r.seeding.seconds, 1)} s (${num(r.seeding.perSecond)}/s, ${r.seeding.concurrency} in flight). ` +
      'Recipe: D&P on; manyToOne cuisine (-> manyToOne region), manyToMany tags (D&P off), component `recipe.nutrition`, repeatable `recipe.ingredient`, dynamic zone (`recipe.step`, `recipe.tip`), `blocks` body' +
      (r.seeding.slugs ? ', `uid` slug.' : '; the `uid` slug is not sent (see `--slugs`: its uniqueness check scans the table, which makes seeding quadratic).'),
    '',
  );
  for (const w of r.warnings) lines.push(`> **Warning:** ${w}`, '');
  lines.push('## Load scenarios', '');
  lines.push('Default configuration (the response cache is on, so a repeated GET is answered from it):', '');
  lines.push('| Scenario | Hearth req/s | p50 | p90 | p99 | max | Ceiling req/s | Hearth / ceiling | Body | non-2xx / errors | CPU, Hearth run | CPU, ceiling run |');
  lines.push('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const s of r.scenarios) {
    const h = s.hearth;
    const q = ratio(s);
    lines.push(
      `| ${esc(s.name)} | ${num(h.rps)} | ${h.p50} ms | ${h.p90} ms | ${h.p99} ms | ${h.max} ms | ${s.ceiling ? num(s.ceiling.rps) : '–'} | ${q === null ? '–' : `${(q * 100).toFixed(0)}%`} | ${kb(s.bodyBytes)} | ${h.non2xx} / ${h.errors} | ${cpu(h.cpu)} | ${s.ceiling ? cpu(s.ceiling.cpu) : '–'} |`,
    );
  }
  const uncached = r.scenarios.filter((s) => s.noCache !== null);
  const g = r.graphql ?? null;
  if (uncached.length || g) {
    lines.push('', 'The same read scenarios with `HEARTH_RESPONSE_CACHE=false` (every request computed: what each request costs after a write has dropped the cache):', '');
    lines.push('| Scenario | req/s | p50 | p90 | p99 | max | / ceiling | requests (s) | non-2xx / errors | CPU |');
    lines.push('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
    for (const s of uncached) {
      const n = s.noCache;
      if (!n) continue;
      const q = s.ceiling && s.ceiling.rps > 0 ? `${((100 * n.rps) / s.ceiling.rps).toFixed(1)}%` : '–';
      lines.push(`| ${esc(s.name)} | ${num(n.rps, n.rps < 100 ? 1 : 0)} | ${n.p50} ms | ${n.p90} ms | ${n.p99} ms | ${n.max} ms | ${q} | ${num(n.requests)} (${num(n.seconds, 0)} s) | ${n.non2xx} / ${n.errors} | ${cpu(n.cpu)} |`);
    }
    if (g) {
      const row = (name: string, n: LoadResult) =>
        `| ${name} | ${num(n.rps, n.rps < 100 ? 1 : 0)} | ${n.p50} ms | ${n.p90} ms | ${n.p99} ms | ${n.max} ms | – | ${num(n.requests)} (${num(n.seconds, 0)} s) | ${n.non2xx} / ${n.errors} | ${cpu(n.cpu)} |`;
      lines.push(row(`${GRAPHQL_LIST}, GraphQL`, g.graphql), row(`${GRAPHQL_LIST}, REST twin`, g.rest));
      lines.push('', `**GraphQL / REST: ${(100 * g.ratio).toFixed(0)}%** of REST's requests per second for the same ${g.entries} entries (the bench checks both answers carry them before measuring).`);
    }
  }
  lines.push('', 'CPU columns: cores used during the measured run by the server / the load generator (autocannon, in the bench process) / every other process on the machine. A run that completes fewer than 100 requests is repeated for longer (up to 60 s).', '', 'Requests:', '');
  for (const s of r.scenarios) lines.push(`- **${esc(s.name)}**: \`${s.method} ${s.path}\`${s.note ? ` — ${s.note}` : ''}`);
  if (g) {
    lines.push(`- **${GRAPHQL_LIST}, GraphQL**: \`POST /graphql\` with \`${g.query}\` — recipes with their cuisine and the cuisine's region, computed (response cache off)`);
    lines.push(`- **${GRAPHQL_LIST}, REST twin**: \`GET ${g.restPath}\` — the same fields at each level, without the count (GraphQL's list does not count either), computed`);
  }
  lines.push('', '## Start, memory, uploads, scaling', '');
  lines.push('| Measurement | Value |', '|---|---|');
  for (const c of r.coldStarts) {
    lines.push(`| cold start to first \`/_health\` 204, ${c.label} | median ${num(c.medianMs)} ms (runs: ${c.runsMs.map((x) => num(x)).join(', ')}) |`);
    lines.push(`| idle RSS 1 s after start, ${c.label} | ${mb(c.idleRssMedian)} (median) |`);
  }
  for (const g of r.seeding.segments) lines.push(`| seeding rate, recipes ${num(g.from + 1)}-${num(g.to)} | ${num(g.perSecond)} documents/s (${num(g.seconds, 1)} s) |`);
  if (r.memory.afterSeed !== null) lines.push(`| RSS of the seeding server after seeding | ${mb(r.memory.afterSeed)} |`);
  lines.push(`| RSS of the measured server, just started (after one count request) | ${mb(r.memory.beforeLoad)} |`);
  lines.push(`| RSS after the load scenarios | ${mb(r.memory.afterLoad)} |`);
  if (r.memory.afterUploads !== null) lines.push(`| RSS after the uploads | ${mb(r.memory.afterUploads)} |`);
  lines.push(...uploadRows(r.upload));
  lines.push(...imageBombRows(r.imageBombs));
  for (const p of r.scaling) {
    lines.push(`| first page at ${num(p.docs)} docs, one request at a time: ${esc(p.query)} | p50 ${ms(p.p50)}, p90 ${ms(p.p90)}, p99 ${ms(p.p99)}${p.othersCores > 0.2 ? ` (other processes used ${p.othersCores.toFixed(2)} cores)` : ''} |`);
  }
  lines.push('', '## Targets', '');
  lines.push('| Target | Measured | Status |', '|---|---|---|');
  for (const t of r.targets) lines.push(`| ${esc(t.target)} | ${esc(t.measured)} | ${mark(t.met)} |`);
  for (const p of r.profiles) lines.push(...profileSection(p));
  lines.push('');
  return lines.join('\n');
}
