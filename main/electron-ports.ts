// The few Electron calls the desktop shell makes, as small structural interfaces: Electron's own
// objects satisfy them (main.ts passes the real module), and the tests pass recording fakes.
import type { BrowserWindowConstructorOptions, MenuItemConstructorOptions } from 'electron';

/** An event whose default action a listener may cancel. */
export interface PreventableEvent {
  preventDefault(): void;
}

/** The parts of Electron's `app` the shell uses. */
export interface AppPort {
  readonly isPackaged: boolean;
  requestSingleInstanceLock(): boolean;
  whenReady(): Promise<void>;
  getPath(name: 'appData' | 'userData'): string;
  setPath(name: 'userData', path: string): void;
  /** The project root in development (where package.json is); inside the package when packaged. */
  getAppPath(): string;
  quit(): void;
  exit(exitCode?: number): void;
  on(event: 'second-instance', listener: () => void): unknown;
  on(event: 'activate', listener: () => void): unknown;
  on(event: 'window-all-closed', listener: () => void): unknown;
  on(event: 'before-quit', listener: (event: PreventableEvent) => void): unknown;
  /** After every window has closed (a page's "Leave?" answered Stay cancels the quit before this). */
  on(event: 'will-quit', listener: (event: PreventableEvent) => void): unknown;
}

/** A navigation about to happen in the window; preventing it keeps the page where it is. */
export interface NavigationEvent extends PreventableEvent {
  readonly url: string;
}

/** The parts of a window's `webContents` the shell uses. */
export interface WebContentsPort {
  setWindowOpenHandler(handler: (details: { readonly url: string }) => { action: 'deny' }): void;
  on(event: 'will-navigate', listener: (event: NavigationEvent) => void): unknown;
  /**
   * A page's `beforeunload` asked to stay while the window closes or reloads; Electron shows no
   * dialog of its own. Preventing the event lets the unload go ahead; otherwise it is cancelled.
   */
  on(event: 'will-prevent-unload', listener: (event: PreventableEvent) => void): unknown;
}

/** The parts of a `BrowserWindow` the shell uses. */
export interface WindowPort {
  readonly webContents: WebContentsPort;
  loadURL(url: string): Promise<void>;
  isMinimized(): boolean;
  restore(): void;
  focus(): void;
  on(event: 'page-title-updated', listener: (event: PreventableEvent) => void): unknown;
  on(event: 'closed', listener: () => void): unknown;
}

/** The `BrowserWindow` class. */
export type WindowConstructor = new (options: BrowserWindowConstructorOptions) => WindowPort;

/** The `Menu` class's two statics. */
export interface MenuPort {
  buildFromTemplate(template: MenuItemConstructorOptions[]): unknown;
  setApplicationMenu(menu: unknown): void;
}

/** What an IPC handler learns about its caller: the frame (and so the page) that invoked it. */
export interface InvokeEventPort {
  readonly senderFrame: { readonly url: string } | null;
}

/** `ipcMain`'s request/response half. */
export interface IpcMainPort {
  handle(channel: string, listener: (event: InvokeEventPort) => unknown): void;
}

/** The parts of `shell` the shell uses. */
export interface ShellPort {
  openExternal(url: string): Promise<void>;
  /** Resolves with an error message, or '' on success. */
  openPath(path: string): Promise<string>;
}

/** The parts of `clipboard` the shell uses. */
export interface ClipboardPort {
  writeText(text: string): void;
}

/** The options of a message box the shell shows (a subset of Electron's MessageBoxOptions). */
export interface MessageBoxPort {
  type: 'none' | 'info' | 'error' | 'question' | 'warning';
  title: string;
  message: string;
  detail?: string;
  buttons: string[];
  defaultId?: number;
  cancelId?: number;
}

/** The parts of `dialog` the shell uses. */
export interface DialogPort {
  showErrorBox(title: string, content: string): void;
  /** Resolves with the index of the button clicked (or cancelId when the box is dismissed). */
  showMessageBox(options: MessageBoxPort): Promise<{ readonly response: number }>;
  /**
   * A box modal to `parent` (a window Electron created) that blocks until answered: the index of the
   * button clicked (or cancelId). For events whose listener must decide before it returns.
   */
  showMessageBoxSync(parent: object, options: MessageBoxPort): number;
}

/** Everything the shell takes from the `electron` module. */
export interface ElectronPorts {
  readonly app: AppPort;
  readonly BrowserWindow: WindowConstructor;
  readonly Menu: MenuPort;
  readonly ipcMain: IpcMainPort;
  readonly shell: ShellPort;
  readonly clipboard: ClipboardPort;
  readonly dialog: DialogPort;
}
