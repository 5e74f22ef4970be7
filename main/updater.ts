// Updates of an installed app from the project's GitHub releases (electron-updater reads the feed
// electron-builder baked into the package as app-update.yml). The updater downloads in the
// background and installs only when the user says "Restart to update".
import type { DialogPort, MessageBoxPort } from './electron-ports.js';
import { PRODUCT_NAME } from './paths.js';

/** What electron-updater says about a release. */
export interface ReleaseInfo {
  readonly version: string;
}

/** The parts of electron-updater's `autoUpdater` the shell uses; main.ts passes the real one. */
export interface UpdaterPort {
  autoDownload: boolean;
  autoInstallOnAppQuit: boolean;
  /** Resolves null when the updater is inactive (electron-updater's own development check). */
  checkForUpdates(): Promise<{ readonly isUpdateAvailable: boolean; readonly updateInfo: ReleaseInfo } | null>;
  quitAndInstall(): void;
  on(event: 'update-downloaded', listener: (info: ReleaseInfo) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
}

/** Whether this copy looks for updates, and why not. */
export type UpdatePolicy = { readonly enabled: true } | { readonly enabled: false; readonly reason: string };

/**
 * Updates are for the installed app on its own data: not in development (`npm start`, where
 * `app.isPackaged` is false) and not when HEARTH_DATA points the app at another data folder (a
 * portable copy, a test or a second setup should not replace the installed program).
 */
export function updatePolicy(args: { readonly isPackaged: boolean; readonly env: NodeJS.ProcessEnv }): UpdatePolicy {
  if (!args.isPackaged) return { enabled: false, reason: 'Updates are off in development: this copy runs from source (npm start).' };
  const dataDir = args.env.HEARTH_DATA;
  if (dataDir !== undefined && dataDir !== '') {
    return { enabled: false, reason: `Updates are off while HEARTH_DATA is set (data in ${dataDir}). Start Hearth without it to update.` };
  }
  return { enabled: true };
}

/** The update commands the menu offers. */
export interface Updates {
  readonly policy: UpdatePolicy;
  /** The check on start: quiet (a failure is only logged, offline is normal); does nothing when updates are off. */
  checkOnStart(): Promise<void>;
  /** "Check for Updates…": says what it found, or why updates are off. */
  checkNow(): Promise<void>;
}

/** What the updates need: the policy, the updater (taken only when updates are on), dialogs and a log. */
export interface UpdatesDeps {
  readonly policy: UpdatePolicy;
  /** Lazy: reading electron-updater's `autoUpdater` creates the platform's updater. */
  readonly updater: () => UpdaterPort;
  readonly dialog: Pick<DialogPort, 'showMessageBox'>;
  readonly log: (message: string) => void;
}

/** The buttons of the "update ready" question, in order: the first installs. */
export const RESTART_BUTTONS = ['Restart to update', 'Later'] as const;

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** Wires the updater once: downloads in the background, asks before installing, never installs on quit unasked. */
function configure(deps: UpdatesDeps): UpdaterPort {
  const updater = deps.updater();
  updater.autoDownload = true;
  // electron-updater would otherwise install a downloaded update whenever the app quits.
  updater.autoInstallOnAppQuit = false;
  let asking = false;
  updater.on('error', (err) => deps.log(`update failed: ${messageOf(err)}`));
  updater.on('update-downloaded', (info) => {
    if (asking) return;
    asking = true;
    const question: MessageBoxPort = {
      type: 'info',
      title: 'Update ready',
      message: `${PRODUCT_NAME} ${info.version} is ready to install.`,
      detail: `Restart ${PRODUCT_NAME} to update; your content and settings stay where they are. Choose Later to keep working: you will be asked again when ${PRODUCT_NAME} next starts.`,
      buttons: [...RESTART_BUTTONS],
      defaultId: 0,
      cancelId: 1,
    };
    deps.dialog
      .showMessageBox(question)
      .then(({ response }) => {
        if (response === 0) updater.quitAndInstall();
      })
      .catch((err: unknown) => deps.log(`cannot ask about the update: ${messageOf(err)}`))
      .finally(() => (asking = false));
  });
  return updater;
}

/** The app's updates under a policy; the updater is created on the first check, and only when updates are on. */
export function createUpdates(deps: UpdatesDeps): Updates {
  let updater: UpdaterPort | null = null;
  const ready = (): UpdaterPort => (updater ??= configure(deps));
  const tell = (type: MessageBoxPort['type'], message: string, detail?: string) =>
    deps.dialog.showMessageBox({ type, title: 'Check for Updates', message, ...(detail === undefined ? {} : { detail }), buttons: ['OK'] }).then(() => undefined);
  return {
    policy: deps.policy,
    async checkOnStart() {
      if (!deps.policy.enabled) return;
      try {
        await ready().checkForUpdates();
      } catch (err) {
        deps.log(`update check failed: ${messageOf(err)}`);
      }
    },
    async checkNow() {
      if (!deps.policy.enabled) return tell('info', 'Updates are off for this copy.', deps.policy.reason);
      let result: Awaited<ReturnType<UpdaterPort['checkForUpdates']>>;
      try {
        result = await ready().checkForUpdates();
      } catch (err) {
        deps.log(`update check failed: ${messageOf(err)}`);
        return tell('error', 'Cannot check for updates.', messageOf(err));
      }
      if (result === null) return tell('info', 'Updates are not available for this copy.');
      if (!result.isUpdateAvailable) return tell('info', `${PRODUCT_NAME} ${result.updateInfo.version} is the newest version.`);
      return tell('info', `${PRODUCT_NAME} ${result.updateInfo.version} is available.`, 'It is being downloaded; you will be asked to restart when it is ready.');
    },
  };
}
