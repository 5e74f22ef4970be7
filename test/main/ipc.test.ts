import { describe, expect, it } from 'vitest';
import { CHANNELS } from '../../main/channels.js';
import { registerIpc } from '../../main/ipc.js';
import { createDesktopActions } from '../../main/menu.js';
import { createFakeElectron } from './fake-electron.js';

const SERVER = 'http://127.0.0.1:1337';
const DATA = '/home/ada/.config/Hearth';

function setUp() {
  const fake = createFakeElectron();
  const updates = { checkNow: () => Promise.resolve() };
  const actions = createDesktopActions({ serverUrl: SERVER, dataDir: DATA, clipboard: fake.electron.clipboard, shell: fake.electron.shell, updates });
  registerIpc({ ipcMain: fake.electron.ipcMain, serverUrl: SERVER, launchSecret: 'per-launch-secret', actions });
  return fake;
}

describe('IPC handlers', () => {
  it('handle exactly the preload channels', () => {
    expect([...setUp().handlers.keys()].sort()).toEqual(Object.values(CHANNELS).sort());
  });

  it('give the launch secret to the admin page', async () => {
    expect(await setUp().invoke(CHANNELS.getLaunchSecret, `${SERVER}/admin/`)).toBe('per-launch-secret');
  });

  it.each([
    ['another origin', 'https://evil.example/'],
    ['another port', 'http://127.0.0.1:1338/admin/'],
    ['a local file', 'file:///tmp/page.html'],
    ['an unknown frame', null],
  ])('refuse the secret to %s', async (_name, frame) => {
    await expect(setUp().invoke(CHANNELS.getLaunchSecret, frame)).rejects.toThrow(/refused an IPC call/);
  });

  it('open the data folder for the admin page, and only for it', async () => {
    const fake = setUp();
    await expect(fake.invoke(CHANNELS.openDataFolder, `${SERVER}/admin/settings`)).resolves.toBeUndefined();
    await expect(fake.invoke(CHANNELS.openDataFolder, 'https://evil.example/')).rejects.toThrow(/refused/);
    expect(fake.openedPaths).toEqual([DATA]);
  });

  it('pass a failure to open the folder back to the renderer', async () => {
    const fake = setUp();
    fake.shellState.openPathResult = 'Failed to open path';
    await expect(fake.invoke(CHANNELS.openDataFolder, `${SERVER}/admin/`)).rejects.toThrow('Failed to open path');
  });
});
