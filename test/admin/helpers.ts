import { cp, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FIXTURE_PROJECT, type TestServer } from '../helpers/server.js';
import { expectJson } from '../helpers/project.js';

/** The owner every admin test registers. */
export const OWNER = { email: 'owner@example.com', password: 'Secret123', firstname: 'Olive', lastname: 'Owner' };

/** `{ data: null, error: { status: 401, ... } }`: what every refused admin request answers. */
export const UNAUTHORIZED = { data: null, error: { status: 401, name: 'UnauthorizedError', message: 'Missing or invalid credentials', details: {} } };

/** A writable copy of the public fixture project (the builder writes into its schemas folder). */
export async function fixtureCopy(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'hearth-fixture-'));
  await cp(FIXTURE_PROJECT, dir, { recursive: true });
  return dir;
}

/** A JSON request with an admin session. */
export function adminRequest(server: TestServer, token: string) {
  return (path: string, init: RequestInit & { json?: unknown } = {}) => server.request(path, { ...init, token });
}

/** Registers the owner and returns the session token. */
export async function registerOwner(server: TestServer): Promise<string> {
  const body = await expectJson<{ data: { token: string } }>(await server.request('/admin/api/register-admin', { method: 'POST', json: OWNER }), 201);
  return body.data.token;
}

/** Polls `check` until it passes or the deadline is reached (for effects of the file watcher). */
export async function eventually(check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error('condition not met before the deadline');
    await new Promise((r) => setTimeout(r, 50));
  }
}
