import { describe, expect, it } from 'vitest';
import { buildMenuTemplate, createDesktopActions } from '../../main/menu.js';
import { clickMenuItem, createFakeElectron, menuItems, type FakeElectron } from './fake-electron.js';

const SERVER = 'http://127.0.0.1:1337';
const DATA = '/home/ada/.config/Hearth';

function actionsOf(fake: FakeElectron, checks: string[] = []) {
  const updates = {
    checkNow: () => {
      checks.push('checkNow');
      return Promise.resolve();
    },
  };
  return createDesktopActions({ serverUrl: SERVER, dataDir: DATA, clipboard: fake.electron.clipboard, shell: fake.electron.shell, updates });
}

describe('desktop actions', () => {
  it('"Copy API URL" puts the content API base URL on the clipboard', () => {
    const fake = createFakeElectron();
    actionsOf(fake).copyApiUrl();
    expect(fake.clipboardTexts).toEqual(['http://127.0.0.1:1337/api']);
  });

  it('"Open data folder" opens the data dir in the file manager', async () => {
    const fake = createFakeElectron();
    await actionsOf(fake).openDataFolder();
    expect(fake.openedPaths).toEqual([DATA]);
  });

  it('"Open data folder" rejects with the reason the system gives', async () => {
    const fake = createFakeElectron();
    fake.shellState.openPathResult = 'Failed to open path';
    await expect(actionsOf(fake).openDataFolder()).rejects.toThrow(`cannot open ${DATA}: Failed to open path`);
  });

  it('"Open in browser" opens the admin UI in the system browser', async () => {
    const fake = createFakeElectron();
    await actionsOf(fake).openInBrowser();
    expect(fake.externalUrls).toEqual(['http://127.0.0.1:1337/admin/']);
  });
});

describe('application menu', () => {
  it('has the three Hearth commands under File, each doing its action when clicked', () => {
    const fake = createFakeElectron();
    const template = buildMenuTemplate(actionsOf(fake), 'linux', () => {});
    const file = template.find((m) => m.label === 'File');
    expect(Array.isArray(file?.submenu) ? file.submenu.map((i) => i.label ?? i.role ?? i.type) : null).toEqual([
      'Copy API URL',
      'Open data folder',
      'Open in browser',
      'separator',
      'quit',
    ]);
    clickMenuItem(template, 'Copy API URL');
    clickMenuItem(template, 'Open data folder');
    clickMenuItem(template, 'Open in browser');
    expect(fake.clipboardTexts).toEqual(['http://127.0.0.1:1337/api']);
    expect(fake.openedPaths).toEqual([DATA]);
    expect(fake.externalUrls).toEqual(['http://127.0.0.1:1337/admin/']);
  });

  it('has "Check for Updates…" under Help, which runs the update check', () => {
    const checks: string[] = [];
    const template = buildMenuTemplate(actionsOf(createFakeElectron(), checks), 'linux', () => {});
    const help = template.find((m) => m.role === 'help');
    expect(Array.isArray(help?.submenu) ? help.submenu.map((i) => i.label) : null).toEqual(['Check for Updates…']);
    clickMenuItem(template, 'Check for Updates…');
    expect(checks).toEqual(['checkNow']);
  });

  it('logs a failed menu command instead of leaving a rejection unhandled', async () => {
    const fake = createFakeElectron();
    fake.shellState.openPathResult = 'No application is registered';
    let log: (message: string) => void = () => {};
    const logged = new Promise<string>((resolve) => (log = resolve));
    clickMenuItem(buildMenuTemplate(actionsOf(fake), 'linux', log), 'Open data folder');
    expect(await logged).toBe(`cannot open ${DATA}: No application is registered`);
  });

  it.each([
    ['linux', ['File', 'editMenu', 'viewMenu', 'windowMenu', 'help']],
    ['win32', ['File', 'editMenu', 'viewMenu', 'windowMenu', 'help']],
    ['darwin', ['appMenu', 'File', 'editMenu', 'viewMenu', 'windowMenu', 'help']],
  ] as const)('on %s the top level is %j (Edit keeps copy/paste shortcuts working)', (platform, top) => {
    const template = buildMenuTemplate(actionsOf(createFakeElectron()), platform, () => {});
    expect(template.map((m) => m.label ?? m.role)).toEqual(top);
    expect(menuItems(template).some((i) => i.role === (platform === 'darwin' ? 'close' : 'quit'))).toBe(true);
  });
});
