import { rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runHearth, type ServeProcess } from '../helpers/cli.js';
import { call, freshDataDir, fullAccessToken, serveOn } from '../crash/helpers.js';

/**
 * Another process writing the same SQLite file (`hearth token create` in a loop) while a real
 * `hearth serve` takes PUTs from several clients. A write transaction that read before it wrote
 * cannot wait for the write lock (SQLite's busy timeout does not apply to it): every write
 * transaction must take the lock first, so no request answers 5xx and no CLI run fails.
 * Runs the compiled CLI: `npm run build:server` first.
 */

const CLIENTS = 6;
const CLI_RUNS = 10;

let dataDir: string;
let token: string;
let serve: ServeProcess;

beforeAll(async () => {
  dataDir = await freshDataDir('writers');
  serve = await serveOn(dataDir);
  token = await fullAccessToken(dataDir);
});

afterAll(async () => {
  serve.child.kill('SIGKILL');
  await serve.exited;
  await rm(dirname(dataDir), { recursive: true, force: true });
});

/** One answer a client got: its status, and its error for a failure. */
interface Answer {
  readonly status: number;
  readonly error?: unknown;
}

/** One client: creates its own tag, then updates it until told to stop; resolves to every answer it got. */
async function client(n: number, running: () => boolean): Promise<Answer[]> {
  const answers: Answer[] = [];
  const record = (res: { status: number; body: Record<string, unknown> }) => answers.push(res.status < 300 ? { status: res.status } : { status: res.status, error: res.body.error });
  const created = await call(serve.url, token, 'POST', '/api/tags', { label: `client ${n}` });
  record(created);
  const documentId = (created.body.data as { documentId?: string } | undefined)?.documentId;
  if (documentId === undefined) return answers;
  for (let i = 0; running(); i++) record(await call(serve.url, token, 'PUT', `/api/tags/${documentId}`, { label: `client ${n} update ${i}` }));
  return answers;
}

describe('concurrent writers on one SQLite file', () => {
  it('a CLI writing in a loop never makes the server answer 5xx to concurrent PUTs', async () => {
    let cliDone = false;
    const clients = Array.from({ length: CLIENTS }, (_, n) => client(n, () => !cliDone));
    const runs: { code: number | null; stderr: string }[] = [];
    try {
      for (let i = 0; i < CLI_RUNS; i++) {
        const run = await runHearth(['token', 'create', '--name', `loop-${i}`, '--type', 'read-only', '--data', dataDir]);
        runs.push({ code: run.code, stderr: run.stderr });
      }
    } finally {
      cliDone = true;
    }
    const answers = (await Promise.all(clients)).flat();
    expect(runs.filter((r) => r.code !== 0)).toEqual([]);
    expect(answers.length).toBeGreaterThan(CLIENTS * 10);
    expect(answers.filter((a) => a.status >= 300)).toEqual([]);
  }, 180_000);
});
