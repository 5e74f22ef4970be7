import { CHANNELS } from './channels.js';
import type { InvokeEventPort, IpcMainPort } from './electron-ports.js';
import type { DesktopActions } from './menu.js';
import { sameOrigin } from './paths.js';

/** What the IPC handlers answer with: the launch secret, the actions, and the one origin allowed to ask. */
export interface IpcDeps {
  readonly ipcMain: IpcMainPort;
  readonly serverUrl: string;
  readonly launchSecret: string;
  readonly actions: Pick<DesktopActions, 'openDataFolder'>;
}

/** Refuses callers other than pages of our own server (a page the window strayed to must not get the secret). */
function assertFromServer(event: InvokeEventPort, serverUrl: string): void {
  const url = event.senderFrame?.url ?? '';
  if (!sameOrigin(url, serverUrl)) throw new Error(`refused an IPC call from ${url === '' ? 'an unknown frame' : url}`);
}

/** Registers one handler per preload function (see channels.ts). */
export function registerIpc(deps: IpcDeps): void {
  deps.ipcMain.handle(CHANNELS.getLaunchSecret, (event) => {
    assertFromServer(event, deps.serverUrl);
    return deps.launchSecret;
  });
  deps.ipcMain.handle(CHANNELS.openDataFolder, async (event) => {
    assertFromServer(event, deps.serverUrl);
    await deps.actions.openDataFolder();
  });
}
