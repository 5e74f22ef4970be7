import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runHearth } from '../helpers/cli.js';
import { databaseEnvFor } from '../helpers/database.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { expectJson, writeProject } from '../helpers/project.js';
import { UNAUTHORIZED } from './helpers.js';

let root: string;
let data: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'hearth-admin-cli-'));
  data = join(root, 'data');
});
afterAll(() => rm(root, { recursive: true, force: true }));

const login = (server: TestServer, email: string, password: string) => server.request('/admin/api/login', { method: 'POST', json: { email, password } });

describe('hearth admin', () => {
  it('create adds an admin (before any serve), with exit codes for usage errors and clashes', async () => {
    const created = await runHearth(['admin', 'create', '--email', 'Ops@Example.com', '--password', 'Secret123', '--firstname', 'Ops', '--data', data], await databaseEnvFor(data));
    expect(created).toEqual({ code: 0, stdout: '', stderr: 'admin ops@example.com created\n' });
    const again = await runHearth(['admin', 'create', '--email', 'ops@example.com', '--password', 'Secret123', '--data', data], await databaseEnvFor(data));
    expect(again).toEqual({ code: 1, stdout: '', stderr: 'hearth: Email already taken\n' });
    const weak = await runHearth(['admin', 'create', '--email', 'x@example.com', '--password', 'weak', '--data', data], await databaseEnvFor(data));
    expect(weak).toEqual({ code: 2, stdout: '', stderr: 'hearth: password must be at least 8 characters\n' });
    expect((await runHearth(['admin', 'create', '--password', 'Secret123', '--data', data], await databaseEnvFor(data))).code).toBe(2);
    expect((await runHearth(['admin', 'rename', '--data', data], await databaseEnvFor(data))).code).toBe(2);
  });

  it('reset-password sets the password and closes that admin\'s sessions, even while a server runs', async () => {
    const server = await startTestServer({ schemas: await writeProject({}), dataDir: data });
    try {
      const session = (await expectJson<{ data: { token: string } }>(await login(server, 'ops@example.com', 'Secret123'), 200)).data.token;
      await expectJson(await server.request('/admin/api/users/me', { token: session }), 200);
      const reset = await runHearth(['admin', 'reset-password', '--email', 'OPS@example.com', '--password', 'Changed456', '--data', data], await databaseEnvFor(data));
      expect(reset).toEqual({ code: 0, stdout: '', stderr: 'password of ops@example.com reset; its sessions are closed\n' });
      expect(await expectJson(await server.request('/admin/api/users/me', { token: session }), 401)).toEqual(UNAUTHORIZED);
      expect((await login(server, 'ops@example.com', 'Secret123')).status).toBe(400);
      await expectJson(await login(server, 'ops@example.com', 'Changed456'), 200);
    } finally {
      await server.close();
    }
    expect(await runHearth(['admin', 'reset-password', '--email', 'nobody@example.com', '--password', 'Changed456', '--data', data], await databaseEnvFor(data))).toEqual({
      code: 1,
      stdout: '',
      stderr: 'hearth: no admin has the email nobody@example.com\n',
    });
    expect((await runHearth(['admin', 'reset-password', '--email', 'ops@example.com', '--password', 'short', '--data', data], await databaseEnvFor(data))).code).toBe(2);
  });
});
