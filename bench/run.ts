/**
 * `npm run bench`: seeds recipe-like documents through Hearth's HTTP API, then measures the content
 * API with autocannon against a separate `hearth serve` process, each read scenario also against a
 * plain node:http "ceiling" that answers the same bytes; plus cold start, RSS and uploads.
 * Writes bench/results/latest.md (and latest.json, git-ignored) and prints the Markdown.
 * See bench/README.md.
 */
import { execFileSync } from 'node:child_process';
import { access, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startCeiling, type Ceiling } from './lib/ceiling.js';
import { checkpoint } from './lib/checkpoints.js';
import { coldStarts } from './lib/cold-start.js';
import { MiB, NOISE_CORES, POPULATE_STAR, RESULTS, SCHEMAS, log, messageOf, query } from './lib/common.js';
import { sendJson } from './lib/http.js';
import { GRAPHQL_LIST, compareGraphqlRest, graphqlRestOnly } from './lib/graphql-rest.js';
import { describeMachine } from './lib/machine.js';
import { OptionsError, USAGE, readOptions, type BenchOptions } from './lib/options.js';
import { PAGE_COUNT, seedPages } from './lib/pages.js';
import { runPostgresTeam, teamMarkdown } from './lib/postgres-team.js';
import { profileRun } from './lib/profile-run.js';
import { mb, toMarkdown, type BenchResults, type ProfileResult, type ScalingPoint, type ScenarioResult } from './lib/report.js';
import { loadHearth, runScenario, scenarios } from './lib/scenarios.js';
import { seedRecipes, seedReferences } from './lib/seed.js';
import { ROOT, createToken, memoryOf, snapshotHearth, startHearth, stopAllChildren, type HearthProcess } from './lib/server.js';
import { targets } from './lib/targets.js';
import { WEBHOOK_UPDATES, WEBHOOK_UPDATES_DOWN, updatesOnly, updatesWithWebhooks } from './lib/webhook-updates.js';
import { runImageBombs } from './lib/upload-images.js';
import { runUploads } from './lib/upload.js';

/** What a `--keep` run leaves next to its data dir for `--reuse`. */
const SEED_FILE = 'seed.json';
interface SavedSeed {
  readonly docs: number;
  readonly seededAt: string;
  readonly seconds: number;
  readonly segments: { from: number; to: number; seconds: number; perSecond: number }[];
  readonly concurrency: number;
  readonly slugs: boolean;
  /** RSS of the seeding server when seeding ended (bytes). */
  readonly rssAfterSeed?: number;
  /** Scaling checkpoints measured while seeding. */
  readonly scaling: ScalingPoint[];
  readonly documentIds: string[];
  /** Slugs of the marketing pages (absent in work dirs kept before they were added). */
  readonly pages?: string[];
}

const CHECKPOINTS = [1000, 10_000, 100_000];
const CACHE_OFF = { HEARTH_RESPONSE_CACHE: 'false' };

/** Seeds `o.docs` recipes on a server of its own (response cache off: the checkpoints time queries). */
async function seed(o: BenchOptions, dataDir: string, token: string, env: NodeJS.ProcessEnv, cpu: number | null, work: string): Promise<SavedSeed> {
  const server = await startHearth({ dataDir, schemas: SCHEMAS, env: { ...env, ...CACHE_OFF }, cpu });
  try {
    log(`seeding server on ${server.url} (pid ${server.pid}, response cache off)...`);
    const { url, pid } = server;
    const refs = await seedReferences(url, token);
    const scaling: ScalingPoint[] = [];
    const seeded = await seedRecipes({
      url,
      token,
      refs,
      count: o.docs,
      concurrency: o.seedConcurrency,
      slugs: o.slugs,
      checkpoints: CHECKPOINTS.filter((c) => c <= o.docs),
      onCheckpoint: async (n) => {
        scaling.push(...(await checkpoint({ url, token, docs: n, serverPid: pid, attempts: o.attempts })));
      },
    });
    if (!CHECKPOINTS.includes(o.docs)) scaling.push(...(await checkpoint({ url, token, docs: o.docs, serverPid: pid, attempts: o.attempts })));
    const rssAfterSeed = (await memoryOf(pid)).rss;
    log(`seeding ${PAGE_COUNT} marketing pages (and their images)...`);
    const pages = await seedPages({ url, token, work, recipes: seeded.documentIds });
    return { docs: o.docs, seededAt: new Date().toISOString(), seconds: seeded.seconds, segments: seeded.segments, concurrency: o.seedConcurrency, slugs: o.slugs, rssAfterSeed, scaling, documentIds: seeded.documentIds, pages };
  } finally {
    await server.stop();
  }
}

/** Every read scenario again on a server with the response cache off. */
async function uncachedRuns(results: ScenarioResult[], o: BenchOptions, dataDir: string, token: string, env: NodeJS.ProcessEnv, cpu: number | null, all: ReturnType<typeof scenarios>): Promise<ScenarioResult[]> {
  const server = await startHearth({ dataDir, schemas: SCHEMAS, env: { ...env, ...CACHE_OFF }, cpu });
  try {
    const out: ScenarioResult[] = [];
    for (const r of results) {
      const s = all.find((x) => x.name === r.name);
      if (!r.read || !s) {
        out.push(r);
        continue;
      }
      log(`- ${s.name}: Hearth, response cache off...`);
      out.push({ ...r, noCache: await loadHearth(s, server, token, o) });
    }
    return out;
  } finally {
    await server.stop();
  }
}

async function loadReused(dir: string): Promise<{ dir: string; seed: SavedSeed }> {
  const seedFile = JSON.parse(await readFile(join(dir, SEED_FILE), 'utf8')) as SavedSeed;
  await access(join(dir, 'data', 'hearth.db'));
  return { dir, seed: seedFile };
}

async function main(): Promise<number> {
  let options: BenchOptions | null;
  try {
    options = readOptions(process.argv.slice(2));
  } catch (err) {
    if (!(err instanceof OptionsError)) throw err;
    process.stderr.write(`bench: ${err.message}\n\n${USAGE}`);
    return 2;
  }
  if (options === null) {
    process.stdout.write(USAGE);
    return 0;
  }
  let reused: { dir: string; seed: SavedSeed } | null = null;
  if (options.reuse !== null) {
    try {
      reused = await loadReused(resolve(options.reuse));
    } catch {
      process.stderr.write(`bench: ${options.reuse} is not a work dir kept by \`npm run bench -- --keep\` (needs ${SEED_FILE} and data/hearth.db)\n`);
      return 2;
    }
  }
  const o: BenchOptions = reused ? { ...options, docs: reused.seed.docs, slugs: reused.seed.slugs } : options;
  try {
    await access(resolve(ROOT, 'dist/server/cli.js'));
  } catch {
    process.stderr.write('bench: dist/ is missing; run `npm run build` first\n');
    return 1;
  }
  const startedAt = new Date().toISOString();
  const machine = await describeMachine();
  const cpu = o.pin && machine.cores >= 2 ? 1 : null;
  if (cpu !== null) execFileSync('taskset', ['-a', '-pc', '0', String(process.pid)], { stdio: 'ignore' });
  log(`Hearth bench: ${o.docs.toLocaleString('en-US')} docs on ${machine.cpu} (${machine.cores} cores), Node ${machine.node}`);
  const work = await mkdtemp(join(tmpdir(), 'hearth-bench-'));
  if (!o.keep) scratch.add(work);
  await mkdir(RESULTS, { recursive: true });
  if (o.graphql) return graphqlOnly(o, work);
  if (o.postgres) return postgresOnly(o, work);
  if (o.only === 'update') return updateOnly(o, work);
  // The limit is raised for the run so the large upload is accepted.
  const env: NodeJS.ProcessEnv = { UPLOAD_SIZE_LIMIT: String(Math.max(209_715_200, (o.bigUploadMb + 64) * MiB)) };
  const warnings: string[] = [];
  const attempt = async <T>(what: string, fn: () => Promise<T>): Promise<T | null> => {
    try {
      return await fn();
    } catch (err) {
      log(`${what} failed: ${messageOf(err)}`);
      warnings.push(`${what} failed: ${messageOf(err)}`);
      return null;
    }
  };
  let hearth: HearthProcess | null = null;
  let ceiling: Ceiling | null = null;
  try {
    const snapshot = await snapshotHearth(work, log);
    log(`running a snapshot of dist/ (${snapshot}), so a rebuild during the run changes nothing`);
    let fresh = 0;
    const freshStarts = await coldStarts('empty data dir', () => mkdtemp(join(work, `fresh-${++fresh}-`)), o.coldStarts, env, cpu);

    const dataDir = reused ? join(reused.dir, 'data') : join(work, 'data');
    if (!reused) await mkdir(dataDir);
    const token = await createToken(dataDir);
    const saved = reused ? reused.seed : await seed(o, dataDir, token, env, cpu, work);
    if (!reused && o.keep) await writeFile(join(work, SEED_FILE), JSON.stringify(saved));

    hearth = await startHearth({ dataDir, schemas: SCHEMAS, env, cpu });
    log(`Hearth listening on ${hearth.url} (pid ${hearth.pid}, default configuration)${reused ? `; reusing the data seeded ${saved.seededAt}` : ''}`);
    const count = await sendJson<{ meta: { pagination: { total: number } } }>(`${hearth.url}/api/recipes?${query({ pagination: { pageSize: 1 } })}`, { token }, 200);
    const beforeLoad = (await memoryOf(hearth.pid)).rss;
    log(`Hearth reports ${count.meta.pagination.total} recipes; RSS ${mb(beforeLoad)}`);

    ceiling = await startCeiling(work, cpu);
    const all = scenarios(o.docs, saved.documentIds, saved.pages ?? []);
    let results: ScenarioResult[] = [];
    for (const s of all) results.push(await runScenario(s, hearth, ceiling, token, o));
    const afterLoad = (await memoryOf(hearth.pid)).rss;
    log(`RSS after load: ${mb(afterLoad)}`);
    await ceiling.stop();
    ceiling = null;
    results = (await attempt('the runs with the response cache off', () => uncachedRuns(results, o, dataDir, token, env, cpu, all))) ?? results;
    const graphql = await attempt(`the scenario ${GRAPHQL_LIST}`, () => compareGraphqlRest({ dataDir, token, env, cpu, options: o }));

    const upload = await runUploads(hearth, token, o.bigUploadMb);
    const imageBombs = upload.available ? await runImageBombs(hearth, token, work) : null;
    const afterUploads = upload.available ? (await memoryOf(hearth.pid)).rss : null;
    // Last on this server: its deliveries are waited for, and nothing measured after runs beside them.
    const update = all.find((s) => s.name === 'update');
    const running = hearth;
    const down = update ? await attempt(WEBHOOK_UPDATES_DOWN, () => updatesWithWebhooks(update, running, dataDir, token, o, true)) : null;
    if (down) results.push(down);
    const hooked = update ? await attempt(WEBHOOK_UPDATES, () => updatesWithWebhooks(update, running, dataDir, token, o)) : null;
    if (hooked) results.push(hooked);
    await hearth.stop();
    hearth = null;

    const seededStarts = await attempt('cold starts on the seeded data dir', () => coldStarts(`${o.docs.toLocaleString('en-US')} docs`, async () => dataDir, o.coldStarts, env, cpu));
    const profiles: ProfileResult[] = [];
    if (o.profile) {
      const path = results.find((s) => s.name === POPULATE_STAR)?.path ?? '/api/recipes?populate=*';
      const common = { dataDir, token, env, options: o, work, cpu, path };
      const hits = await attempt('profiling (cache on)', () => profileRun({ ...common, label: 'default configuration (cache hits)', cache: true, sqlTrace: false, fileName: 'profile-populate-star-cached.cpuprofile.json' }));
      if (hits) profiles.push(hits);
      const misses = await attempt('profiling (cache off)', () => profileRun({ ...common, label: 'response cache off (every request computed)', cache: false, sqlTrace: true, fileName: 'profile-populate-star-uncached.cpuprofile.json' }));
      if (misses) profiles.push(misses);
    }

    const distNow = (await describeMachine()).distBuiltAt;
    if (distNow !== machine.distBuiltAt) warnings.push(`dist/ was rebuilt during the run (${machine.distBuiltAt ?? '?'} -> ${distNow ?? '?'}); the bench ran the snapshot it took at the start`);
    if (results.some((s) => s.hearth.non2xx > 0 || s.hearth.errors > 0 || (s.noCache?.non2xx ?? 0) > 0)) warnings.push('some load runs had non-2xx answers or connection errors (see the tables)');
    const noisy = results.filter((s) => [s.hearth, s.ceiling, s.noCache].some((x) => (x?.cpu.others ?? 0) > NOISE_CORES)).map((s) => s.name);
    if (noisy.length) warnings.push(`other processes used more than ${NOISE_CORES} cores during: ${noisy.join(', ')} even after ${o.attempts} attempts (those figures are perturbed)`);
    const partial = {
      startedAt,
      warnings,
      uploadLimit: Number(env.UPLOAD_SIZE_LIMIT),
      options: o,
      machine,
      seeding: {
        docs: o.docs,
        seconds: saved.seconds,
        perSecond: o.docs / saved.seconds,
        concurrency: saved.concurrency,
        hearthRows: count.meta.pagination.total,
        segments: saved.segments,
        slugs: saved.slugs,
        reusedFrom: reused ? `${reused.dir} (seeded ${saved.seededAt})` : null,
      },
      scenarios: results,
      scaling: saved.scaling,
      coldStarts: seededStarts ? [freshStarts, seededStarts] : [freshStarts],
      memory: { afterSeed: saved.rssAfterSeed ?? null, beforeLoad, afterLoad, afterUploads },
      upload,
      imageBombs,
      profiles,
      graphql,
    };
    const report: BenchResults = { ...partial, targets: targets(partial), finishedAt: new Date().toISOString() };
    const markdown = toMarkdown(report);
    await writeFile(join(RESULTS, 'latest.md'), markdown);
    await writeFile(join(RESULTS, 'latest.json'), `${JSON.stringify(report, null, 2)}\n`);
    process.stdout.write(`${markdown}\n`);
    log(`written: ${join(RESULTS, 'latest.md')} and latest.json`);
    return 0;
  } finally {
    if (ceiling) await ceiling.stop();
    if (hearth) {
      const stderr = hearth.stderr();
      await hearth.stop();
      if (stderr.trim()) log(`Hearth stderr (last lines):\n${stderr.split('\n').slice(-30).join('\n')}`);
    }
    if (o.keep) log(`kept ${work}${reused ? ` (the data stays in ${reused.dir})` : ''}`);
    else await rm(work, { recursive: true, force: true });
  }
}

/** `--graphql`: the GraphQL list and its REST twin alone, on a fresh data dir, printed. */
async function graphqlOnly(o: BenchOptions, work: string): Promise<number> {
  try {
    await snapshotHearth(work, log);
    return await graphqlRestOnly(o, work);
  } finally {
    if (o.keep) log(`kept ${work}`);
    else await rm(work, { recursive: true, force: true });
  }
}

/** `--postgres`: the team scenario alone, written to bench/results/postgres-latest.md. */
async function postgresOnly(o: BenchOptions, work: string): Promise<number> {
  try {
    await snapshotHearth(work, log);
    const result = await runPostgresTeam(o, work, scratch);
    const markdown = teamMarkdown(result, o);
    await writeFile(join(RESULTS, 'postgres-latest.md'), markdown);
    process.stdout.write(`${markdown}\n`);
    log(`written: ${join(RESULTS, 'postgres-latest.md')}`);
    return result.stale === 0 ? 0 : 1;
  } finally {
    if (o.keep) log(`kept ${work}`);
    else await rm(work, { recursive: true, force: true });
  }
}

/** `--only update`: the update scenario with and without webhooks (bench/lib/webhook-updates.ts), printed. */
async function updateOnly(o: BenchOptions, work: string): Promise<number> {
  try {
    await snapshotHearth(work, log);
    return await updatesOnly(o, work, {});
  } finally {
    if (o.keep) log(`kept ${work}`);
    else await rm(work, { recursive: true, force: true });
  }
}

/** Temporary directories to remove if the run is interrupted. */
const scratch = new Set<string>();
let interrupted = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (interrupted) return;
    interrupted = true;
    log(`\n${signal}: stopping the servers this bench started...`);
    void stopAllChildren()
      .then(() => Promise.all([...scratch].map((d) => rm(d, { recursive: true, force: true }))))
      .finally(() => process.exit(130));
  });
}

process.exitCode = await main();
