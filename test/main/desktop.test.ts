import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startServer, type RunningServer, type StartOptions } from '../../server/index.js';
import { CHANNELS } from '../../main/channels.js';
import { launchDesktop, runDesktop, type Desktop, type DesktopDeps } from '../../main/desktop.js';
import { clickMenuItem, createFakeElectron, menuItems, type FakeElectron } from './fake-electron.js';
import { createUpdaterSource } from './fake-updater.js';

const PRELOAD = '/opt/hearth/dist/main/preload.cjs';

let appData: string;
let fake: FakeElectron;
let updates: ReturnType<typeof createUpdaterSource>;
let launched: Desktop | null = null;
const logs: string[] = [];

beforeEach(async () => {
  appData = await mkdtemp(join(tmpdir(), 'hearth-main-desktop-'));
  fake = createFakeElectron();
  updates = createUpdaterSource();
  fake.app.paths.set('appData', appData);
  logs.length = 0;
});

afterEach(async () => {
  await launched?.server.close();
  launched = null;
  await rm(appData, { recursive: true, force: true });
});

function deps(overrides: Partial<DesktopDeps> = {}): DesktopDeps {
  return {
    electron: fake.electron,
    startServer,
    env: {},
    preferredPort: 0,
    platform: 'linux',
    arch: 'x64',
    electronVersion: '41.7.1',
    preload: PRELOAD,
    exists: existsSync,
    newSecret: () => 'secret-of-this-launch',
    signals: { once: () => undefined },
    log: (m) => logs.push(m),
    updater: updates.get,
    ...overrides,
  };
}

async function launch(overrides: Partial<DesktopDeps> = {}): Promise<Desktop> {
  launched = await launchDesktop(deps(overrides));
  if (launched === null) throw new Error('the desktop did not launch');
  return launched;
}

/** The one window the app opened. */
function theWindow() {
  expect(fake.windows).toHaveLength(1);
  const [window] = fake.windows;
  if (window === undefined) throw new Error('no window');
  return window;
}

describe('launch', () => {
  it("stores data in the per-user folder Electron calls userData, named Hearth", async () => {
    const desktop = await launch();
    expect(fake.app.getPath('userData')).toBe(join(appData, 'Hearth'));
    expect(desktop.dataDir).toBe(join(appData, 'Hearth'));
    expect(existsSync(join(desktop.dataDir, 'hearth.db'))).toBe(true);
    expect(desktop.server.services.config.schemasDir).toBe(join(appData, 'Hearth', 'schema'));
  });

  it('uses HEARTH_DATA instead when it is set', async () => {
    const custom = join(appData, 'elsewhere');
    const desktop = await launch({ env: { HEARTH_DATA: custom } });
    expect(desktop.dataDir).toBe(custom);
    expect(existsSync(join(custom, 'hearth.db'))).toBe(true);
  });

  it('runs the real server on loopback and opens the window on its admin UI, URL in the title', async () => {
    const desktop = await launch();
    expect(desktop.server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect((await fetch(`${desktop.server.url}/_health`)).status).toBe(204);
    const window = theWindow();
    expect(window.loaded).toEqual([`${desktop.server.url}/admin/`]);
    expect(window.options.title).toBe(`Hearth — ${desktop.server.url}`);
    expect(window.options.webPreferences).toMatchObject({ preload: PRELOAD, contextIsolation: true, sandbox: true, nodeIntegration: false });
    expect(logs).toContain(`Hearth listening on ${desktop.server.url} (data in ${desktop.dataDir})`);
  });

  it('hands the server and the preload the same per-launch secret', async () => {
    const desktop = await launch();
    expect(desktop.server.services.desktopSecret).toBe('secret-of-this-launch');
    expect(await fake.invoke(CHANNELS.getLaunchSecret, `${desktop.server.url}/admin/`)).toBe('secret-of-this-launch');
  });

  it('installs the menu, whose commands act on this server and data dir', async () => {
    const desktop = await launch();
    expect(fake.appliedMenus).toHaveLength(1);
    const [template] = fake.menus;
    if (template === undefined) throw new Error('no menu built');
    expect(menuItems(template).map((i) => i.label)).toEqual(expect.arrayContaining(['Copy API URL', 'Open data folder', 'Open in browser']));
    clickMenuItem(template, 'Copy API URL');
    clickMenuItem(template, 'Open data folder');
    expect(fake.clipboardTexts).toEqual([`${desktop.server.url}/api`]);
    expect(fake.openedPaths).toEqual([desktop.dataDir]);
  });
});

describe('updates', () => {
  it('an installed app checks for updates once on start, never installing on quit unasked', async () => {
    await launch();
    await updates.updater.checked(1);
    expect(updates.updater).toMatchObject({ checks: 1, autoDownload: true, autoInstallOnAppQuit: false });
  });

  it('"Check for Updates…" under Help checks again and says what it found', async () => {
    await launch();
    await updates.updater.checked(1);
    const [template] = fake.menus;
    if (template === undefined) throw new Error('no menu built');
    clickMenuItem(template, 'Check for Updates…');
    const [box] = await fake.messageBoxesShown(1);
    expect(updates.updater.checks).toBe(2);
    expect(box).toMatchObject({ message: 'Hearth 0.1.0 is the newest version.', buttons: ['OK'] });
  });

  it('a downloaded update asks "Restart to update" or "Later"; Restart installs it', async () => {
    await launch();
    await updates.updater.checked(1);
    fake.dialogAnswers.push(0);
    updates.updater.downloaded({ version: '0.2.0' });
    const [box] = await fake.messageBoxesShown(1);
    expect(box).toMatchObject({ message: 'Hearth 0.2.0 is ready to install.', buttons: ['Restart to update', 'Later'], defaultId: 0, cancelId: 1 });
    await vi.waitFor(() => expect(updates.updater.installs).toBe(1));
  });

  it.each([
    ['in development (not packaged)', false, null, 'Updates are off in development'],
    ['when HEARTH_DATA points elsewhere', true, 'elsewhere', 'Updates are off while HEARTH_DATA is set'],
  ])('are off %s: no updater is created, and the menu item says why', async (_, isPackaged, dataDir, reason) => {
    fake.app.isPackaged = isPackaged;
    fake.app.appPath = appData;
    const env = dataDir === null ? {} : { HEARTH_DATA: join(appData, dataDir) };
    await launch({ env, startServer: (o) => startServer({ ...o, nativeBinding: undefined }), exists: () => true });
    const [template] = fake.menus;
    if (template === undefined) throw new Error('no menu built');
    clickMenuItem(template, 'Check for Updates…');
    const [box] = await fake.messageBoxesShown(1);
    expect(box).toMatchObject({ message: 'Updates are off for this copy.' });
    expect(box?.detail).toContain(reason);
    expect(updates.taken).toBe(0);
  });
});

describe('single instance', () => {
  it('a second instance quits at once, before starting a server or opening a window', async () => {
    fake.app.lockGranted = false;
    const starts: StartOptions[] = [];
    const result = await launchDesktop(deps({ startServer: (o) => (starts.push(o), startServer(o)) }));
    expect(result).toBeNull();
    expect(starts).toEqual([]);
    expect(fake.windows).toEqual([]);
    expect(fake.app.calls).toEqual(['setPath userData', 'requestSingleInstanceLock', 'quit']);
  });

  it('the lock is taken in the Hearth folder (userData is set first)', async () => {
    await launch();
    expect(fake.app.calls.slice(0, 2)).toEqual(['setPath userData', 'requestSingleInstanceLock']);
  });

  it("the first instance brings its window forward when a second one starts", async () => {
    await launch();
    const window = theWindow();
    window.minimized = true;
    fake.app.emit('second-instance');
    expect(window.calls).toEqual(['restore', 'focus']);
    expect(fake.windows).toHaveLength(1);
  });

  it('reopens the window when asked after it was closed (macOS keeps running)', async () => {
    const desktop = await launch({ platform: 'darwin' });
    theWindow().close();
    fake.app.emit('window-all-closed');
    expect(desktop.window()).toBeNull();
    expect(fake.app.calls).not.toContain('quit');
    fake.app.emit('activate');
    expect(fake.windows).toHaveLength(2);
    expect(fake.windows[1]?.loaded).toEqual([`${desktop.server.url}/admin/`]);
  });
});

describe('native binding', () => {
  it('a development run passes the Electron build in .electron-native to the server', async () => {
    fake.app.isPackaged = false;
    fake.app.appPath = '/opt/hearth-app';
    const starts: StartOptions[] = [];
    const start = (o: StartOptions): Promise<RunningServer> => {
      starts.push(o);
      return startServer({ ...o, nativeBinding: undefined });
    };
    await launch({ startServer: start, exists: (p) => p.endsWith('better_sqlite3.node') });
    expect(starts.map((o) => o.nativeBinding)).toEqual([join('/opt/hearth-app', '.electron-native', '41.7.1-linux-x64', 'better_sqlite3.node')]);
  });

  it('a packaged app passes none (the addon was rebuilt in place)', async () => {
    const starts: StartOptions[] = [];
    await launch({ startServer: (o) => (starts.push(o), startServer(o)) });
    expect(starts.map((o) => 'nativeBinding' in o)).toEqual([false]);
  });

  it('a missing Electron build stops the launch with a dialog and exit code 1', async () => {
    fake.app.isPackaged = false;
    const result = await runDesktop(deps({ exists: () => false }));
    expect(result).toBeNull();
    expect(fake.errorBoxes).toEqual([
      {
        title: 'Hearth cannot start',
        content: expect.stringMatching(/^better-sqlite3 built for Electron is missing at .*better_sqlite3\.node; run `npm start`, which builds it$/),
      },
    ]);
    expect(fake.app.exitCode).toBe(1);
    expect(fake.windows).toEqual([]);
  });
});

describe('shutdown', () => {
  it('quitting closes the server and the database before the app ends', async () => {
    const desktop = await launch();
    const wal = join(desktop.dataDir, 'hearth.db-wal');
    expect(existsSync(wal)).toBe(true);
    fake.app.quit();
    expect(fake.app.hasQuit()).toBe(false);
    await fake.app.whenQuit();
    await expect(fetch(`${desktop.server.url}/_health`)).rejects.toThrow();
    await expect(sql`select 1`.execute(desktop.server.services.database.db)).rejects.toThrow();
    // SQLite folds the WAL back into the database and deletes it when the last connection closes cleanly.
    expect(existsSync(wal)).toBe(false);
  });

  it('quitting with unsaved work asks first: Stay keeps the window and a working server', async () => {
    const desktop = await launch();
    theWindow().webContents.pageAsksBeforeUnload = true;
    fake.dialogAnswers.push(1);
    fake.app.quit();
    const boxes = await fake.messageBoxesShown(1);
    expect(boxes.map((box) => box.message)).toEqual(['Leave without saving?']);
    // Give a server close that the quit may have started time to finish before looking.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(fake.app.hasQuit()).toBe(false);
    expect(desktop.window()).toBe(theWindow());
    expect((await fetch(`${desktop.server.url}/_health`)).status).toBe(204);
  });

  it('quitting with unsaved work and Leave closes the window, then the server', async () => {
    const desktop = await launch();
    theWindow().webContents.pageAsksBeforeUnload = true;
    fake.dialogAnswers.push(0);
    fake.app.quit();
    await fake.app.whenQuit();
    expect(desktop.window()).toBeNull();
    await expect(sql`select 1`.execute(desktop.server.services.database.db)).rejects.toThrow();
  });

  it('closing the last window quits on Linux and Windows, through the same clean path', async () => {
    const desktop = await launch({ platform: 'win32' });
    theWindow().close();
    fake.app.emit('window-all-closed');
    await fake.app.whenQuit();
    await expect(sql`select 1`.execute(desktop.server.services.database.db)).rejects.toThrow();
  });
});
