import { describe, expect, it } from 'vitest';
import { LEAVE_QUESTION, openMainWindow } from '../../main/window.js';
import { createFakeElectron, type FakeElectron, type FakeWindow } from './fake-electron.js';

const SERVER = 'http://127.0.0.1:40123';
const PRELOAD = '/opt/hearth/dist/main/preload.cjs';

function open(fake: FakeElectron, logs: string[] = []): FakeWindow {
  openMainWindow({ BrowserWindow: fake.electron.BrowserWindow, shell: fake.electron.shell, dialog: fake.electron.dialog, serverUrl: SERVER, preload: PRELOAD, log: (m) => logs.push(m) });
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
    openMainWindow({ BrowserWindow: FailingWindow, shell: fake.electron.shell, dialog: fake.electron.dialog, serverUrl: SERVER, preload: PRELOAD, log });
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

describe('closing with unsaved work', () => {
  /** A window whose page has unsaved work (its beforeunload asks). */
  function dirtyWindow(fake: FakeElectron): FakeWindow {
    const window = open(fake);
    window.webContents.pageAsksBeforeUnload = true;
    return window;
  }

  it('asks on the window: Leave without saving? with Leave and Stay, Stay by default and on Esc', () => {
    const fake = createFakeElectron();
    const window = dirtyWindow(fake);
    window.close();
    expect(fake.messageBoxes).toEqual([
      {
        type: 'question',
        title: 'Leave without saving?',
        message: 'Leave without saving?',
        detail: 'You have unsaved changes.',
        buttons: ['Leave', 'Stay'],
        defaultId: 1,
        cancelId: 1,
      },
    ]);
    expect(fake.modalParents).toEqual([window]);
    expect(LEAVE_QUESTION.buttons[LEAVE_QUESTION.cancelId ?? -1]).toBe('Stay');
  });

  it('Leave lets the close proceed', () => {
    const fake = createFakeElectron();
    const window = dirtyWindow(fake);
    let closed = false;
    window.on('closed', () => (closed = true));
    fake.dialogAnswers.push(0);
    expect(window.close()).toBe(true);
    expect(closed).toBe(true);
  });

  it('Stay keeps the window open, and the next close asks again', () => {
    const fake = createFakeElectron();
    const window = dirtyWindow(fake);
    let closed = false;
    window.on('closed', () => (closed = true));
    fake.dialogAnswers.push(1);
    expect(window.close()).toBe(false);
    expect(closed).toBe(false);
    fake.dialogAnswers.push(0);
    expect(window.close()).toBe(true);
    expect(fake.messageBoxes).toHaveLength(2);
  });

  it('dismissing the box (Esc, the close button) stays', () => {
    const fake = createFakeElectron();
    expect(dirtyWindow(fake).close()).toBe(false);
    expect(fake.messageBoxes).toHaveLength(1);
  });

  it('a page without unsaved work closes without a question', () => {
    const fake = createFakeElectron();
    expect(open(fake).close()).toBe(true);
    expect(fake.messageBoxes).toEqual([]);
  });
});
