import type { MenuItemConstructorOptions } from 'electron';
import type { ClipboardPort, ShellPort } from './electron-ports.js';
import { adminUrl, apiUrl } from './paths.js';
import type { Updates } from './updater.js';

/** The desktop's own commands, shared by the menu and the preload bridge. */
export interface DesktopActions {
  /** Puts the content API's base URL (`<server>/api`) on the clipboard. */
  copyApiUrl(): void;
  /** Opens the data folder in the system file manager; rejects with the system's reason. */
  openDataFolder(): Promise<void>;
  /** Opens the admin UI in the system browser. */
  openInBrowser(): Promise<void>;
  /** "Check for Updates…": looks for a newer release and says what it found (or why updates are off). */
  checkForUpdates(): Promise<void>;
}

/** What the actions act on. */
export interface ActionDeps {
  readonly serverUrl: string;
  readonly dataDir: string;
  readonly clipboard: ClipboardPort;
  readonly shell: ShellPort;
  readonly updates: Pick<Updates, 'checkNow'>;
}

/** The desktop's commands bound to this server and data folder. */
export function createDesktopActions(deps: ActionDeps): DesktopActions {
  return {
    copyApiUrl: () => deps.clipboard.writeText(apiUrl(deps.serverUrl)),
    async openDataFolder() {
      const failure = await deps.shell.openPath(deps.dataDir);
      if (failure !== '') throw new Error(`cannot open ${deps.dataDir}: ${failure}`);
    },
    openInBrowser: () => deps.shell.openExternal(adminUrl(deps.serverUrl)),
    checkForUpdates: () => deps.updates.checkNow(),
  };
}

/** The application menu: Hearth's commands under File, the standard Edit, View and Window menus, then Help with the update check. */
export function buildMenuTemplate(actions: DesktopActions, platform: NodeJS.Platform, log: (message: string) => void): MenuItemConstructorOptions[] {
  const isMac = platform === 'darwin';
  const report = (promise: Promise<void>) => promise.catch((err: unknown) => log(err instanceof Error ? err.message : String(err)));
  const file: MenuItemConstructorOptions = {
    label: 'File',
    submenu: [
      { label: 'Copy API URL', click: () => actions.copyApiUrl() },
      { label: 'Open data folder', click: () => void report(actions.openDataFolder()) },
      { label: 'Open in browser', click: () => void report(actions.openInBrowser()) },
      { type: 'separator' },
      isMac ? { role: 'close' } : { role: 'quit' },
    ],
  };
  const help: MenuItemConstructorOptions = {
    role: 'help',
    submenu: [{ label: 'Check for Updates…', click: () => void report(actions.checkForUpdates()) }],
  };
  const appMenu: MenuItemConstructorOptions[] = isMac ? [{ role: 'appMenu' }] : [];
  return [...appMenu, file, { role: 'editMenu' }, { role: 'viewMenu' }, { role: 'windowMenu' }, help];
}
