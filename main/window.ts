import type { BrowserWindowConstructorOptions } from 'electron';
import type { DialogPort, MessageBoxPort, ShellPort, WebContentsPort, WindowConstructor, WindowPort } from './electron-ports.js';
import { adminUrl, isWebUrl, sameOrigin, windowTitle } from './paths.js';

/** What the main window needs: the window class, the browser opener, dialogs, the server URL and the preload file. */
export interface WindowDeps {
  readonly BrowserWindow: WindowConstructor;
  readonly shell: Pick<ShellPort, 'openExternal'>;
  readonly dialog: Pick<DialogPort, 'showMessageBoxSync'>;
  readonly serverUrl: string;
  readonly preload: string;
  readonly log: (message: string) => void;
}

/** The window's options: the renderer is an ordinary sandboxed web page with one preload bridge. */
export function windowOptions(serverUrl: string, preload: string): BrowserWindowConstructorOptions {
  return {
    width: 1280,
    height: 820,
    minWidth: 800,
    minHeight: 560,
    title: windowTitle(serverUrl),
    webPreferences: {
      preload,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
    },
  };
}

/**
 * Keeps the window on the server: new windows are refused, and links to other sites (in a new
 * window or in place) open in the system browser instead. Only http(s) URLs leave the app.
 */
export function guardNavigation(webContents: WebContentsPort, serverUrl: string, shell: Pick<ShellPort, 'openExternal'>): void {
  const openOutside = (url: string) => {
    if (isWebUrl(url)) void shell.openExternal(url);
  };
  webContents.setWindowOpenHandler(({ url }) => {
    openOutside(url);
    return { action: 'deny' };
  });
  webContents.on('will-navigate', (event) => {
    if (sameOrigin(event.url, serverUrl)) return;
    event.preventDefault();
    openOutside(event.url);
  });
}

/** The question asked when a page with unsaved work is closed or reloaded: Leave (0) or Stay (1, the default). */
export const LEAVE_QUESTION: MessageBoxPort = {
  type: 'question',
  title: 'Leave without saving?',
  message: 'Leave without saving?',
  detail: 'You have unsaved changes.',
  buttons: ['Leave', 'Stay'],
  defaultId: 1,
  cancelId: 1,
};

/**
 * Asks before a page's unsaved work is lost: the admin UI's `beforeunload` asks while a form is
 * dirty, and Electron then cancels the close or reload without a word unless the main process asks
 * the user. Leave lets the unload go ahead; Stay (or dismissing the box) keeps the page.
 */
export function confirmUnload(window: WindowPort, dialog: Pick<DialogPort, 'showMessageBoxSync'>): void {
  window.webContents.on('will-prevent-unload', (event) => {
    // Synchronous: Electron reads the event's verdict when the listener returns.
    if (dialog.showMessageBoxSync(window, LEAVE_QUESTION) === 0) event.preventDefault();
  });
}

/** Opens the admin window on `<server>/admin/`, titled with the server URL. */
export function openMainWindow(deps: WindowDeps): WindowPort {
  const window = new deps.BrowserWindow(windowOptions(deps.serverUrl, deps.preload));
  // The page's own <title> would hide the server URL, which the user needs to point clients at.
  window.on('page-title-updated', (event) => event.preventDefault());
  guardNavigation(window.webContents, deps.serverUrl, deps.shell);
  confirmUnload(window, deps.dialog);
  // A failed load shows Chromium's error page; the reason belongs in the log, not an unhandled rejection.
  window.loadURL(adminUrl(deps.serverUrl)).catch((err: unknown) => deps.log(`cannot load the admin UI: ${String(err)}`));
  return window;
}
