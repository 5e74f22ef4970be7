import type { RunningServer, StartOptions } from '../server/index.js';
import type { ElectronPorts, WindowPort } from './electron-ports.js';
import { registerIpc } from './ipc.js';
import { buildMenuTemplate, createDesktopActions, type DesktopActions } from './menu.js';
import { chooseNativeBinding } from './native-binding.js';
import { dataDirFor, PRODUCT_NAME, userDataDir } from './paths.js';
import { installShutdown, type SignalSource } from './shutdown.js';
import { desktopConfig, startWithFallback } from './start-server.js';
import { createUpdates, updatePolicy, type UpdaterPort } from './updater.js';
import { openMainWindow } from './window.js';

/** Everything the desktop shell depends on; main.ts passes the real ones. */
export interface DesktopDeps {
  readonly electron: ElectronPorts;
  readonly startServer: (options: StartOptions) => Promise<RunningServer>;
  readonly env: NodeJS.ProcessEnv;
  /** The port tried first (1337; the tests use 0 to stay out of each other's way). */
  readonly preferredPort: number;
  readonly platform: NodeJS.Platform;
  readonly arch: string;
  /** `process.versions.electron`: names the Electron build of better-sqlite3 in development. */
  readonly electronVersion: string | undefined;
  /** The compiled preload script's absolute path. */
  readonly preload: string;
  readonly exists: (path: string) => boolean;
  /** A fresh unguessable secret, once per launch. */
  readonly newSecret: () => string;
  readonly signals: SignalSource;
  readonly log: (message: string) => void;
  /** electron-updater's `autoUpdater`, read only when updates are on (reading it creates the platform's updater). */
  readonly updater: () => UpdaterPort;
}

/** A launched desktop app. */
export interface Desktop {
  readonly server: RunningServer;
  readonly dataDir: string;
  readonly launchSecret: string;
  readonly actions: DesktopActions;
  /** The admin window, or null while none is open (macOS keeps running without one). */
  window(): WindowPort | null;
}

function nativeBindingFor(deps: DesktopDeps): string | undefined {
  const { app } = deps.electron;
  const choice = chooseNativeBinding({
    isPackaged: app.isPackaged,
    appRoot: app.getAppPath(),
    electronVersion: deps.electronVersion,
    platform: deps.platform,
    arch: deps.arch,
    exists: deps.exists,
  });
  if (choice.kind === 'missing') throw new Error(`better-sqlite3 built for Electron is missing at ${choice.path}; run \`npm start\`, which builds it`);
  return choice.kind === 'file' ? choice.path : undefined;
}

async function startDesktopServer(deps: DesktopDeps, dataDir: string, launchSecret: string): Promise<RunningServer> {
  const nativeBinding = nativeBindingFor(deps);
  const options: StartOptions = {
    config: desktopConfig(dataDir, deps.env, deps.preferredPort),
    log: deps.log,
    desktopSecret: launchSecret,
    ...(nativeBinding === undefined ? {} : { nativeBinding }),
  };
  return startWithFallback({ start: deps.startServer, log: deps.log }, options);
}

/** Wires the running server into Electron: shutdown, IPC, menu and the window; returns the window accessor. */
function wireShell(deps: DesktopDeps, server: RunningServer, actions: DesktopActions, launchSecret: string): () => WindowPort | null {
  const { app, BrowserWindow, Menu, ipcMain, shell, dialog } = deps.electron;
  installShutdown({ app, close: () => server.close(), signals: deps.signals, log: deps.log });
  registerIpc({ ipcMain, serverUrl: server.url, launchSecret, actions });
  Menu.setApplicationMenu(Menu.buildFromTemplate(buildMenuTemplate(actions, deps.platform, deps.log)));
  let window: WindowPort | null = null;
  const show = () => {
    if (window === null) {
      const opened = openMainWindow({ BrowserWindow, shell, dialog, serverUrl: server.url, preload: deps.preload, log: deps.log });
      opened.on('closed', () => (window = null));
      window = opened;
      return;
    }
    if (window.isMinimized()) window.restore();
    window.focus();
  };
  show();
  app.on('second-instance', show);
  app.on('activate', show);
  app.on('window-all-closed', () => {
    if (deps.platform !== 'darwin') app.quit();
  });
  return () => window;
}

/**
 * Launches the desktop app: one instance per user, the server in-process on 127.0.0.1:1337 (or a
 * free port), the admin window on it. Resolves null when another instance already runs.
 */
export async function launchDesktop(deps: DesktopDeps): Promise<Desktop | null> {
  const { app } = deps.electron;
  // Before the lock: the lock lives in userData, which must be the same folder in development and packaged.
  app.setPath('userData', userDataDir(app.getPath('appData')));
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return null;
  }
  await app.whenReady();
  const dataDir = dataDirFor(deps.env, app.getPath('userData'));
  const launchSecret = deps.newSecret();
  const server = await startDesktopServer(deps, dataDir, launchSecret);
  const updates = createUpdates({
    policy: updatePolicy({ isPackaged: app.isPackaged, env: deps.env }),
    updater: deps.updater,
    dialog: deps.electron.dialog,
    log: deps.log,
  });
  const actions = createDesktopActions({ serverUrl: server.url, dataDir, clipboard: deps.electron.clipboard, shell: deps.electron.shell, updates });
  try {
    const window = wireShell(deps, server, actions, launchSecret);
    deps.log(`${PRODUCT_NAME} listening on ${server.url} (data in ${dataDir})`);
    void updates.checkOnStart();
    return { server, dataDir, launchSecret, actions, window };
  } catch (err) {
    await server.close();
    throw err;
  }
}

/** Launches the app; a failure to start is shown in a dialog and ends the app with exit code 1. */
export async function runDesktop(deps: DesktopDeps): Promise<Desktop | null> {
  try {
    return await launchDesktop(deps);
  } catch (err) {
    deps.log(`cannot start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    deps.electron.dialog.showErrorBox(`${PRODUCT_NAME} cannot start`, err instanceof Error ? err.message : String(err));
    deps.electron.app.exit(1);
    return null;
  }
}
