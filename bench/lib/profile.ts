import { readFile } from 'node:fs/promises';
import { relative } from 'node:path';
import { ROOT } from './server.js';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface HotSpot {
  readonly name: string;
  /** Percent of all sampled time. */
  readonly selfPct: number;
  readonly totalPct: number;
}

export interface ProfileSummary {
  readonly totalMs: number;
  /** Functions by self time. */
  readonly bySelf: HotSpot[];
  /** Functions by inclusive time (each counted once per stack). */
  readonly byTotal: HotSpot[];
  /** Self time grouped by where the code lives (a Hearth file, a package, Node internals, GC). */
  readonly byArea: { area: string; pct: number }[];
}

function where(url: string): string {
  if (url === '') return '';
  const path = url.startsWith('file://') ? decodeURIComponent(url.slice(7)) : url;
  if (path.startsWith('node:')) return path;
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path);
  if (pkg?.[1]) return `${pkg[1]}/${path.slice(path.lastIndexOf('/') + 1)}`;
  const dist = /\/(dist\/server\/.*)$/.exec(path);
  if (dist?.[1]) return dist[1];
  return path.startsWith('/') ? relative(ROOT, path) : path;
}

function area(frame: CallFrame): string {
  const name = frame.functionName;
  if (frame.url === '') {
    if (name === '(garbage collector)' || name === '(program)' || name === '(idle)') return name;
    return name.startsWith('(') ? name : `native: ${name || '(anonymous)'}`;
  }
  const w = where(frame.url);
  if (w.startsWith('node:')) return 'node internals';
  const pkg = /^((?:@[^/]+\/)?[^/]+)\//.exec(w);
  if (w.startsWith('dist/server/')) return `hearth ${w.slice('dist/server/'.length).replace(/\.js$/, '')}`;
  if (frame.url.includes('node_modules') && pkg?.[1]) return `package ${pkg[1]}`;
  return w;
}

const label = (f: CallFrame) => (f.url === '' ? f.functionName || '(anonymous)' : `${f.functionName || '(anonymous)'} ${where(f.url)}:${f.lineNumber + 1}`);

/** Self and inclusive time per function and per code area, from a `--cpu-prof` file. */
export async function summarizeProfile(file: string, top = 25): Promise<ProfileSummary> {
  const profile = JSON.parse(await readFile(file, 'utf8')) as CpuProfile;
  const byId = new Map<number, ProfileNode>();
  const parent = new Map<number, number>();
  for (const node of profile.nodes) {
    byId.set(node.id, node);
    for (const c of node.children ?? []) parent.set(c, node.id);
  }
  const self = new Map<string, number>();
  const total = new Map<string, number>();
  const areas = new Map<string, number>();
  let all = 0;
  profile.samples.forEach((id, i) => {
    const dt = profile.timeDeltas[i] ?? 0;
    const node = byId.get(id);
    if (!node || node.callFrame.functionName === '(idle)') return;
    all += dt;
    const key = label(node.callFrame);
    self.set(key, (self.get(key) ?? 0) + dt);
    const a = area(node.callFrame);
    areas.set(a, (areas.get(a) ?? 0) + dt);
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const frame = byId.get(cur)?.callFrame;
      if (!frame || frame.functionName === '(root)') continue;
      const k = label(frame);
      if (seen.has(k)) continue;
      seen.add(k);
      total.set(k, (total.get(k) ?? 0) + dt);
    }
  });
  const pct = (v: number) => (100 * v) / Math.max(all, 1);
  const spots = (m: Map<string, number>, other: Map<string, number>) =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, v]) => ({ name, selfPct: pct(m === self ? v : (other.get(name) ?? 0)), totalPct: pct(m === total ? v : (other.get(name) ?? 0)) }));
  return {
    totalMs: all / 1000,
    bySelf: spots(self, total),
    byTotal: spots(total, self),
    byArea: [...areas.entries()].sort((a, b) => b[1] - a[1]).slice(0, top).map(([a, v]) => ({ area: a, pct: pct(v) })),
  };
}
