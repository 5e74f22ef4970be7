import { createHmac } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runHearth, startServe, type ServeProcess } from '../helpers/cli.js';
import { FIXTURE_PROJECT } from '../helpers/server.js';
import { startReceiver, type Receiver } from './receiver.js';

/** `hearth webhook add|list|remove` (CONTRACT.md) against a running `hearth serve` on the same data dir (the bundle in dist/). */

let root: string;
let data: string;
let serve: ServeProcess;
let receiver: Receiver;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'hearth-webhook-cli-'));
  data = join(root, 'data');
  serve = await startServe(['--data', data, '--schemas', FIXTURE_PROJECT, '--port', '0']);
  receiver = await startReceiver();
});

afterAll(async () => {
  serve?.child.kill('SIGKILL');
  await receiver?.close();
  await rm(root, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('hearth webhook', () => {
  it('add prints the id alone, list prints JSON lines, and the running server delivers at once', async () => {
    const token = (await runHearth(['token', 'create', '--name', 'w', '--type', 'full-access', '--data', data])).stdout.trim();
    const added = await runHearth([
      'webhook',
      'add',
      '--url',
      `${receiver.url}/cli`,
      '--events',
      'entry.create,entry.publish',
      '--name',
      'frontend',
      '--header',
      'X-Custom-Header: custom-value',
      '--header',
      'Authorization: Bearer abc',
      '--secret',
      'k3y',
      '--data',
      data,
    ]);
    expect(added).toMatchObject({ code: 0, stderr: '' });
    expect(added.stdout).toMatch(/^\d+\n$/);
    const id = added.stdout.trim();
    const listed = await runHearth(['webhook', 'list', '--data', data]);
    expect(listed.code).toBe(0);
    expect(
      listed.stdout
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as unknown),
    ).toEqual([{ id, name: 'frontend', url: `${receiver.url}/cli`, events: ['entry.create', 'entry.publish'], enabled: true }]);
    const res = await fetch(`${serve.url}/api/tags`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: '{"data":{"label":"cli"}}',
    });
    expect(res.status).toBe(201);
    const got = await receiver.waitFor(2);
    expect(got.map((g) => (JSON.parse(g.body) as { event: string }).event)).toEqual(['entry.create', 'entry.publish']);
    const first = got[0];
    if (!first) throw new Error('no delivery');
    expect(Object.keys(first.headers).slice(0, 6)).toEqual(['host', 'connection', 'X-Custom-Header', 'Authorization', 'X-Strapi-Event', 'Content-Type']);
    expect(first.headers['X-Custom-Header']).toBe('custom-value');
    const timestamp = first.headers['X-Hearth-Timestamp'] ?? '';
    expect(first.headers['X-Hearth-Signature']).toBe(`sha256=${createHmac('sha256', 'k3y').update(`${timestamp}.${first.body}`).digest('hex')}`);

    const removed = await runHearth(['webhook', 'remove', '--id', id, '--data', data]);
    expect(removed).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect((await runHearth(['webhook', 'list', '--data', data])).stdout).toBe('');
    const again = await fetch(`${serve.url}/api/tags`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: '{"data":{"label":"after"}}',
    });
    expect(again.status).toBe(201);
    await sleep(500);
    expect(receiver.received).toHaveLength(2);
  });

  it('refuses what it cannot use with exit 2 and a one-line reason', async () => {
    const ftp = await runHearth(['webhook', 'add', '--url', 'ftp://127.0.0.1/x', '--events', 'entry.create', '--data', data]);
    expect(ftp.code).toBe(2);
    expect(ftp.stderr).toBe('hearth: --url: must use http or https (ftp://127.0.0.1/x)\n');
    const event = await runHearth(['webhook', 'add', '--url', 'http://127.0.0.1:1/x', '--events', 'entry.nope', '--data', data]);
    expect(event.code).toBe(2);
    expect(event.stderr).toMatch(/^hearth: --events: entry\.nope is not supported/);
    const header = await runHearth(['webhook', 'add', '--url', 'http://127.0.0.1:1/x', '--events', 'entry.create', '--header', 'nocolon', '--data', data]);
    expect(header.code).toBe(2);
    const unknown = await runHearth(['webhook', 'remove', '--id', '999', '--data', data]);
    expect(unknown).toMatchObject({ code: 1, stderr: 'hearth: no webhook with id 999\n' });
  });
});
