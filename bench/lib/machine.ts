import { execFile } from 'node:child_process';
import { stat } from 'node:fs/promises';
import { cpus, release, totalmem, type } from 'node:os';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { ROOT } from './server.js';

const run = promisify(execFile);

/** Where the figures were measured. */
export interface Machine {
  readonly cpu: string;
  readonly cores: number;
  readonly memoryGb: number;
  readonly os: string;
  readonly node: string;
  /** The commit checked out (read-only `git rev-parse`), or null. */
  readonly commit: string | null;
  /** When dist/ (what the bench runs) was last compiled. */
  readonly distBuiltAt: string | null;
}

export async function describeMachine(): Promise<Machine> {
  const list = cpus();
  let commit: string | null;
  try {
    commit = (await run('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT })).stdout.trim() || null;
  } catch {
    commit = null;
  }
  let distBuiltAt: string | null;
  try {
    distBuiltAt = (await stat(resolve(ROOT, 'dist/server/cli.js'))).mtime.toISOString();
  } catch {
    distBuiltAt = null;
  }
  return {
    cpu: list[0]?.model.trim() ?? 'unknown',
    cores: list.length,
    memoryGb: Math.round(totalmem() / 1024 ** 3),
    os: `${type()} ${release()}`,
    node: process.version,
    commit,
    distBuiltAt,
  };
}
