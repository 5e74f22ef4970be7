// A recording stand-in for electron-updater's `autoUpdater` (it needs a packaged Electron app and the
// network): the tests pass it where main/ takes the updater, or install it with vi.mock('electron-updater', ...).
import { EventEmitter } from 'node:events';
import type { ReleaseInfo, UpdaterPort } from '../../main/updater.js';

type CheckResult = Awaited<ReturnType<UpdaterPort['checkForUpdates']>>;

/** The updater: scripted check results, a record of checks and installs, and the events it emits. */
export class FakeUpdater extends EventEmitter implements UpdaterPort {
  autoDownload = false;
  autoInstallOnAppQuit = true;
  checks = 0;
  installs = 0;
  /** What the next checks answer: a result, or an error to reject with. */
  nextCheck: CheckResult | Error = { isUpdateAvailable: false, updateInfo: { version: '0.1.0' } };
  private readonly checkWaiters: (() => void)[] = [];

  checkForUpdates(): Promise<CheckResult> {
    this.checks += 1;
    for (const wake of this.checkWaiters.splice(0)) wake();
    return this.nextCheck instanceof Error ? Promise.reject(this.nextCheck) : Promise.resolve(this.nextCheck);
  }
  quitAndInstall(): void {
    this.installs += 1;
  }
  /** A release finished downloading, as electron-updater announces it. */
  downloaded(info: ReleaseInfo): void {
    this.emit('update-downloaded', info);
  }
  /** Resolves once `count` checks were made. */
  async checked(count: number): Promise<void> {
    while (this.checks < count) await new Promise<void>((wake) => this.checkWaiters.push(wake));
  }
}

/** An updater source that records how often main/ asked for the updater (it must not when updates are off). */
export function createUpdaterSource(updater = new FakeUpdater()) {
  const source = {
    updater,
    taken: 0,
    get: (): UpdaterPort => {
      source.taken += 1;
      return updater;
    },
  };
  return source;
}
