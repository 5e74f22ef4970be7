import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { copyFile, cp, mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The repository root (bench/lib/ -> ../..). */
export const ROOT = resolve(import.meta.dirname, '../..');
/** The `hearth` command every spawn runs: bin/hearth.js, or the snapshot's (see snapshotHearth). */
let hearthBin = resolve(ROOT, 'bin/hearth.js');

/**
 * Copies bin/ and dist/ (with package.json and a node_modules link) into `dir` and runs that copy
 * from now on, so a `npm run build` during the run cannot swap or half-write the code under test.
 * Retries while the copy does not load (dist/ caught in the middle of a build).
 */
export async function snapshotHearth(dir: string, log: (m: string) => void): Promise<string> {
  for (let attempt = 1; ; attempt++) {
    const target = resolve(dir, `hearth-${attempt}`);
    await mkdir(resolve(target, 'bin'), { recursive: true });
    await cp(resolve(ROOT, 'dist'), resolve(target, 'dist'), { recursive: true });
    await copyFile(resolve(ROOT, 'bin/hearth.js'), resolve(target, 'bin/hearth.js'));
    // The same CLI before bundling (dist/server/): CPU profiles then name Hearth's own files.
    await writeFile(resolve(target, 'bin', UNBUNDLED_BIN), "import { main } from '../dist/server/cli.js';\nprocess.exitCode = await main(process.argv.slice(2));\n");
    await copyFile(resolve(ROOT, 'package.json'), resolve(target, 'package.json'));
    await symlink(resolve(ROOT, 'node_modules'), resolve(target, 'node_modules'), 'dir');
    const bin = resolve(target, 'bin/hearth.js');
    try {
      await run(process.execPath, [bin, '--help'], { cwd: ROOT });
      hearthBin = bin;
      return target;
    } catch (err) {
      if (attempt >= 12) throw new Error(`dist/ does not load (is a build running?): ${err instanceof Error ? err.message : String(err)}`, { cause: err });
      log(`dist/ does not load yet (a build in progress?); retrying in 5 s`);
      await new Promise((r) => setTimeout(r, 5000));
    }
  }
}

/** A Hearth `serve` process started by the bench. */
export interface HearthProcess {
  readonly url: string;
  readonly pid: number;
  readonly child: ChildProcess;
  /** Everything the server wrote on stderr so far. */
  stderr(): string;
  /** SIGTERM, then waits for exit (SIGKILL after a grace period). */
  stop(): Promise<void>;
}

/** The snapshot's entry point that runs dist/server/ unbundled (for profiles). */
const UNBUNDLED_BIN = 'hearth-unbundled.js';

export interface SpawnArgs {
  /** Runs dist/server/ module by module instead of the bundle, so profiles name Hearth's files. */
  readonly unbundled?: boolean;
  readonly dataDir: string;
  readonly schemas: string;
  readonly port?: number;
  readonly env?: NodeJS.ProcessEnv;
  /** Extra `node` flags (e.g. `--cpu-prof`). */
  readonly nodeArgs?: readonly string[];
  /** Runs the server under `taskset -c CPU`. */
  readonly cpu?: number | null;
}

function command(args: SpawnArgs): { file: string; argv: string[] } {
  const bin = args.unbundled ? resolve(hearthBin, '..', UNBUNDLED_BIN) : hearthBin;
  const node = [...(args.nodeArgs ?? []), bin, 'serve', '--data', args.dataDir, '--schemas', args.schemas, '--port', String(args.port ?? 0)];
  if (args.cpu !== undefined && args.cpu !== null) return { file: 'taskset', argv: ['-c', String(args.cpu), process.execPath, ...node] };
  return { file: process.execPath, argv: node };
}

/** Every child process the bench started and that has not exited yet (stopped on Ctrl-C). */
export const liveChildren = new Set<ChildProcess>();

/** Remembers a child until it exits. */
export function track(child: ChildProcess): ChildProcess {
  liveChildren.add(child);
  child.once('exit', () => liveChildren.delete(child));
  return child;
}

/** Spawns `node bin/hearth.js serve` without waiting for it. */
export function spawnServe(args: SpawnArgs): ChildProcess {
  const { file, argv } = command(args);
  return track(spawn(file, argv, { cwd: ROOT, env: { ...process.env, ...args.env }, stdio: ['ignore', 'pipe', 'pipe'] }));
}

/** Stops every child still running (SIGTERM, then SIGKILL). */
export async function stopAllChildren(): Promise<void> {
  await Promise.all([...liveChildren].map((c) => stopChild(c, 5000)));
}

function waitExit(child: ChildProcess, ms: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((done) => {
    const timer = setTimeout(() => done(false), ms);
    child.once('exit', () => {
      clearTimeout(timer);
      done(true);
    });
  });
}

/** Stops a child: SIGTERM, then SIGKILL if it has not exited after `graceMs`. */
export async function stopChild(child: ChildProcess, graceMs = 15_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  if (!(await waitExit(child, graceMs))) {
    child.kill('SIGKILL');
    await waitExit(child, 5000);
  }
}

/** Starts Hearth and resolves once it printed `Hearth listening on URL`. */
export function startHearth(args: SpawnArgs): Promise<HearthProcess> {
  const child = spawnServe(args);
  let err = '';
  let out = '';
  child.stderr?.setEncoding('utf8').on('data', (t: string) => {
    err = (err + t).slice(-20_000);
  });
  return new Promise((resolveStart, reject) => {
    const onExit = (code: number | null) => reject(new Error(`hearth serve exited (${code}) before listening:\n${err}`));
    child.once('exit', onExit);
    child.stdout?.setEncoding('utf8').on('data', (t: string) => {
      out += t;
      const m = /Hearth listening on (\S+)/.exec(out);
      if (!m?.[1] || child.pid === undefined) return;
      child.off('exit', onExit);
      const url = m[1];
      resolveStart({ url, pid: child.pid, child, stderr: () => err, stop: () => stopChild(child) });
    });
  });
}

/** Resident memory of a process, from /proc/<pid>/status (bytes). `VmHWM` is the peak since the last reset. */
export async function memoryOf(pid: number): Promise<{ rss: number; hwm: number }> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN) * 1024;
  return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
}

/** Resets the peak-RSS counter (`VmHWM`) of a process we own; false when the kernel refuses. */
export async function resetPeak(pid: number): Promise<boolean> {
  try {
    await writeFile(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

/** Runs `hearth <args>` (the bench's snapshot) and answers its stdout. */
export async function hearthCli(args: readonly string[]): Promise<string> {
  const { stdout } = await run(process.execPath, [hearthBin, ...args], { cwd: ROOT });
  return stdout;
}

/** Creates a full-access API token with the CLI (works whether or not the server runs). */
export async function createToken(dataDir: string): Promise<string> {
  const { stdout } = await run(process.execPath, [hearthBin, 'token', 'create', '--name', `bench-${Date.now()}`, '--type', 'full-access', '--data', dataDir], { cwd: ROOT });
  const token = stdout.trim();
  if (!token) throw new Error('hearth token create printed no token');
  return token;
}
