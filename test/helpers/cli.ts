import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';

export const HEARTH_BIN = resolve(import.meta.dirname, '../../bin/hearth.js');

/** Runs `run` with these variables set in process.env (the CLI reads them there), restored after. */
export async function withEnv<T>(env: NodeJS.ProcessEnv, run: () => Promise<T>): Promise<T> {
  const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  Object.assign(process.env, env);
  try {
    return await run();
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

export interface RunResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `hearth <args>` to completion. */
export function runHearth(args: string[], env: NodeJS.ProcessEnv = {}): Promise<RunResult> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [HEARTH_BIN, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolvePromise({ code, stdout, stderr }));
  });
}

export interface ServeProcess {
  readonly child: ChildProcess;
  readonly url: string;
  readonly readyLine: string;
  stderr(): string;
  /** The signal that ended the process, if one did (null while running or after a normal exit). */
  signal(): NodeJS.Signals | null;
  /** Resolves with the exit code once the process has ended (null when a signal ended it). */
  exited: Promise<number | null>;
}

/** Starts `hearth serve` and waits for its ready line. */
export function startServe(args: string[], env: NodeJS.ProcessEnv = {}): Promise<ServeProcess> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [HEARTH_BIN, 'serve', ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let endedBy: NodeJS.Signals | null = null;
    const exited = new Promise<number | null>((r) =>
      child.on('close', (code, signal) => {
        endedBy = signal;
        r(code);
      }),
    );
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      const line = stdout.split('\n')[0];
      const match = line !== undefined && stdout.includes('\n') ? /^Hearth listening on (http:\/\/\S+)$/.exec(line) : null;
      if (match?.[1]) resolvePromise({ child, url: match[1], readyLine: line ?? '', stderr: () => stderr, signal: () => endedBy, exited });
    });
    void exited.then((code) => reject(new Error(`hearth serve exited with ${code} before it was ready: ${stderr}`)));
  });
}
