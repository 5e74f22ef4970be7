import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runHearth, startServe } from '../helpers/cli.js';
import { FIXTURE_PROJECT } from '../helpers/server.js';

/**
 * Graceful shutdown and readiness (issue 22, item 5), with `hearth serve` as a real child process:
 * a SIGTERM under load fails no request a load balancer sent (it drains: /_health answers 503 while
 * requests are still served, then in-flight ones finish), and /_health answers only once the
 * database and the schema are ready (the server listens only then).
 */

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'hearth-shutdown-'));
});
afterAll(() => rm(root, { recursive: true, force: true }));

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A port nothing listens on right now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

async function categoriesTotal(url: string, token: string): Promise<number> {
  const res = await fetch(`${url}/api/categories?pagination[pageSize]=1`, { headers: { Authorization: `Bearer ${token}` } });
  const body = (await res.json()) as { meta: { pagination: { total: number } } };
  if (!body.meta) throw new Error(JSON.stringify(body));
  return body.meta.pagination.total;
}

describe('a SIGTERM under load', () => {
  it('drains (/_health 503, requests still served), finishes every request and write in flight, and exits 0', async () => {
    const data = join(root, 'load');
    const env = { HEARTH_SHUTDOWN_DRAIN_MS: '1000' };
    const serve = await startServe(['--data', data, '--schemas', FIXTURE_PROJECT, '--port', '0'], env);
    const token = (await runHearth(['token', 'create', '--name', 'load', '--type', 'full-access', '--data', data])).stdout.trim();
    const before = await categoriesTotal(serve.url, token);
    // The load balancer: sends to this instance while its /_health answers 204.
    let live = true;
    const health: number[] = [];
    const balancer = (async () => {
      while (live) {
        const status = (await fetch(`${serve.url}/_health`)).status;
        health.push(status);
        if (status !== 204) live = false;
        else await sleep(50);
      }
    })();
    const failures: string[] = [];
    const statuses = new Map<number, number>();
    let created = 0;
    const send = async (path: string, init: RequestInit = {}) => {
      try {
        const res = await fetch(`${serve.url}${path}`, { ...init, headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' } });
        await res.arrayBuffer();
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        if (res.status === 201) created += 1;
        else if (res.status !== 200) failures.push(`${init.method ?? 'GET'} ${path}: ${res.status}`);
      } catch (err) {
        failures.push(`${init.method ?? 'GET'} ${path}: ${err instanceof Error ? `${err.message} ${String(err.cause)}` : String(err)}`);
      }
    };
    const workers = Array.from({ length: 6 }, async (_, w) => {
      for (let n = 0; live; n += 1) {
        if (n % 2 === 0) await send('/api/categories', { method: 'POST', body: JSON.stringify({ data: { name: `w${w}-${n}` } }) });
        else await send('/api/categories?populate=*');
      }
    });
    await sleep(800);
    serve.child.kill('SIGTERM');
    await Promise.all([balancer, ...workers]);
    // A request the balancer sent before it saw the 503 is still answered.
    await send('/api/categories');
    expect(await serve.exited, serve.stderr()).toBe(0);
    expect(failures).toEqual([]);
    expect(health.at(-1)).toBe(503);
    expect(created).toBeGreaterThan(5);
    // Every acknowledged write is there after the stop, and only those.
    const again = await startServe(['--data', data, '--schemas', FIXTURE_PROJECT, '--port', '0']);
    try {
      expect(await categoriesTotal(again.url, token)).toBe(before + created);
    } finally {
      again.child.kill('SIGTERM');
      await again.exited;
    }
    // After the stop nothing listens there: new connections are refused, not left hanging.
    await expect(fetch(`${serve.url}/_health`)).rejects.toThrow();
  });
});

describe('/_health', () => {
  it('answers only once the database and the schema are ready: nothing listens while start-up waits for the database', async () => {
    const data = join(root, 'ready');
    // A first run creates the data dir; the second start then waits for the write lock held below.
    const first = await startServe(['--data', data, '--schemas', FIXTURE_PROJECT, '--port', '0']);
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    const lock = new BetterSqlite3(join(data, 'hearth.db'));
    lock.exec('BEGIN IMMEDIATE');
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    let readyAt = 0;
    const starting = startServe(['--data', data, '--schemas', FIXTURE_PROJECT, '--port', String(port)]).then((serve) => {
      readyAt = Date.now();
      return serve;
    });
    const whileLocked: string[] = [];
    const lockedUntil = Date.now() + 1500;
    while (Date.now() < lockedUntil) {
      whileLocked.push(
        await fetch(`${url}/_health`).then(
          (res) => `status ${res.status}`,
          (err: unknown) => (err instanceof Error && err.cause instanceof Error ? err.cause.message : 'error').replace(/ .*$/, ''),
        ),
      );
      await sleep(100);
    }
    const releasedAt = Date.now();
    lock.exec('COMMIT');
    lock.close();
    const serve = await starting;
    try {
      expect(new Set(whileLocked)).toEqual(new Set(['connect']));
      expect(readyAt).toBeGreaterThanOrEqual(releasedAt);
      expect((await fetch(`${url}/_health`)).status).toBe(204);
    } finally {
      serve.child.kill('SIGTERM');
      await serve.exited;
    }
  });
});
