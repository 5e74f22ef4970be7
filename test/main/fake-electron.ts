// A recording stand-in for the `electron` module (the Electron binary cannot run under Node): the
// tests pass it where main/ takes Electron, or install it with vi.mock('electron', ...).
import { EventEmitter } from 'node:events';
import type { BrowserWindowConstructorOptions, MenuItemConstructorOptions } from 'electron';
import type { AppPort, InvokeEventPort, MessageBoxPort, NavigationEvent, PreventableEvent, WebContentsPort, WindowPort } from '../../main/electron-ports.js';

/** An event that records whether a listener prevented its default action. */
export class FakeEvent implements PreventableEvent {
  defaultPrevented = false;
  preventDefault(): void {
    this.defaultPrevented = true;
  }
}

/** A navigation event, as `will-navigate` delivers it. */
export class FakeNavigationEvent extends FakeEvent implements NavigationEvent {
  constructor(readonly url: string) {
    super();
  }
}

/** Electron's `app`: paths, the single-instance lock, and quit with its `before-quit` and `will-quit` vetoes. */
export class FakeApp extends EventEmitter implements AppPort {
  isPackaged = true;
  lockGranted = true;
  appPath = '/nonexistent/app';
  readonly paths = new Map<string, string>();
  readonly calls: string[] = [];
  exitCode: number | null = null;
  /** Tries to close every open window, as a quit does; false when one stayed open (its page kept it). */
  closeWindows: () => boolean = () => true;
  private quitted = false;
  private readonly quitWaiters: (() => void)[] = [];

  requestSingleInstanceLock(): boolean {
    this.calls.push('requestSingleInstanceLock');
    return this.lockGranted;
  }
  whenReady(): Promise<void> {
    this.calls.push('whenReady');
    return Promise.resolve();
  }
  getPath(name: 'appData' | 'userData'): string {
    const path = this.paths.get(name);
    if (path === undefined) throw new Error(`fake app has no ${name} path`);
    return path;
  }
  setPath(name: 'userData', path: string): void {
    this.calls.push(`setPath ${name}`);
    this.paths.set(name, path);
  }
  getAppPath(): string {
    return this.appPath;
  }
  /**
   * Like Electron: `before-quit`, then the windows close (a window that stays open cancels the
   * quit), then `will-quit`; the app ends only if nothing held it.
   */
  quit(): void {
    this.calls.push('quit');
    const before = new FakeEvent();
    this.emit('before-quit', before);
    if (before.defaultPrevented || this.quitted || !this.closeWindows()) return;
    const will = new FakeEvent();
    this.emit('will-quit', will);
    if (will.defaultPrevented || this.quitted) return;
    this.quitted = true;
    for (const wake of this.quitWaiters.splice(0)) wake();
  }
  exit(exitCode = 0): void {
    this.calls.push(`exit ${exitCode}`);
    this.exitCode = exitCode;
  }
  hasQuit(): boolean {
    return this.quitted;
  }
  /** Resolves once a quit went through (no listener held it). */
  whenQuit(): Promise<void> {
    return this.quitted ? Promise.resolve() : new Promise((resolve) => this.quitWaiters.push(resolve));
  }
}

type OpenHandler = Parameters<WebContentsPort['setWindowOpenHandler']>[0];

/** A window's webContents: keeps the window-open handler and the navigation and unload listeners. */
export class FakeWebContents extends EventEmitter implements WebContentsPort {
  openHandler: OpenHandler | null = null;
  /** The page has a `beforeunload` listener that asks to stay (the admin UI with unsaved work). */
  pageAsksBeforeUnload = false;
  setWindowOpenHandler(handler: OpenHandler): void {
    this.openHandler = handler;
  }
  /** What a page's `window.open(url)` or `target=_blank` link gets from the handler. */
  requestOpen(url: string): { action: 'deny' } {
    if (this.openHandler === null) throw new Error('no window open handler');
    return this.openHandler({ url });
  }
  /** A navigation the page starts; returns the event so the test sees whether it was prevented. */
  navigate(url: string): FakeNavigationEvent {
    const event = new FakeNavigationEvent(url);
    this.emit('will-navigate', event);
    return event;
  }
  /**
   * The page is about to unload (its window closes or reloads). Like Electron: when the page asks,
   * `will-prevent-unload` decides, and the unload goes ahead only if a listener prevented that event.
   */
  unload(): boolean {
    if (!this.pageAsksBeforeUnload) return true;
    const event = new FakeEvent();
    this.emit('will-prevent-unload', event);
    return event.defaultPrevented;
  }
}

/** A BrowserWindow: its options, loaded URLs, focus calls and title events. */
export class FakeWindow extends EventEmitter implements WindowPort {
  readonly webContents = new FakeWebContents();
  readonly loaded: string[] = [];
  readonly calls: string[] = [];
  minimized = false;
  loadFailure: Error | null = null;
  constructor(readonly options: BrowserWindowConstructorOptions) {
    super();
  }
  loadURL(url: string): Promise<void> {
    this.loaded.push(url);
    return this.loadFailure === null ? Promise.resolve() : Promise.reject(this.loadFailure);
  }
  isMinimized(): boolean {
    return this.minimized;
  }
  restore(): void {
    this.calls.push('restore');
    this.minimized = false;
  }
  focus(): void {
    this.calls.push('focus');
  }
  /** The page sets its <title>; returns the event so the test sees whether it was prevented. */
  pageTitle(): FakeEvent {
    const event = new FakeEvent();
    this.emit('page-title-updated', event);
    return event;
  }
  destroyed = false;
  /** Closes the window unless its page keeps it; returns whether it closed. */
  close(): boolean {
    if (this.destroyed) return true;
    if (!this.webContents.unload()) return false;
    this.destroyed = true;
    this.emit('closed');
    return true;
  }
}

/** A fresh set of fakes with their own records. */
export function createFakeElectron() {
  const windows: FakeWindow[] = [];
  const menus: MenuItemConstructorOptions[][] = [];
  const appliedMenus: unknown[] = [];
  const handlers = new Map<string, (event: InvokeEventPort) => unknown>();
  const externalUrls: string[] = [];
  const openedPaths: string[] = [];
  const clipboardTexts: string[] = [];
  const errorBoxes: { title: string; content: string }[] = [];
  const messageBoxes: MessageBoxPort[] = [];
  /** The window each synchronous (modal) message box was shown on, in the order shown. */
  const modalParents: object[] = [];
  const shellState = { openPathResult: '' };
  /** The button each next message box answers with (the user's clicks); when empty, its cancelId (or 0). */
  const dialogAnswers: number[] = [];
  const messageBoxWaiters: (() => void)[] = [];

  class BrowserWindow extends FakeWindow {
    constructor(options: BrowserWindowConstructorOptions) {
      super(options);
      windows.push(this);
    }
  }
  const app = new FakeApp();
  app.closeWindows = () => windows.every((window) => window.close());
  const answer = (options: MessageBoxPort): number => {
    messageBoxes.push(options);
    for (const wake of messageBoxWaiters.splice(0)) wake();
    return dialogAnswers.shift() ?? options.cancelId ?? 0;
  };
  const electron = {
    app,
    BrowserWindow,
    Menu: {
      buildFromTemplate(template: MenuItemConstructorOptions[]) {
        menus.push(template);
        return { template };
      },
      setApplicationMenu(menu: unknown) {
        appliedMenus.push(menu);
      },
    },
    ipcMain: {
      handle(channel: string, listener: (event: InvokeEventPort) => unknown) {
        if (handlers.has(channel)) throw new Error(`second handler for ${channel}`);
        handlers.set(channel, listener);
      },
    },
    shell: {
      openExternal(url: string) {
        externalUrls.push(url);
        return Promise.resolve();
      },
      openPath(path: string) {
        openedPaths.push(path);
        return Promise.resolve(shellState.openPathResult);
      },
    },
    clipboard: {
      writeText(text: string) {
        clipboardTexts.push(text);
      },
    },
    dialog: {
      showErrorBox(title: string, content: string) {
        errorBoxes.push({ title, content });
      },
      showMessageBox(options: MessageBoxPort) {
        return Promise.resolve({ response: answer(options) });
      },
      showMessageBoxSync(parent: object, options: MessageBoxPort) {
        modalParents.push(parent);
        return answer(options);
      },
    },
  };
  return {
    electron,
    app: electron.app,
    windows,
    menus,
    appliedMenus,
    handlers,
    externalUrls,
    openedPaths,
    clipboardTexts,
    errorBoxes,
    messageBoxes,
    modalParents,
    dialogAnswers,
    shellState,
    /** Resolves once `count` message boxes have been shown. */
    async messageBoxesShown(count: number): Promise<MessageBoxPort[]> {
      while (messageBoxes.length < count) await new Promise<void>((wake) => messageBoxWaiters.push(wake));
      return messageBoxes;
    },
    /** Calls an IPC handler the way ipcRenderer.invoke from a frame at `frameUrl` would. */
    async invoke(channel: string, frameUrl: string | null): Promise<unknown> {
      const handler = handlers.get(channel);
      if (handler === undefined) throw new Error(`no handler for ${channel}`);
      return handler({ senderFrame: frameUrl === null ? null : { url: frameUrl } });
    },
  };
}

/** The fakes and their records. */
export type FakeElectron = ReturnType<typeof createFakeElectron>;

/** Every item of a menu template, submenus flattened. */
export function menuItems(template: readonly MenuItemConstructorOptions[]): MenuItemConstructorOptions[] {
  return template.flatMap((item) => [item, ...(Array.isArray(item.submenu) ? menuItems(item.submenu) : [])]);
}

/** Clicks the item labelled `label`, as Electron would (it passes arguments main/ ignores). */
export function clickMenuItem(template: readonly MenuItemConstructorOptions[], label: string): void {
  const item = menuItems(template).find((i) => i.label === label);
  if (item?.click === undefined) throw new Error(`no clickable menu item "${label}"`);
  Reflect.apply(item.click, undefined, []);
}
