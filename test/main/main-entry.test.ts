// The real entry point, main/main.ts, with the `electron` module replaced by recording fakes: the
// wiring of Electron, the server, the process and the compiled file layout, end to end.
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CHANNELS } from '../../main/channels.js';
import { PREFERRED_PORT } from '../../main/start-server.js';
import { clickMenuItem } from './fake-electron.js';

const fake = await vi.hoisted(async () => (await import('./fake-electron.js')).createFakeElectron());
vi.mock('electron', () => fake.electron);
// electron-updater's autoUpdater needs a packaged Electron app and the network: a recording fake instead.
const updater = await vi.hoisted(async () => new (await import('./fake-updater.js')).FakeUpdater());
vi.mock('electron-updater', () => ({ default: { autoUpdater: updater } }));

/** Holds 127.0.0.1:1337 so the launch must fall back; if another program holds it, that does the same. */
function holdPreferredPort(): Promise<Server | null> {
  return new Promise((resolvePort, reject) => {
    const blocker = createServer();
    blocker.once('error', (err: NodeJS.ErrnoException) => (err.code === 'EADDRINUSE' ? resolvePort(null) : reject(err)));
    blocker.listen(PREFERRED_PORT, '127.0.0.1', () => resolvePort(blocker));
  });
}

let appData: string;
let blocker: Server | null;

beforeAll(async () => {
  appData = await mkdtemp(join(tmpdir(), 'hearth-main-entry-'));
  fake.app.paths.set('appData', appData);
  for (const name of ['HEARTH_DATA', 'DATABASE_URL', 'UPLOAD_PROVIDER', 'HOST', 'PORT']) vi.stubEnv(name, '');
  blocker = await holdPreferredPort();
});

afterAll(async () => {
  vi.unstubAllEnvs();
  await new Promise<void>((done) => (blocker ? blocker.close(() => done()) : done()));
  await rm(appData, { recursive: true, force: true });
});

describe('main.ts', () => {
  it('launches, serves the admin window from a fallback port, and shuts down cleanly on quit', async () => {
    const { desktop } = await import('../../main/main.js');
    const launched = await desktop;
    if (launched === null) throw new Error(`launch failed: ${JSON.stringify(fake.errorBoxes)}`);
    const { server, dataDir } = launched;

    expect(server.port).not.toBe(PREFERRED_PORT);
    expect(dataDir).toBe(join(appData, 'Hearth'));
    expect(existsSync(join(dataDir, 'hearth.db'))).toBe(true);

    const [window] = fake.windows;
    expect(window?.loaded).toEqual([`${server.url}/admin/`]);
    expect(window?.options.webPreferences).toEqual({
      preload: resolve(import.meta.dirname, '../../main/preload.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
    });

    const secret = await fake.invoke(CHANNELS.getLaunchSecret, `${server.url}/admin/`);
    expect(secret).toMatch(/^[\w-]{43}$/);
    expect(server.services.desktopSecret).toBe(secret);

    const [template] = fake.menus;
    if (template === undefined) throw new Error('no menu');
    clickMenuItem(template, 'Open in browser');
    expect(fake.externalUrls).toEqual([`${server.url}/admin/`]);

    // The fake app is packaged and HEARTH_DATA is unset: electron-updater's autoUpdater checks once on start.
    await updater.checked(1);
    expect(updater).toMatchObject({ checks: 1, autoDownload: true, autoInstallOnAppQuit: false });

    fake.app.quit();
    await fake.app.whenQuit();
    await expect(sql`select 1`.execute(server.services.database.db)).rejects.toThrow();
    await expect(fetch(`${server.url}/_health`)).rejects.toThrow();
  });
});
