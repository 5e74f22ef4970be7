// The Electron entry point: binds the real Electron module, the server and the process to the shell.
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { app, BrowserWindow, clipboard, dialog, ipcMain, Menu, shell } from 'electron';
// A CommonJS package whose `autoUpdater` is a getter that creates the platform's updater: read it lazily.
import electronUpdater from 'electron-updater';
import { startServer } from '../server/index.js';
import { runDesktop, type Desktop } from './desktop.js';
import { PREFERRED_PORT } from './start-server.js';

/** 32 random bytes: the renderer trades this per-launch secret for an admin session. */
const LAUNCH_SECRET_BYTES = 32;

/** The launched app (null if another instance runs or the start failed); exported for the tests. */
export const desktop: Promise<Desktop | null> = runDesktop({
  electron: { app, BrowserWindow, Menu, ipcMain, shell, clipboard, dialog },
  startServer,
  env: process.env,
  preferredPort: PREFERRED_PORT,
  platform: process.platform,
  arch: process.arch,
  electronVersion: process.versions.electron,
  preload: join(import.meta.dirname, 'preload.cjs'),
  exists: existsSync,
  newSecret: () => randomBytes(LAUNCH_SECRET_BYTES).toString('base64url'),
  signals: process,
  log: (message) => process.stderr.write(`${message}\n`),
  updater: () => electronUpdater.autoUpdater,
});
