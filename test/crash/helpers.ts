import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { runHearth, startServe, type ServeProcess } from '../helpers/cli.js';
import { FIXTURE_PROJECT } from '../helpers/server.js';

/** A fresh data dir path (not created yet) in its own temp folder. */
export async function freshDataDir(prefix: string): Promise<string> {
  return join(await mkdtemp(join(tmpdir(), `hearth-${prefix}-`)), 'data');
}

/** `hearth token create --type full-access` on a data dir; resolves to the plaintext. */
export async function fullAccessToken(dataDir: string): Promise<string> {
  const created = await runHearth(['token', 'create', '--name', `crash-${Date.now()}`, '--type', 'full-access', '--data', dataDir]);
  if (created.code !== 0) throw new Error(`token create failed: ${created.stderr}`);
  return created.stdout.trim();
}

/** `hearth serve` on a data dir with the fixture project, on a free port. */
export const serveOn = (dataDir: string): Promise<ServeProcess> => startServe(['--data', dataDir, '--schemas', FIXTURE_PROJECT, '--port', '0']);

/** SIGKILL: no handler runs, nothing is flushed or closed. */
export async function killHard(serve: ServeProcess): Promise<void> {
  serve.child.kill('SIGKILL');
  await serve.exited;
}

/** SIGTERM and the exit code of the graceful shutdown. */
export async function stopGracefully(serve: ServeProcess): Promise<number | null> {
  serve.child.kill('SIGTERM');
  const code = await serve.exited;
  if (code === null) throw new Error(`hearth serve was ended by ${serve.signal()} instead of shutting down; its stderr:\n${serve.stderr()}`);
  return code;
}

/** `PRAGMA integrity_check` and `PRAGMA foreign_key_check` of a stopped server's database, opened read-only. */
export function checkDatabase(dataDir: string): { integrity: unknown[]; foreignKeys: unknown[] } {
  const db = new BetterSqlite3(join(dataDir, 'hearth.db'), { readonly: true, fileMustExist: true });
  try {
    return { integrity: db.pragma('integrity_check', { simple: false }) as unknown[], foreignKeys: db.pragma('foreign_key_check') as unknown[] };
  } finally {
    db.close();
  }
}

/** Waits for a condition the test cannot subscribe to (a file growing on disk), checking every few milliseconds. */
export async function waitFor(what: string, condition: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A JSON request with a bearer token; resolves to status and parsed body. */
export async function call(base: string, token: string, method: string, path: string, data?: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, ...(data === undefined ? {} : { 'Content-Type': 'application/json' }) },
    ...(data === undefined ? {} : { body: JSON.stringify({ data }) }),
  });
  const text = await res.text();
  return { status: res.status, body: text === '' ? {} : (JSON.parse(text) as Record<string, unknown>) };
}
