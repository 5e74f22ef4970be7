import type { BrowserWindowConstructorOptions } from 'electron';
import type { ShellPort, WebContentsPort, WindowConstructor, WindowPort } from './electron-ports.js';
import { adminUrl, isWebUrl, sameOrigin, windowTitle } from './paths.js';

/** What the main window needs: the window class, the browser opener, the server URL and the preload file. */
export interface WindowDeps {
  readonly BrowserWindow: WindowConstructor;
  readonly shell: Pick<ShellPort, 'openExternal'>;
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

/** Opens the admin window on `<server>/admin/`, titled with the server URL. */
export function openMainWindow(deps: WindowDeps): WindowPort {
  const window = new deps.BrowserWindow(windowOptions(deps.serverUrl, deps.preload));
  // The page's own <title> would hide the server URL, which the user needs to point clients at.
  window.on('page-title-updated', (event) => event.preventDefault());
  guardNavigation(window.webContents, deps.serverUrl, deps.shell);
  // A failed load shows Chromium's error page; the reason belongs in the log, not an unhandled rejection.
  window.loadURL(adminUrl(deps.serverUrl)).catch((err: unknown) => deps.log(`cannot load the admin UI: ${String(err)}`));
  return window;
}
