import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runHearth, startServe, type ServeProcess } from '../helpers/cli.js';
import { databaseUrlFor, dropDatabaseFor, onPostgres } from '../helpers/database.js';
import { FIXTURE_PROJECT } from '../helpers/server.js';

/**
 * A rolling restart under load (issue 22, item 5): two `hearth serve` processes (own data dirs on
 * one PostgreSQL database; one data dir on SQLite), a balancer in the test that sends only to
 * instances whose /_health answers 204, clients writing and reading through it; each instance in
 * turn gets SIGTERM and is started again. No request fails, and every acknowledged write is there.
 */

const dirs: string[] = [];
const running: ServeProcess[] = [];
afterAll(async () => {
  for (const serve of running) if (serve.child.exitCode === null) serve.child.kill('SIGKILL');
  for (const dir of dirs) await dropDatabaseFor(dir);
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('a rolling restart of two instances under load', () => {
  it('fails no request the balancer sent and loses no acknowledged write', async () => {
    const root = await mkdtemp(join(tmpdir(), 'hearth-rolling-'));
    dirs.push(root);
    const url = await databaseUrlFor(root);
    const env: NodeJS.ProcessEnv = { HEARTH_SHUTDOWN_DRAIN_MS: '600', HEARTH_READ_THREADS: '1', ...(url === null ? {} : { DATABASE_URL: url }) };
    // PostgreSQL: a data dir per instance, as two hosts have; SQLite: both on one data dir (one file).
    const dataOf = (name: string) => (onPostgres() ? join(root, name) : join(root, 'shared'));
    const start = async (name: string) => {
      const serve = await startServe(['--data', dataOf(name), '--schemas', FIXTURE_PROJECT, '--port', '0'], env);
      running.push(serve);
      return serve;
    };
    const instances = new Map<string, ServeProcess>([['a', await start('a')]]);
    instances.set('b', await start('b'));
    const created = await runHearth(['token', 'create', '--name', 'rolling', '--type', 'full-access', '--data', dataOf('a')], env);
    expect(created.code, created.stderr).toBe(0);
    const token = created.stdout.trim();

    // The balancer: polls each instance's /_health; sends only to those that answered 204.
    const live = new Set<string>();
    let loadOn = true;
    const poller = (async () => {
      while (loadOn) {
        await Promise.all(
          [...instances].map(async ([name, serve]) => {
            const ok = await fetch(`${serve.url}/_health`).then(
              (r) => r.status === 204,
              () => false,
            );
            if (ok) live.add(name);
            else live.delete(name);
          }),
        );
        await sleep(50);
      }
    })();
    const failures: string[] = [];
    let acknowledged = 0;
    let answered = 0;
    let turn = 0;
    const send = async (path: string, init: RequestInit = {}) => {
      const names = [...live];
      if (names.length === 0) return sleep(20);
      const name = names[turn++ % names.length] ?? '';
      const serve = instances.get(name);
      if (!serve) return;
      try {
        const res = await fetch(`${serve.url}${path}`, { ...init, headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' } });
        await res.arrayBuffer();
        answered += 1;
        if (res.status === 201) acknowledged += 1;
        else if (res.status !== 200) failures.push(`${name} ${init.method ?? 'GET'} ${path}: ${res.status}`);
      } catch (err) {
        failures.push(`${name} ${init.method ?? 'GET'} ${path}: ${err instanceof Error ? `${err.message} ${String(err.cause)}` : String(err)}`);
      }
    };
    const workers = Array.from({ length: 4 }, async (_, w) => {
      for (let n = 0; loadOn; n += 1) {
        if (n % 2 === 0) await send('/api/categories', { method: 'POST', body: JSON.stringify({ data: { name: `w${w}-${n}` } }) });
        else await send('/api/categories?sort=id:desc');
      }
    });

    const restart = async (name: string) => {
      const old = instances.get(name) as ServeProcess;
      old.child.kill('SIGTERM');
      expect(await old.exited, old.stderr()).toBe(0);
      instances.set(name, await start(name));
      // Back in the balancer before the next one stops.
      while (!live.has(name)) await sleep(20);
    };
    await sleep(500);
    await restart('a');
    await sleep(300);
    await restart('b');
    await sleep(300);
    loadOn = false;
    await Promise.all([poller, ...workers]);

    expect(failures).toEqual([]);
    expect(answered).toBeGreaterThan(20);
    const serve = instances.get('a') as ServeProcess;
    const res = await fetch(`${serve.url}/api/categories?pagination[pageSize]=1`, { headers: { Authorization: `Bearer ${token}` } });
    const body = (await res.json()) as { meta: { pagination: { total: number } } };
    expect(body.meta.pagination.total).toBe(acknowledged);
    for (const [, s] of instances) {
      s.child.kill('SIGTERM');
      expect(await s.exited).toBe(0);
    }
  });
});
