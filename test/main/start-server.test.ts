import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listenError, startServer, type RunningServer, type StartOptions } from '../../server/index.js';
import { DESKTOP_HOST, desktopConfig, PREFERRED_PORT, startWithFallback } from '../../main/start-server.js';

/** Holds a loopback port with a plain TCP server, as another program would. */
function occupy(port: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    const blocker = createServer();
    blocker.once('error', reject);
    blocker.listen(port, DESKTOP_HOST, () => resolve(blocker));
  });
}

function portOf(server: Server): number {
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('not listening on TCP');
  return address.port;
}

function release(server: Server): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}

describe('desktop configuration', () => {
  it('is loopback and port 1337 whatever HOST and PORT say, on the given data dir', () => {
    const config = desktopConfig('/tmp/hearth-data', { HOST: '0.0.0.0', PORT: '8080', API_REST_DEFAULT_LIMIT: '10' });
    expect(config.host).toBe('127.0.0.1');
    expect(config.port).toBe(PREFERRED_PORT);
    expect(config.dataDir).toBe('/tmp/hearth-data');
    expect(config.schemasDir).toBe(join('/tmp/hearth-data', 'schema'));
    expect(config.defaultLimit).toBe(10);
  });
});

describe('port fallback (real server, real sockets)', () => {
  let dataDir: string;
  let blocker: Server | null = null;
  let running: RunningServer | null = null;
  const logs: string[] = [];

  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'hearth-main-port-'));
    logs.length = 0;
  });
  afterEach(async () => {
    await running?.close();
    if (blocker) await release(blocker);
    running = null;
    blocker = null;
    await rm(dataDir, { recursive: true, force: true });
  });

  const options = (port: number): StartOptions => ({
    config: { ...desktopConfig(dataDir, {}), port },
    log: (m) => logs.push(m),
  });

  it('moves to a free port when the preferred one is taken', async () => {
    blocker = await occupy(0);
    const taken = portOf(blocker);
    running = await startWithFallback({ start: startServer, log: (m) => logs.push(m) }, options(taken));
    expect(running.port).not.toBe(taken);
    expect(running.port).toBeGreaterThan(0);
    expect(running.url).toBe(`http://127.0.0.1:${running.port}`);
    expect((await fetch(`${running.url}/_health`)).status).toBe(204);
    expect(logs).toContain(`port ${taken} is already in use on 127.0.0.1; using a free port instead`);
  });

  it('keeps the preferred port when it is free', async () => {
    const probe = await occupy(0);
    const free = portOf(probe);
    await release(probe);
    running = await startWithFallback({ start: startServer, log: (m) => logs.push(m) }, options(free));
    expect(running.port).toBe(free);
    expect(logs.filter((m) => m.includes('free port'))).toEqual([]);
  });

  it('does not retry failures other than listening', async () => {
    const attempts: number[] = [];
    const start = (o: StartOptions): Promise<RunningServer> => {
      attempts.push(o.config.port);
      return Promise.reject(new Error('schema is broken'));
    };
    await expect(startWithFallback({ start, log: (m) => logs.push(m) }, options(PREFERRED_PORT))).rejects.toThrow('schema is broken');
    expect(attempts).toEqual([PREFERRED_PORT]);
  });

  it('retries a listen failure exactly once, on port 0', async () => {
    const attempts: number[] = [];
    const start = (o: StartOptions): Promise<RunningServer> => {
      attempts.push(o.config.port);
      return Promise.reject(listenError(`port ${o.config.port} is already in use on 127.0.0.1`));
    };
    await expect(startWithFallback({ start, log: (m) => logs.push(m) }, options(PREFERRED_PORT))).rejects.toThrow('port 0');
    expect(attempts).toEqual([PREFERRED_PORT, 0]);
  });
});
