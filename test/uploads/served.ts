import { readFileSync } from 'node:fs';
import { runHearth, startServe, type ServeProcess } from '../helpers/cli.js';
import { FIXTURE_PROJECT } from '../helpers/server.js';

/** A real `hearth serve` child on the fixture project, with a full-access token, for memory tests. */
export interface ServedHearth {
  readonly base: string;
  readonly token: string;
  readonly pid: number;
  stop(): Promise<void>;
}

/** Creates a token, then starts `hearth serve` on `dataDir` with `env` added (the compiled CLI, as users run it). */
export async function serveForMemory(dataDir: string, env: NodeJS.ProcessEnv): Promise<ServedHearth> {
  const created = await runHearth(['token', 'create', '--name', 'memory', '--type', 'full-access', '--data', dataDir], env);
  if (created.code !== 0) throw new Error(`token create failed: ${created.stderr}`);
  const serve: ServeProcess = await startServe(['--data', dataDir, '--schemas', FIXTURE_PROJECT, '--port', '0'], env);
  return {
    base: serve.url,
    token: created.stdout.trim(),
    pid: serve.child.pid ?? 0,
    async stop() {
      if (serve.child.exitCode !== null) return;
      serve.child.kill('SIGTERM');
      await serve.exited;
    },
  };
}

/** VmRSS of a process, in bytes (Linux /proc). */
export const rssOf = (pid: number): number => {
  const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Number(kb) * 1024;
};

/** Runs `work` while sampling the RSS of `pid` every `everyMs`: its result, the RSS before and the peak. */
export async function withPeakRss<T>(pid: number, everyMs: number, work: () => Promise<T>): Promise<{ result: T; baseline: number; peak: number }> {
  const baseline = rssOf(pid);
  let peak = baseline;
  const timer = setInterval(() => {
    peak = Math.max(peak, rssOf(pid));
  }, everyMs);
  try {
    const result = await work();
    return { result, baseline, peak: Math.max(peak, rssOf(pid)) };
  } finally {
    clearInterval(timer);
  }
}
