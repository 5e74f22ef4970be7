import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { SCHEMAS, log, query } from './common.js';
import { sendJson } from './http.js';
import { measureQuietly, type LoadArgs, type LoadResult } from './load.js';
import type { BenchOptions } from './options.js';
import { seedRecipes, seedReferences } from './seed.js';
import { createToken, startHearth } from './server.js';

/** Scenario name of the pair in the report. */
export const GRAPHQL_LIST = 'GraphQL list, two relation levels';

/** Recipes per page in both requests (REST's and GraphQL's default page size). */
const PAGE_SIZE = 25;

/** The list: recipes with their cuisine and the cuisine's region, a few fields at each level. */
export const GRAPHQL_QUERY = `query { recipes(pagination: { page: 1, pageSize: ${PAGE_SIZE} }) { documentId title prepMinutes cuisine { documentId name region { documentId name } } } }`;

/**
 * The same data through REST: the same fields at each level (REST adds `id`), and no count
 * (`withCount=false`): GraphQL's `recipes` list does not count either, so both do the same reads.
 */
export const REST_PATH = `/api/recipes?${query({
  fields: ['title', 'prepMinutes'],
  populate: { cuisine: { fields: ['name'], populate: { region: { fields: ['name'] } } } },
  pagination: { page: 1, pageSize: PAGE_SIZE, withCount: false },
})}`;

/** One recipe as both answers carry it. */
interface Entry {
  readonly documentId: unknown;
  readonly title: unknown;
  readonly prepMinutes: unknown;
  readonly cuisine: { readonly documentId: unknown; readonly name: unknown; readonly region: { readonly documentId: unknown; readonly name: unknown } | null } | null;
}

type Json = Record<string, unknown>;
const isJson = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const list = (v: unknown, what: string): Json[] => {
  if (!Array.isArray(v) || !v.every(isJson)) throw new Error(`${what} is not a list of objects: ${JSON.stringify(v).slice(0, 300)}`);
  return v;
};

/** The fields compared, the same way from either answer (REST's `id`s left out). */
function entry(v: Json): Entry {
  const c = isJson(v.cuisine) ? v.cuisine : null;
  const r = c && isJson(c.region) ? c.region : null;
  return {
    documentId: v.documentId,
    title: v.title,
    prepMinutes: v.prepMinutes,
    cuisine: c && { documentId: c.documentId, name: c.name, region: r && { documentId: r.documentId, name: r.name } },
  };
}

/** Fetches both answers and fails unless they carry the same recipes, cuisines and regions, in the same order. */
export async function checkSameEntries(url: string, token: string): Promise<{ entries: number; graphqlBytes: number; restBytes: number }> {
  const graphql = await sendJson<Json>(`${url}/graphql`, { method: 'POST', token, json: { query: GRAPHQL_QUERY } }, 200);
  if (graphql.errors !== undefined) throw new Error(`GraphQL answered errors: ${JSON.stringify(graphql.errors).slice(0, 500)}`);
  const rest = await sendJson<Json>(`${url}${REST_PATH}`, { token }, 200);
  const fromGraphql = list(isJson(graphql.data) ? graphql.data.recipes : undefined, 'GraphQL data.recipes').map(entry);
  const fromRest = list(rest.data, 'REST data').map(entry);
  if (fromRest.length === 0) throw new Error('REST answered no recipes');
  if (!fromRest.every((e) => e.cuisine !== null && e.cuisine.region !== null)) throw new Error('some recipes lack a cuisine or region: the two relation levels are not exercised');
  if (!isDeepStrictEqual(fromGraphql, fromRest)) {
    throw new Error(`GraphQL and REST answered different entries:\nGraphQL ${JSON.stringify(fromGraphql).slice(0, 400)}\nREST    ${JSON.stringify(fromRest).slice(0, 400)}`);
  }
  return { entries: fromRest.length, graphqlBytes: JSON.stringify(graphql).length, restBytes: JSON.stringify(rest).length };
}

/** What the pair measured: both loads on one server with the response cache off, and their ratio. */
export interface GraphqlComparison {
  readonly query: string;
  readonly restPath: string;
  readonly entries: number;
  readonly graphqlBytes: number;
  readonly restBytes: number;
  readonly graphql: LoadResult;
  readonly rest: LoadResult;
  /** GraphQL req/s / REST req/s. */
  readonly ratio: number;
}

const perRequestCpu = (r: LoadResult) => (1000 * r.cpu.server) / Math.max(r.rps, 0.001);
const cores = (r: LoadResult) => `${r.cpu.server.toFixed(2)} / ${r.cpu.bench.toFixed(2)} / ${r.cpu.others.toFixed(2)}`;
const line = (r: LoadResult) =>
  `${r.rps.toFixed(0)} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms, server CPU ${perRequestCpu(r).toFixed(2)} ms/request, non-2xx ${r.non2xx}, errors ${r.errors}; cores server / bench / others ${cores(r)}`;

/**
 * Starts `hearth serve` on `dataDir` with the response cache off (every request computed, as the
 * other computed figures), checks that the GraphQL list and its REST twin carry the same entries,
 * then loads each in turn (GraphQL first) and reports both and their ratio.
 */
export async function compareGraphqlRest(args: {
  readonly dataDir: string;
  readonly token: string;
  readonly env: NodeJS.ProcessEnv;
  readonly cpu: number | null;
  readonly options: BenchOptions;
}): Promise<GraphqlComparison> {
  const { options: o, token } = args;
  const server = await startHearth({ dataDir: args.dataDir, schemas: SCHEMAS, env: { ...args.env, HEARTH_RESPONSE_CACHE: 'false' }, cpu: args.cpu });
  try {
    const same = await checkSameEntries(server.url, token);
    log(`- ${GRAPHQL_LIST}: both answers carry the same ${same.entries} recipes, cuisines and regions (GraphQL ${same.graphqlBytes} bytes, REST ${same.restBytes})`);
    const common = { origin: server.url, serverPid: server.pid, headers: { authorization: `Bearer ${token}` }, connections: o.connections, seconds: o.duration };
    const graphqlLoad: LoadArgs = { ...common, paths: ['/graphql'], method: 'POST', bodies: [JSON.stringify({ query: GRAPHQL_QUERY })] };
    const restLoad: LoadArgs = { ...common, paths: [REST_PATH], method: 'GET' };
    log(`- ${GRAPHQL_LIST}: GraphQL, response cache off...`);
    const graphql = await measureQuietly(graphqlLoad, o.warmup, o.attempts, log);
    log(`    ${line(graphql)}`);
    log(`- ${GRAPHQL_LIST}: REST twin, response cache off...`);
    const rest = await measureQuietly(restLoad, o.warmup, o.attempts, log);
    log(`    ${line(rest)}`);
    const ratio = rest.rps > 0 ? graphql.rps / rest.rps : 0;
    log(`    GraphQL / REST: ${(100 * ratio).toFixed(0)}%`);
    return { query: GRAPHQL_QUERY, restPath: REST_PATH, ...same, graphql, rest, ratio };
  } finally {
    await server.stop();
  }
}

/** The report's section: the pair with its ratio, and the two requests. */
export function graphqlMarkdown(c: GraphqlComparison): string[] {
  const row = (name: string, r: LoadResult, bytes: number) =>
    `| ${name} | ${r.rps.toLocaleString('en-US', { maximumFractionDigits: 0 })} | ${r.p50} ms | ${r.p90} ms | ${r.p99} ms | ${r.max} ms | ${perRequestCpu(r).toFixed(2)} ms | ${cores(r)} | ${(bytes / 1024).toFixed(1)} kB | ${r.non2xx} / ${r.errors} |`;
  return [
    '',
    `## ${GRAPHQL_LIST}: GraphQL vs REST (computed)`,
    '',
    `The same ${c.entries} recipes with their cuisine and the cuisine's region, through \`POST /graphql\` and through REST's populate, on a server with \`HEARTH_RESPONSE_CACHE=false\` (every request computed). Before measuring, the bench checks that both answers carry the same entries (the documentId and fields of each recipe, its cuisine and their region, in the same order). **GraphQL / REST: ${(100 * c.ratio).toFixed(0)}%** of REST's requests per second.`,
    '',
    '| Request | req/s | p50 | p90 | p99 | max | server CPU / request | cores: server / bench / others | Body | non-2xx / errors |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    row('GraphQL', c.graphql, c.graphqlBytes),
    row('REST', c.rest, c.restBytes),
    '',
    `- **GraphQL**: \`POST /graphql\` \`${c.query}\``,
    `- **REST**: \`GET ${c.restPath}\``,
  ];
}

/**
 * `npm run bench -- --only graphql`: seeds `o.docs` recipes on a fresh data dir in `work`, then
 * runs the comparison and prints its section (no report file).
 */
export async function graphqlRestOnly(o: BenchOptions, work: string): Promise<number> {
  const dataDir = join(work, 'data');
  await mkdir(dataDir);
  const token = await createToken(dataDir);
  const seeding = await startHearth({ dataDir, schemas: SCHEMAS, env: { HEARTH_RESPONSE_CACHE: 'false' } });
  try {
    log(`seeding ${o.docs} recipes on ${seeding.url} (pid ${seeding.pid})...`);
    const refs = await seedReferences(seeding.url, token);
    await seedRecipes({ url: seeding.url, token, refs, count: o.docs, concurrency: o.seedConcurrency, slugs: o.slugs, checkpoints: [], onCheckpoint: async () => undefined });
  } finally {
    await seeding.stop();
  }
  const comparison = await compareGraphqlRest({ dataDir, token, env: {}, cpu: null, options: o });
  process.stdout.write(`${[`${o.docs} docs, ${o.connections} connections, ${o.warmup} s warm-up + ${o.duration} s per run`, ...graphqlMarkdown(comparison)].join('\n')}\n`);
  return 0;
}
