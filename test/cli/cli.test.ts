import { mkdtemp, rm, stat } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runHearth, startServe, type ServeProcess } from '../helpers/cli.js';
import { FIXTURE_PROJECT } from '../helpers/server.js';
import { collection, writeProject } from '../helpers/project.js';

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'hearth-cli-'));
});
afterAll(() => rm(root, { recursive: true, force: true }));

const fresh = async (name: string) => join(root, name, 'data');

describe('hearth serve', () => {
  let serve: ServeProcess;
  let data: string;

  beforeAll(async () => {
    data = await fresh('serve');
    serve = await startServe(['--data', data, '--schemas', FIXTURE_PROJECT, '--port', '0']);
  });
  afterAll(() => {
    serve.child.kill('SIGKILL');
  });

  it('prints one ready line with the real port and answers /_health with 204', async () => {
    expect(serve.readyLine).toMatch(/^Hearth listening on http:\/\/127\.0\.0\.1:\d+$/);
    expect(serve.readyLine).not.toMatch(/:0$/);
    const res = await fetch(`${serve.url}/_health`);
    expect(res.status).toBe(204);
    expect(await res.text()).toBe('');
  });

  it('creates the data dir with its database and media folder', async () => {
    expect((await stat(join(data, 'hearth.db'))).isFile()).toBe(true);
    expect((await stat(join(data, 'uploads'))).isDirectory()).toBe(true);
  });

  it('accepts a token created by `token create` while it runs', async () => {
    const created = await runHearth(['token', 'create', '--name', 'live', '--type', 'read-only', '--data', data]);
    expect(created.code).toBe(0);
    const token = created.stdout.trim();
    expect(created.stdout).toBe(`${token}\n`);
    expect(token).toMatch(/^[0-9a-f]{256}$/);
    const res = await fetch(`${serve.url}/api/tags`, { headers: { Authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
    const write = await fetch(`${serve.url}/api/tags`, { method: 'POST', headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }, body: '{"data":{"label":"x"}}' });
    expect(write.status).toBe(403);
  });

  it('applies `permissions grant` to the running server at once', async () => {
    expect((await fetch(`${serve.url}/api/categories`)).status).toBe(403);
    const granted = await runHearth(['permissions', 'grant', '--role', 'public', '--actions', 'api::category.category.find', '--data', data]);
    expect(granted).toMatchObject({ code: 0, stderr: '' });
    expect((await fetch(`${serve.url}/api/categories`)).status).toBe(200);
  });

  it('applies `locale add` to the running server at once', async () => {
    const token = (await runHearth(['token', 'create', '--name', 'writer', '--type', 'full-access', '--data', data])).stdout.trim();
    const headers = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' };
    const before = await fetch(`${serve.url}/api/articles?locale=de`, { method: 'POST', headers, body: '{"data":{"title":"Hallo"}}' });
    expect(before.status).toBe(400);
    expect((await runHearth(['locale', 'add', '--code', 'de', '--data', data])).code).toBe(0);
    const after = await fetch(`${serve.url}/api/articles?locale=de`, { method: 'POST', headers, body: '{"data":{"title":"Hallo"}}' });
    expect(after.status).toBe(201);
    expect(((await after.json()) as { data: { locale: string } }).data.locale).toBe('de');
  });

  it('refuses a second server on the same port with exit 1 and a one-line reason', async () => {
    const port = new URL(serve.url).port;
    const second = await runHearth(['serve', '--data', await fresh('second'), '--port', port]);
    expect(second.code).toBe(1);
    expect(second.stdout).toBe('');
    expect(second.stderr).toBe(`hearth: port ${port} is already in use on 127.0.0.1\n`);
  });
});

describe('graceful shutdown', () => {
  it('finishes a request in flight on SIGTERM, then exits 0', async () => {
    const data = await fresh('graceful');
    const serve = await startServe(['--data', data, '--schemas', FIXTURE_PROJECT, '--port', '0']);
    const token = (await runHearth(['token', 'create', '--name', 't', '--type', 'full-access', '--data', data])).stdout.trim();
    const url = new URL(`${serve.url}/api/categories`);
    const body = '{"data":{"name":"Slow"}}';
    const response = new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = httpRequest(
        { host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) } },
        (res) => {
          let text = '';
          res.on('data', (d: Buffer) => (text += d.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
        },
      );
      req.on('error', reject);
      req.write(body.slice(0, 10));
      setTimeout(() => {
        serve.child.kill('SIGTERM');
        setTimeout(() => req.end(body.slice(10)), 300);
      }, 200);
    });
    const result = await response;
    expect(result.status).toBe(201);
    expect(JSON.parse(result.text)).toMatchObject({ data: { name: 'Slow' } });
    expect(await serve.exited).toBe(0);
  });

  it('shuts down cleanly on a SIGTERM sent the instant the ready line is read', async () => {
    const data = await fresh('instant');
    const outcomes: string[] = [];
    // A supervisor that stops the server as soon as it is up found it killed by the signal 1 time in 5.
    for (let i = 0; i < 12; i++) {
      const serve = await startServe(['--data', data, '--schemas', FIXTURE_PROJECT, '--port', '0']);
      serve.child.kill('SIGTERM');
      const code = await serve.exited;
      outcomes.push(code === null ? `signal ${serve.signal()}` : `exit ${code}`);
    }
    expect(outcomes).toEqual(Array(12).fill('exit 0'));
  });
});

describe('commands on a data dir that does not exist yet', () => {
  it('token create, permissions grant and locale add each create it', async () => {
    for (const [name, args] of [
      ['t', ['token', 'create', '--name', 'n', '--type', 'custom', '--actions', 'api::tag.tag.find', '--lifespan', '7']],
      ['p', ['permissions', 'grant', '--role', 'authenticated', '--actions', 'api::tag.tag.find']],
      ['l', ['locale', 'add', '--code', 'fr', '--name', 'French', '--default']],
    ] as const) {
      const data = await fresh(`new-${name}`);
      const result = await runHearth([...args, '--data', data]);
      expect(result.code, result.stderr).toBe(0);
      expect((await stat(join(data, 'hearth.db'))).isFile()).toBe(true);
    }
  });

  it('uses $HEARTH_DATA when --data is absent', async () => {
    const data = await fresh('env');
    const result = await runHearth(['locale', 'add', '--code', 'it'], { HEARTH_DATA: data });
    expect(result.code).toBe(0);
    expect((await stat(join(data, 'hearth.db'))).isFile()).toBe(true);
  });
});

describe('usage and errors', () => {
  const cases: { args: string[]; code: number; stderr?: RegExp; stdout?: RegExp }[] = [
    { args: ['--help'], code: 0, stdout: /^Usage: hearth <command>/ },
    { args: ['serve', '--help'], code: 0, stdout: /^Usage: hearth <command>/ },
    { args: ['frobnicate'], code: 2, stderr: /^hearth: unknown command "frobnicate"/ },
    { args: ['token', 'create', '--name', 'x'], code: 2, stderr: /^hearth: --type is required\n$/ },
    { args: ['token', 'create', '--name', 'x', '--type', 'custom'], code: 2, stderr: /^hearth: --type custom requires --actions\n$/ },
    { args: ['token', 'create', '--name', 'x', '--type', 'read-only', '--lifespan', '1.5'], code: 2, stderr: /--lifespan takes a whole number of days/ },
    { args: ['permissions', 'grant', '--role', 'admin', '--actions', 'api::a.a.find'], code: 2, stderr: /--role must be public or authenticated/ },
    { args: ['permissions', 'grant', '--role', 'public', '--actions', 'not an action'], code: 2, stderr: /is not an action name/ },
    { args: ['locale', 'add', '--code', '12345'], code: 2, stderr: /is not a locale code/ },
    { args: ['serve', '--port', 'abc'], code: 2, stderr: /port must be a whole number/ },
    { args: ['serve', '--bogus', 'x'], code: 2, stderr: /unknown option --bogus/ },
  ];
  for (const c of cases) {
    it(`hearth ${c.args.join(' ')} -> exit ${c.code}`, async () => {
      const result = await runHearth([...c.args, ...(c.args.includes('--help') || c.args[0] === 'frobnicate' ? [] : ['--data', await fresh(`usage-${c.args.join('-')}`)])]);
      expect(result.code, result.stderr).toBe(c.code);
      if (c.stderr) expect(result.stderr).toMatch(c.stderr);
      if (c.stdout) expect(result.stdout).toMatch(c.stdout);
      if (c.code !== 0) expect(result.stderr.trim().split('\n')).toHaveLength(1);
    });
  }

  it('a duplicate token name is a runtime failure (exit 1)', async () => {
    const data = await fresh('dup');
    expect((await runHearth(['token', 'create', '--name', 'same', '--type', 'read-only', '--data', data])).code).toBe(0);
    const again = await runHearth(['token', 'create', '--name', 'same', '--type', 'read-only', '--data', data]);
    expect(again.code).toBe(1);
    expect(again.stderr).toBe('hearth: a token named "same" already exists\n');
  });

  it('warns about actions that name no content-type and still exits 0', async () => {
    const data = await fresh('warn');
    const result = await runHearth(['permissions', 'grant', '--role', 'public', '--actions', 'api::tag.tag.find,api::nope.nope.find', '--schemas', FIXTURE_PROJECT, '--data', data]);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe(`warning: api::nope.nope.find names no content-type in ${FIXTURE_PROJECT}\n`);
  });

  it('an invalid schema refuses to start with exit 1 and names the problem', async () => {
    const schemas = await writeProject({ types: { bad: collection('bad', 'bads', { id: { type: 'string' } }) } });
    const result = await runHearth(['serve', '--data', await fresh('bad-schema'), '--schemas', schemas, '--port', '0']);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('hearth: src/api/bad/content-types/bad/schema.json: attribute "id": "id" is a reserved name\n');
  });
});
