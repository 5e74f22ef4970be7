// The renderer's only door to the main process. It runs sandboxed, so it is CommonJS and may
// require nothing but 'electron': the channel names are repeated here and checked against
// channels.ts by type (below) and by test/main/preload.test.ts.
import electron = require('electron');
import type { Channels, HearthDesktopBridge } from './channels.js' with { 'resolution-mode': 'import' };

const CHANNELS = {
  getLaunchSecret: 'hearth:get-launch-secret',
  openDataFolder: 'hearth:open-data-folder',
} as const satisfies Channels;

const { contextBridge, ipcRenderer } = electron;

const bridge: HearthDesktopBridge = {
  async getLaunchSecret() {
    const secret: unknown = await ipcRenderer.invoke(CHANNELS.getLaunchSecret);
    if (typeof secret !== 'string') throw new Error('the desktop app sent no launch secret');
    return secret;
  },
  async openDataFolder() {
    await ipcRenderer.invoke(CHANNELS.openDataFolder);
  },
};

contextBridge.exposeInMainWorld('hearthDesktop', bridge);
