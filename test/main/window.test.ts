import { describe, expect, it } from 'vitest';
import { openMainWindow } from '../../main/window.js';
import { createFakeElectron, type FakeElectron, type FakeWindow } from './fake-electron.js';

const SERVER = 'http://127.0.0.1:40123';
const PRELOAD = '/opt/hearth/dist/main/preload.cjs';

function open(fake: FakeElectron, logs: string[] = []): FakeWindow {
  openMainWindow({ BrowserWindow: fake.electron.BrowserWindow, shell: fake.electron.shell, serverUrl: SERVER, preload: PRELOAD, log: (m) => logs.push(m) });
  const [window] = fake.windows;
  if (window === undefined || fake.windows.length !== 1) throw new Error('expected exactly one window');
  return window;
}

describe('the admin window', () => {
  it('loads the admin UI from the server and shows the server URL in its title', () => {
    const window = open(createFakeElectron());
    expect(window.loaded).toEqual([`${SERVER}/admin/`]);
    expect(window.options.title).toBe(`Hearth — ${SERVER}`);
  });

  it('runs the page isolated and sandboxed, with the preload as its only bridge', () => {
    const window = open(createFakeElectron());
    expect(window.options.webPreferences).toEqual({
      preload: PRELOAD,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
    });
  });

  it("keeps the server URL in the title over the page's own <title>", () => {
    expect(open(createFakeElectron()).pageTitle().defaultPrevented).toBe(true);
  });

  it('logs a failed load instead of leaving a rejection unhandled', async () => {
    const fake = createFakeElectron();
    let log: (message: string) => void = () => {};
    const logged = new Promise<string>((resolve) => (log = resolve));
    class FailingWindow extends fake.electron.BrowserWindow {
      override loadURL(url: string): Promise<void> {
        this.loadFailure = new Error('ERR_CONNECTION_REFUSED');
        return super.loadURL(url);
      }
    }
    openMainWindow({ BrowserWindow: FailingWindow, shell: fake.electron.shell, serverUrl: SERVER, preload: PRELOAD, log });
    expect(await logged).toBe('cannot load the admin UI: Error: ERR_CONNECTION_REFUSED');
  });
});

describe('links leaving the app', () => {
  it.each([
    ['https://docs.strapi.io/cms/api/rest', ['https://docs.strapi.io/cms/api/rest']],
    [`${SERVER}/admin/other`, [`${SERVER}/admin/other`]],
    ['file:///etc/passwd', []],
    ['javascript:alert(1)', []],
  ])('a new window for %s is denied; http(s) opens in the system browser', (url, opened) => {
    const fake = createFakeElectron();
    const window = open(fake);
    expect(window.webContents.requestOpen(url)).toEqual({ action: 'deny' });
    expect(fake.externalUrls).toEqual(opened);
  });

  it.each([
    [`${SERVER}/admin/content-manager`, false, []],
    [`${SERVER}/uploads/a.png`, false, []],
    ['https://strapi.io/', true, ['https://strapi.io/']],
    ['http://127.0.0.1:1337/admin/', true, ['http://127.0.0.1:1337/admin/']],
    ['file:///home/ada/secrets.txt', true, []],
  ])('navigating to %s: prevented=%s, opened outside=%j', (url, prevented, opened) => {
    const fake = createFakeElectron();
    const window = open(fake);
    expect(window.webContents.navigate(url).defaultPrevented).toBe(prevented);
    expect(fake.externalUrls).toEqual(opened);
  });
});
