/** Command-line options of `npm run bench`; every option also has an environment variable. */
export interface BenchOptions {
  /** Recipes to seed (1 .. 100,000). */
  readonly docs: number;
  /** Seconds of measured load per scenario (after a warm-up). */
  readonly duration: number;
  /** Seconds of discarded warm-up load before each measured run. */
  readonly warmup: number;
  /** Concurrent connections of the load generator. */
  readonly connections: number;
  /** Load runs per scenario at most, repeated while other processes perturb them. */
  readonly attempts: number;
  /**
   * Whether seeded recipes carry their `uid` slug. Hearth checks a uid's uniqueness with a query
   * that scans the table, so with slugs seeding is quadratic: `auto` sends them up to 10,000 docs.
   */
  readonly slugs: boolean;
  /** Seeding requests in flight. */
  readonly seedConcurrency: number;
  /** Cold starts measured per data directory (the median is reported). */
  readonly coldStarts: number;
  /** Size in MB of the large upload (0 skips it). */
  readonly bigUploadMb: number;
  /** Writes a CPU profile of the server under the `populate=*` list load. */
  readonly profile: boolean;
  /** Runs only the GraphQL list and its REST twin (bench/lib/graphql-rest.ts) on a fresh data dir instead of the whole bench. */
  readonly graphql: boolean;
  /** Pins the server to CPU 1 and the load generator to CPU 0 (needs taskset and 2+ cores). */
  readonly pin: boolean;
  /** Keeps the temporary data directories. */
  readonly keep: boolean;
  /** A work dir kept by an earlier `--keep` run: its seeded data is measured again (no seeding). */
  readonly reuse: string | null;
  /** Runs only the PostgreSQL two-instance scenario (bench/lib/postgres-team.ts) instead of the SQLite bench. */
  readonly postgres: boolean;
  /** Runs only this scenario family instead of the whole bench (`update`: updates with and without webhooks, interleaved). */
  readonly only: 'update' | null;
}

export const USAGE = `Usage: npm run bench -- [options]

  --docs N              recipes to seed, up to 100000        (HEARTH_BENCH_DOCS, default 2000)
  --duration S          measured seconds per scenario        (HEARTH_BENCH_DURATION, default 8)
  --warmup S            warm-up seconds per scenario         (HEARTH_BENCH_WARMUP, default 2)
  --connections C       load-generator connections           (HEARTH_BENCH_CONNECTIONS, default 16)
  --attempts K          tries per load run while other processes use > 0.2 cores (HEARTH_BENCH_ATTEMPTS, default 3)
  --slugs auto|on|off   seed the uid slug (auto: up to 10,000 docs) (HEARTH_BENCH_SLUGS, default auto)
  --seed-concurrency K  seeding requests in flight           (HEARTH_BENCH_SEED_CONCURRENCY, default 8)
  --cold-starts K       cold starts per data dir (median)    (HEARTH_BENCH_COLD_STARTS, default 5)
  --big-upload-mb MB    size of the large upload, 0 = skip   (HEARTH_BENCH_BIG_UPLOAD_MB, default 1024)
  --profile             CPU-profile the server under the populate=* load (HEARTH_BENCH_PROFILE=1)
  --graphql             only the GraphQL list (recipes -> cuisine -> region) and its REST twin, computed,
                        on a fresh data dir of --docs recipes; prints both and the ratio (HEARTH_BENCH_GRAPHQL=1)
  --pin                 pin server to CPU 1, load generator to CPU 0 (HEARTH_BENCH_PIN=1)
  --keep                keep the temporary data directories  (HEARTH_BENCH_KEEP=1)
  --reuse DIR           measure the data a --keep run left in DIR (no seeding; --docs is taken from it)
  --postgres            only the team scenario: two instances on one embedded PostgreSQL, populate=* cached
                        and computed, and read-your-write across them (HEARTH_BENCH_POSTGRES=1)
  --only update         only the update scenario, with no webhook, 3 whose receiver is down and 3 delivering, interleaved twice, on a
                        fresh data dir of --docs recipes; prints req/s and server CPU per request
`;

export class OptionsError extends Error {
  override readonly name = 'OptionsError';
}

const FLAGS = new Set(['profile', 'pin', 'keep', 'help', 'postgres', 'graphql']);

function int(name: string, text: string | undefined, fallback: number, min: number, max: number): number {
  if (text === undefined || text === '') return fallback;
  const n = Number(text.replace(/_/g, ''));
  if (!Number.isInteger(n) || n < min || n > max) throw new OptionsError(`--${name} must be a whole number from ${min} to ${max} (got "${text}")`);
  return n;
}

const truthy = (v: string | undefined) => v !== undefined && ['1', 'true', 'yes'].includes(v.toLowerCase());

/** Reads argv (after `--`) and the environment; null when `--help` was asked. */
export function readOptions(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): BenchOptions | null {
  const values = new Map<string, string>();
  const flags = new Set<string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (arg === '-h') {
      flags.add('help');
      continue;
    }
    if (!arg.startsWith('--')) throw new OptionsError(`unexpected argument "${arg}"`);
    const eq = arg.indexOf('=');
    const name = eq === -1 ? arg.slice(2) : arg.slice(2, eq);
    if (FLAGS.has(name)) {
      flags.add(name);
      continue;
    }
    const value = eq === -1 ? argv[++i] : arg.slice(eq + 1);
    if (value === undefined) throw new OptionsError(`--${name} needs a value`);
    values.set(name, value);
  }
  if (flags.has('help')) return null;
  const known = ['docs', 'duration', 'warmup', 'connections', 'attempts', 'slugs', 'reuse', 'seed-concurrency', 'cold-starts', 'big-upload-mb', 'only'];
  for (const name of values.keys()) if (!known.includes(name)) throw new OptionsError(`unknown option --${name}`);
  const pick = (name: string, envName: string) => values.get(name) ?? env[envName];
  const docs = int('docs', pick('docs', 'HEARTH_BENCH_DOCS'), 2000, 1, 100_000);
  const slugs = (pick('slugs', 'HEARTH_BENCH_SLUGS') ?? 'auto').toLowerCase();
  const only = values.get('only') ?? null;
  if (only !== null && only !== 'update') throw new OptionsError(`--only must be update (got "${only}")`);
  if (!['auto', 'on', 'off'].includes(slugs)) throw new OptionsError(`--slugs must be auto, on or off (got "${slugs}")`);
  return {
    docs,
    slugs: slugs === 'on' || (slugs === 'auto' && docs <= 10_000),
    duration: int('duration', pick('duration', 'HEARTH_BENCH_DURATION'), 8, 1, 600),
    warmup: int('warmup', pick('warmup', 'HEARTH_BENCH_WARMUP'), 2, 0, 60),
    connections: int('connections', pick('connections', 'HEARTH_BENCH_CONNECTIONS'), 16, 1, 1000),
    attempts: int('attempts', pick('attempts', 'HEARTH_BENCH_ATTEMPTS'), 3, 1, 20),
    seedConcurrency: int('seed-concurrency', pick('seed-concurrency', 'HEARTH_BENCH_SEED_CONCURRENCY'), 8, 1, 256),
    coldStarts: int('cold-starts', pick('cold-starts', 'HEARTH_BENCH_COLD_STARTS'), 5, 1, 50),
    bigUploadMb: int('big-upload-mb', pick('big-upload-mb', 'HEARTH_BENCH_BIG_UPLOAD_MB'), 1024, 0, 8192),
    profile: flags.has('profile') || truthy(env.HEARTH_BENCH_PROFILE),
    graphql: flags.has('graphql') || truthy(env.HEARTH_BENCH_GRAPHQL),
    pin: flags.has('pin') || truthy(env.HEARTH_BENCH_PIN),
    keep: flags.has('keep') || truthy(env.HEARTH_BENCH_KEEP),
    reuse: values.get('reuse') ?? null,
    postgres: flags.has('postgres') || truthy(env.HEARTH_BENCH_POSTGRES),
    only,
  };
}
