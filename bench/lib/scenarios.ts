import type { Ceiling } from './ceiling.js';
import { DEEP_POPULATE, FILTER_SORT, FILTER_SORT_QUERY, MARKETING_PAGE, POPULATE_STAR, log, query } from './common.js';
import { FILTER_CUISINE } from './data.js';
import { send } from './http.js';
import { measureQuietly, type LoadResult } from './load.js';
import type { BenchOptions } from './options.js';
import { pagePath } from './pages.js';
import type { ScenarioResult } from './report.js';
import type { HearthProcess } from './server.js';

/** One load scenario: requests cycle through `paths` (and `bodies`). */
export interface Scenario {
  readonly name: string;
  readonly method: 'GET' | 'PUT';
  readonly paths: string[];
  readonly bodies?: string[];
  readonly read: boolean;
  readonly note: string;
}

/** The scenarios of issues 8 and 17, for `docs` seeded recipes whose documentIds are `ids` and the pages whose slugs are `pages`. */
export function scenarios(docs: number, ids: readonly string[], pages: readonly string[]): Scenario[] {
  const sample = ids.filter((_, i) => i % Math.max(1, Math.floor(ids.length / 200)) === 0).slice(0, 200);
  const deepPage = Math.max(1, Math.floor(docs / 25));
  const deep = {
    cuisine: { populate: { region: true } },
    tags: true,
    nutrition: true,
    ingredients: true,
    sections: { on: { 'recipe.step': true, 'recipe.tip': true } },
  };
  return [
    { name: 'list', method: 'GET', paths: ['/api/recipes'], read: true, note: 'first page, 25 documents, scalar fields' },
    { name: POPULATE_STAR, method: 'GET', paths: [`/api/recipes?${query({ populate: '*' })}`], read: true, note: 'one level: cuisine, tags, nutrition, ingredients, sections' },
    { name: DEEP_POPULATE, method: 'GET', paths: [`/api/recipes?${query({ populate: deep })}`], read: true, note: 'two relation levels (cuisine -> region) plus components and dynamic-zone fragments' },
    { name: FILTER_SORT, method: 'GET', paths: [`/api/recipes?${FILTER_SORT_QUERY}`], read: true, note: 'two scalar filters, sort on an unindexed decimal' },
    {
      name: 'filter through a relation',
      method: 'GET',
      paths: [`/api/recipes?${query({ filters: { cuisine: { name: { $eq: FILTER_CUISINE } } } })}`],
      read: true,
      note: `recipes whose cuisine is ${FILTER_CUISINE} (1 in 24)`,
    },
    {
      name: 'get one, populate=*',
      method: 'GET',
      paths: sample.map((id) => `/api/recipes/${id}?${query({ populate: '*' })}`),
      read: true,
      note: `cycles through ${sample.length} documentIds; the ceiling serves the first one's bytes`,
    },
    {
      name: 'deep page',
      method: 'GET',
      paths: [`/api/recipes?${query({ pagination: { page: deepPage } })}`],
      read: true,
      note: `page ${deepPage} at the default page size of 25 (offset ${(deepPage - 1) * 25})`,
    },
    ...(pages.length === 0
      ? []
      : [
          {
            name: MARKETING_PAGE,
            method: 'GET' as const,
            paths: pages.map(pagePath),
            read: true,
            note: `one page by slug (cycling through ${pages.length}): a dynamic zone of 7 sections of 6 kinds, every one populated with \`on\` fragments, down to recipe -> cuisine -> region (five levels below the page) and media at three depths`,
          },
        ]),
    {
      name: 'update',
      method: 'PUT',
      paths: sample.map((id) => `/api/recipes/${id}`),
      bodies: sample.map((_, i) => JSON.stringify({ data: { title: `Updated recipe ${i}`, prepMinutes: 10 + (i % 50) } })),
      read: false,
      note: `PUT of two scalar fields, cycling through ${sample.length} documents (a draft and a published row each)`,
    },
  ];
}

const cpuText = (r: LoadResult) => `CPU: server ${r.cpu.server.toFixed(2)}, bench ${r.cpu.bench.toFixed(2)}, others ${r.cpu.others.toFixed(2)}`;

/** The load of a scenario against one Hearth process. */
export async function loadHearth(s: Scenario, hearth: HearthProcess, token: string, o: BenchOptions, ended?: () => void): Promise<LoadResult> {
  const load = {
    ...(ended ? { ended } : {}),
    origin: hearth.url,
    serverPid: hearth.pid,
    paths: s.paths,
    method: s.method,
    headers: { authorization: `Bearer ${token}` },
    connections: o.connections,
    seconds: o.duration,
    ...(s.bodies ? { bodies: s.bodies } : {}),
  };
  const r = await measureQuietly(load, o.warmup, o.attempts, log);
  log(`    ${r.rps.toFixed(0)} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms, non-2xx ${r.non2xx}, errors ${r.errors}; ${cpuText(r)}`);
  return r;
}

/** A scenario against Hearth, then (read scenarios) against the ceiling serving the bytes Hearth answered. */
export async function runScenario(s: Scenario, hearth: HearthProcess, ceiling: Ceiling, token: string, o: BenchOptions): Promise<ScenarioResult> {
  const [first] = s.paths;
  if (first === undefined) throw new Error(`scenario ${s.name} has no path`);
  let captured: { body: Buffer; contentType: string } | null = null;
  if (s.read) {
    const res = await send(`${hearth.url}${first}`, { token });
    if (res.status !== 200) throw new Error(`${s.name}: GET ${first} answered ${res.status}: ${res.body.toString('utf8').slice(0, 300)}`);
    captured = { body: res.body, contentType: String(res.headers['content-type'] ?? 'application/json; charset=utf-8') };
  }
  log(`- ${s.name}: Hearth...`);
  const h = await loadHearth(s, hearth, token, o);
  let c: LoadResult | null = null;
  if (captured) {
    await ceiling.set(first, captured.body, captured.contentType);
    log(`  ${s.name}: ceiling...`);
    const load = { origin: ceiling.origin, serverPid: ceiling.pid, paths: [first], method: 'GET' as const, headers: { authorization: `Bearer ${token}` }, connections: o.connections, seconds: o.duration };
    c = await measureQuietly(load, o.warmup, o.attempts, log);
    log(`    ${c.rps.toFixed(0)} req/s (Hearth at ${((100 * h.rps) / c.rps).toFixed(0)}%); ${cpuText(c)}`);
  }
  return { name: s.name, method: s.method, path: first, read: s.read, note: s.note, bodyBytes: captured?.body.length ?? null, hearth: h, ceiling: c, noCache: null };
}
